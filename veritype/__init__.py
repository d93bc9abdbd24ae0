"""veritype: a static type checker for Python, correct by the typing specification."""

__version__ = "0.1.0"
