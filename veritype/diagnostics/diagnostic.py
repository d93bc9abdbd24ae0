"""The diagnostic record every stage emits and every reporter prints."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One reported problem: where, how severe, the message and its error code."""
    path: str
    line: int
    column: int  # 1-based, as printed
    severity: str  # "error" | "note" | "warning"
    message: str
    code: str | None = None
    end_line: int | None = field(default=None, compare=False)
    end_column: int | None = field(default=None, compare=False)
    # The lines on which a `# type: ignore` silences this diagnostic, when more
    # than its own line (mypy: an expression's lines, a decorated def's decorators).
    ignore_span: tuple[int, int] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # mypy quotes a type in a message unless it is `overloaded function`
        # (its quote_type_string): the formatter cannot see the quotes.
        if '"overloaded function"' in self.message:
            object.__setattr__(self, "message", self.message.replace('"overloaded function"', "overloaded function"))

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line if self.end_line is not None else self.line,
            "end_column": self.end_column if self.end_column is not None else self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
