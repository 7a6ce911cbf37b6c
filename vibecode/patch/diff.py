"""Render a :class:`Patch` as a git-style unified diff that ``git apply`` accepts.

- ``diff --git a/P b/P`` headers, ``new file mode 100644`` / ``deleted file mode 100644`` for
  created and deleted files, ``--- /dev/null`` / ``+++ /dev/null`` on those sides;
- three lines of context, hunks merged as git does;
- ``\\ No newline at end of file`` after a last line that has no newline;
- ``\\r`` kept as part of a line's content (so CRLF files diff and apply exactly);
- paths quoted the way git quotes them when they hold special characters.

The result is a ``str``; contents decoded with ``surrogateescape`` keep their undecodable bytes,
so write it with :func:`vibecode.patch.text.encode` to get the exact bytes back.
"""

from __future__ import annotations

import difflib

from vibecode.patch.text import split_lines
from vibecode.types import FileChange, Patch

_NO_NEWLINE = "\\ No newline at end of file\n"
_CONTEXT = 3


def render_diff(patch: Patch, context: int = _CONTEXT) -> str:
    return "".join(render_file_diff(change, context) for change in patch.changes)


def render_file_diff(change: FileChange, context: int = _CONTEXT) -> str:
    if change.old == change.new:
        return ""
    a = _quote(f"a/{change.path}")
    b = _quote(f"b/{change.path}")
    out = [f"diff --git {a} {b}\n"]
    if change.old is None:
        out.append("new file mode 100644\n")
    elif change.new is None:
        out.append("deleted file mode 100644\n")
    old_lines = split_lines(change.old or "")
    new_lines = split_lines(change.new or "")
    if not old_lines and not new_lines:
        return "".join(out)  # an empty file created or deleted: the header says it all
    out.append(f"--- {a if change.old is not None else '/dev/null'}\n")
    out.append(f"+++ {b if change.new is not None else '/dev/null'}\n")
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(_lines(" ", old_lines[i1:i2]))
                continue
            if tag in ("replace", "delete"):
                out.extend(_lines("-", old_lines[i1:i2]))
            if tag in ("replace", "insert"):
                out.extend(_lines("+", new_lines[j1:j2]))
    return "".join(out)


def _range(start: int, stop: int) -> str:
    length = stop - start
    begin = start + 1
    if length == 1:
        return str(begin)
    if length == 0:
        begin -= 1
    return f"{begin},{length}"


def _lines(prefix: str, lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if line.endswith("\n"):
            out.append(prefix + line)
        else:
            out.append(prefix + line + "\n" + _NO_NEWLINE)
    return out


def _quote(path: str) -> str:
    """Quote a path like git does when it contains special or non-ASCII characters."""
    special = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
    if not any(c in special or ord(c) < 0x20 or ord(c) >= 0x7F for c in path):
        return path
    body = []
    for char in path:
        if char in special:
            body.append(special[char])
        elif ord(char) < 0x20 or ord(char) >= 0x7F:
            body.extend(f"\\{byte:03o}" for byte in char.encode("utf-8", errors="surrogateescape"))
        else:
            body.append(char)
    return '"' + "".join(body) + '"'
