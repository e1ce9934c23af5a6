"""Errors a user can cause, each rendered as one line: file, place, reason (exit 2)."""
from __future__ import annotations


class InputError(Exception):
    """The input cannot be read: malformed file, unknown operator, bad attribute, bad rule file."""

    def __init__(self, reason: str, file: str | None = None, place: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.file = file
        self.place = place

    def located(self, file: str | None = None, place: str | None = None) -> "InputError":
        """Fill in the file and place if they are not known yet."""
        if self.file is None:
            self.file = file
        if self.place is None:
            self.place = place
        return self

    def __str__(self) -> str:
        head = ": ".join(x for x in (self.file, self.place) if x)
        return f"{head}: {self.reason}" if head else self.reason
