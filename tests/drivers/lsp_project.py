"""A small real project for the language-server tests, and cursor markers.

`position(text, marker, offset)` finds `marker` in the text and returns the
LSP position `offset` characters into it: tests name the code they point at
instead of counting columns.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as T

FILES = {
    "app/__init__.py": "",
    "app/models.py": '''\
from dataclasses import dataclass


@dataclass
class User:
    """A user of the app."""

    name: str
    age: int = 0

    def greeting(self, polite: bool = True) -> str:
        """Say hello."""
        return ("Dear " if polite else "") + self.name


def make_user(name: str, age: int = 0) -> User:
    return User(name, age)
''',
    "app/main.py": '''\
import os
from typing import Optional

from app.models import User, make_user

LIMIT = 3


def describe(user: Optional[User], count) -> str:
    if user is None:
        return "nobody"
    label = user.greeting(polite=False)
    items = [len(part) for part in label.split()]
    total = sum(items)
    return f"{label} {total} {os.sep}"


class Report:
    def __init__(self) -> None:
        self.users: list[User] = []

    def add(self, name: str):
        u = make_user(name, age=3)
        self.users.append(u)
        return u


def undocumented():
    x = 1
    return [x]

bad: int = "no"
''',
}


def write_project(root: Path) -> None:
    (root / ".git").mkdir(exist_ok=True)
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def position(text: str, marker: str, offset: int = 0, nth: int = 0) -> T.Position:
    start = -1
    for _ in range(nth + 1):
        start = text.index(marker, start + 1)
    index = start + offset
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    return T.Position(line, column)
