"""Keeping a tab-indented file's own indentation when a model writes spaces (issue 15, item 12).

Models often answer with spaces even when the SEARCH text they copied is the file's tabs, or
mix the two (the first line with a tab, the rest with spaces). Applied as written, the new lines
would be space-indented inside a tab-indented file (and shown that way, and Python may reject the
mix with a TabError). In a file indented with tabs, each replacement line indented purely with
spaces, and not already in the file's matched lines, gets tabs: one per indentation step, the
step being 4 spaces when every such indent is a multiple of 4, else their greatest common divisor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vibecode.patch.text import indent_of

SPACES_PER_STEP = 4  # what models (and PEP 8) indent with


def uses_tabs(lines: Sequence[str]) -> bool:
    """Whether more of the file's lines are indented with a tab than with a space."""
    return sum(1 for ln in lines if ln.startswith("\t")) > sum(1 for ln in lines if ln.startswith(" "))


def tabs_for_spaces(replace: Sequence[str], region: Sequence[str] = ()) -> list[str]:
    """``replace`` (lines without endings) with pure-space indentation turned into tabs; a line
    that is verbatim in ``region`` (the file's matched lines) is the file's own and kept."""
    unchanged = set(region)
    widths = [len(indent_of(line)) for line in replace if _spaced(line) and line not in unchanged]
    if not widths:
        return list(replace)
    step = SPACES_PER_STEP if all(w % SPACES_PER_STEP == 0 for w in widths) else math.gcd(*widths)
    out: list[str] = []
    for line in replace:
        if _spaced(line) and line not in unchanged:
            indent = indent_of(line)
            tabs, rest = divmod(len(indent), step)
            line = "\t" * tabs + " " * rest + line[len(indent):]
        out.append(line)
    return out


def _spaced(line: str) -> bool:
    indent = indent_of(line)
    return bool(indent) and set(indent) == {" "} and bool(line.strip())
