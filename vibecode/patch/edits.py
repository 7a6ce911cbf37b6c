"""The edit operations that extraction produces and :mod:`vibecode.patch.apply` carries out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EditKind = Literal["replace", "create", "delete", "whole", "content", "definitions"]


@dataclass(frozen=True)
class Edit:
    """One edit to one file, as the model wrote it.

    - ``replace``: replace ``search`` with ``text``; an empty ``search`` creates the file, or
      appends ``text`` to an existing one.
    - ``create``: the file must not exist (or already have exactly ``text``).
    - ``delete``: the file must exist; ``search``, when given, is what the model thought it held.
    - ``whole``: the file's new content is ``text`` (line endings adapted to the file's).
    - ``content``: the file's new content is exactly ``text`` (a diff that applied exactly).
    - ``definitions``: ``text`` is Python code; each top-level function/class in it replaces the
      one of the same name in the file (methods one by one for a partial class), new ones are
      appended and missing imports added.
    """

    path: str  # repository-relative, POSIX separators
    kind: EditKind
    text: str = ""
    search: str = ""
    hint_line: int | None = None  # 0-based line from a diff hunk header, to break ties
    origin: str = ""  # where it came from, for messages: "SEARCH/REPLACE block at line 12"
    # For diff hunks that reach the end of the file: whether the new last line ends with a
    # newline ("\ No newline at end of file" markers); None keeps what the file had.
    eof_newline: bool | None = None


@dataclass(frozen=True)
class EditOutcome:
    edit: Edit
    level: str  # "exact", "whitespace", "fuzzy", "substring", "new", "whole", "definitions"...
    score: float = 1.0
    superseded: bool = False  # a later edit of the same region replaced this one
    span: tuple[int, int] | None = None  # strict replace: the lines [start, end) it replaced
