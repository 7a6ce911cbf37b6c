"""Unified diffs, including the partial ones models write.

Accepted: ``diff --git`` headers or none; ``---``/``+++`` headers with ``a/``/``b/`` prefixes,
timestamps or ``/dev/null``; ``new file mode`` / ``deleted file mode``; hunk headers with line
numbers, without (``@@ ... @@``, a bare ``@@``) or with wrong counts (counts are never trusted);
``\\ No newline at end of file`` markers. In a fenced diff block (``lenient``) a hunk line that
lost its leading space is taken as context; elsewhere such a line ends the hunk.

Each hunk becomes a search (context and ``-`` lines) -> replacement (context and ``+`` lines)
edit, matched like a SEARCH/REPLACE block; the header's line number only breaks ties.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from vibecode.patch.text import split_lines

_HUNK = re.compile(r"^@@+\s*(?:-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?)?.*$")
_GIT = re.compile(r"^diff --git (\S+) (\S+)\s*$")
DEV_NULL = "/dev/null"


@dataclass
class Hunk:
    old_start: int | None  # 1-based, from the header (None when it had no numbers)
    old_count: int | None
    # (" "|"-"|"+", text without "\n" but with any "\r"); "~" marks an empty line while parsing
    lines: list[tuple[str, str]] = field(default_factory=list)
    old_no_newline: bool = False  # "\ No newline" after the last old-side line
    new_no_newline: bool = False

    def wants_old_lines(self) -> bool:
        """True while the header's old-side count says more old lines are due."""
        if self.old_count is None:
            return False
        return sum(1 for k, _ in self.lines if k in " -~") < self.old_count

    @property
    def search(self) -> str:
        return "".join(t + "\n" for k, t in self.lines if k in " -")

    @property
    def replace(self) -> str:
        return "".join(t + "\n" for k, t in self.lines if k in " +")

    @property
    def hint(self) -> int | None:
        if self.old_start is None:
            return None
        if self.old_count == 0:
            return self.old_start  # insert after line old_start
        return max(0, self.old_start - 1)


@dataclass
class FileDiff:
    old_path: str | None  # None: /dev/null (created)
    new_path: str | None  # None: /dev/null (deleted)
    hunks: list[Hunk] = field(default_factory=list)
    line: int = 0  # 0-based line in the parsed text where this file's section starts

    @property
    def path(self) -> str | None:
        return self.new_path if self.new_path is not None else self.old_path


def looks_like_diff(text: str) -> bool:
    lines = text.split("\n")
    if any(_GIT.match(line) for line in lines):
        return True
    if any(line.startswith("@@") for line in lines):
        return True
    return any(a.startswith("--- ") and b.startswith("+++ ") for a, b in pairwise(lines))


def _strip_path(raw: str) -> str | None:
    path = raw.split("\t")[0].strip()
    path = re.sub(r"\s+\d{4}-\d\d-\d\d[ T][\d:.]+(\s*[+-]\d{4})?$", "", path)
    if path.startswith('"') and path.endswith('"') and len(path) >= 2:
        path = path[1:-1]
    if path == DEV_NULL:
        return None
    if path[:2] in ("a/", "b/"):
        path = path[2:]
    return path


def parse_diff(text: str, lenient: bool = False, default_path: str | None = None) -> list[FileDiff]:
    """Parse every file section of a (possibly partial) unified diff."""
    raw_lines = text.split("\n")
    lines = [line.rstrip("\r") for line in raw_lines]
    files: list[FileDiff] = []
    current: FileDiff | None = None
    hunk: Hunk | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        git = _GIT.match(line)
        if git:
            current = FileDiff(_strip_path(git.group(1)), _strip_path(git.group(2)), line=i)
            files.append(current)
            hunk = None
        elif (
            line.startswith("--- ")
            and i + 1 < len(lines)
            and lines[i + 1].startswith("+++ ")
            and not (hunk is not None and hunk.wants_old_lines())
        ):
            old, new = _strip_path(line[4:]), _strip_path(lines[i + 1][4:])
            if current is not None and not current.hunks and (hunk is None):
                current.old_path, current.new_path = old, new
            else:
                current = FileDiff(old, new, line=i)
                files.append(current)
            hunk = None
            i += 2
            continue
        elif line.startswith("new file mode") and current is not None:
            current.old_path = None
        elif line.startswith("deleted file mode") and current is not None:
            current.new_path = None
        elif line.startswith("@@"):
            if current is None:
                current = FileDiff(default_path, default_path, line=i)
                files.append(current)
            numbers = _HUNK.match(line)
            old_start = old_count = None
            if numbers and numbers.group(1):
                old_start = int(numbers.group(1))
                old_count = int(numbers.group(2)) if numbers.group(2) is not None else 1
            hunk = Hunk(old_start, old_count)
            current.hunks.append(hunk)
        elif hunk is not None and not _hunk_line(hunk, raw_lines[i], lenient):
            hunk = None
            if not lenient:
                current = None
        i += 1
    for diff in files:
        for h in diff.hunks:
            while h.lines and h.lines[-1][0] == "~":
                h.lines.pop()  # empty lines after the hunk are not context
            h.lines = [(" " if k == "~" else k, t) for k, t in h.lines]
    return [f for f in files if f.hunks or f.old_path is None or f.new_path is None]


def _hunk_line(hunk: Hunk, line: str, lenient: bool) -> bool:
    """Add one line to the hunk; False when the line cannot belong to a hunk."""
    if line.startswith("\\"):
        if hunk.lines:
            kind = hunk.lines[-1][0]
            if kind in " -":
                hunk.old_no_newline = True
            if kind in " +":
                hunk.new_no_newline = True
        return True
    if line[:1] in (" ", "-", "+"):
        hunk.lines.append((line[0], line[1:]))
        return True
    if line in ("", "\r"):
        hunk.lines.append(("~", line))  # blank context, or the end of the hunk: decided later
        return True
    if lenient and not line.startswith(("diff ", "index ", "```", "~~~", "@@")):
        hunk.lines.append((" ", line))
        return True
    return False


def apply_strict(content: str, hunks: list[Hunk]) -> str | None:
    """Apply well-formed hunks exactly, as ``git apply`` would (line endings and the
    no-newline markers included, a hunk found at its header's line or the nearest offset).
    None when any hunk does not match exactly; the tolerant matcher is the fallback."""
    lines = split_lines(content)
    out: list[str] = []
    pos = 0
    for hunk in hunks:
        old = _side(hunk, " -", hunk.old_no_newline)
        new = _side(hunk, " +", hunk.new_no_newline)
        want = (hunk.old_start - 1 if hunk.old_count else hunk.old_start or 0) if hunk.old_start else pos
        at = _nearest(lines, old, max(want, pos), pos)
        if at is None:
            return None
        out.extend(lines[pos:at])
        out.extend(new)
        pos = at + len(old)
    out.extend(lines[pos:])
    return "".join(out)


def _side(hunk: Hunk, kinds: str, no_newline: bool) -> list[str]:
    side = [text + "\n" for kind, text in hunk.lines if kind in kinds]
    if side and no_newline:
        side[-1] = side[-1][:-1]
    return side


def _nearest(lines: list[str], block: list[str], want: int, floor: int) -> int | None:
    size = len(block)
    limit = len(lines) - size
    for delta in range(0, max(limit, 0) + max(want, 0) + 2):
        for at in (want - delta, want + delta) if delta else (want,):
            if floor <= at <= limit and lines[at : at + size] == block:
                return at
    return None
