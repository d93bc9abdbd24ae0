"""Config files: `[tool.veritype]`, and mypy's `[tool.mypy]` / `mypy.ini` / `setup.cfg` for migration."""

from veritype.config.loader import ConfigError, finalize, find_config_file, load_config_file, load_options

__all__ = ["ConfigError", "finalize", "find_config_file", "load_config_file", "load_options"]
