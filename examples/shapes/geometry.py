"""Shapes with areas: classes, protocols and generics from the standard library."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol


class HasArea(Protocol):
    def area(self) -> float: ...


class Circle:
    def __init__(self, radius: float) -> None:
        self.radius = radius

    def area(self) -> float:
        return math.pi * self.radius**2


class Rectangle:
    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height

    def area(self) -> float:
        return self.width * self.height


def total_area(shapes: Iterable[HasArea]) -> float:
    return sum(shape.area() for shape in shapes)


def largest(shapes: Sequence[HasArea]) -> HasArea | None:
    if not shapes:
        return None
    return max(shapes, key=lambda shape: shape.area())
