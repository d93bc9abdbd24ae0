"""Whether an error code is reported under a module's options.

The code's default (diagnostics/codes.py) as the options change it:
`--enable-error-code`, `--disable-error-code` (which takes a code's
sub-codes along, as mypy's does), and the flags that turn one code on or
off. Here rather than on `Options`: the options sit below the diagnostics
(DESIGN.md, the layers) and do not know the code registry.
"""

from __future__ import annotations

from veritype.diagnostics.codes import REGISTRY
from veritype.options import Options


def code_enabled(options: Options, code: str | None) -> bool:
    if code is None:
        return True
    if code in options.disable_error_code:
        return False
    if code in options.enable_error_code:
        return True
    if code == "return" and not options.warn_no_return:
        return False  # --no-warn-no-return silences "Missing return statement"
    if code == "unreachable" and options.warn_unreachable:
        return True  # the flag turns on the (off by default) code, as in mypy
    info = REGISTRY.get(code)
    if info is not None and info.parent and info.parent in options.disable_error_code:
        return False
    return info.default_enabled if info is not None else True
