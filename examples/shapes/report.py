"""Print a report: imports a local package, the standard library and an installed typed package."""

from __future__ import annotations

import os
import sys

import typeshed_client  # installed with veritype; ships a py.typed marker

from shapes.geometry import Circle, HasArea, Rectangle, total_area


def main(argv: list[str]) -> int:
    # Declared: a display of two unrelated classes is list[object] (mypy joins them).
    shapes: list[HasArea] = [Circle(1.0), Rectangle(2.0, 3.0)]
    width = os.get_terminal_size().columns if sys.stdout.isatty() else 80
    print(f"total area: {total_area(shapes):.2f}".ljust(width))
    print(f"typeshed_client is at {typeshed_client.__file__}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(list(sys.argv)))
