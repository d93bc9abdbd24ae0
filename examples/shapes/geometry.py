"""Shapes with areas: classes, protocols and generics from the standard library."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol


class HasArea(Protocol):
    def area(self) -> float: ...


@dataclass(frozen=True)
class Circle:
    radius: float

    def area(self) -> float:
        return math.pi * self.radius**2


@dataclass(frozen=True)
class Rectangle:
    width: float
    height: float

    def area(self) -> float:
        return self.width * self.height


def total_area(shapes: Iterable[HasArea]) -> float:
    return sum(shape.area() for shape in shapes)


def largest(shapes: Sequence[HasArea]) -> HasArea | None:
    if not shapes:
        return None
    return max(shapes, key=lambda shape: shape.area())
