"""Runs of one character in a string argument, read into checks (generate-then-filter). Built from
dev lines only; one form, two dev lines:

- "There cannot be more than 20 consecutive '+'." (flip_game_ii) -> no run of ``'+'`` longer than
  20 in the one string argument;
- "The initial row of balls on the board will not have any groups of three or more consecutive
  balls of the same color." (zuma_game) -> no run of any one character of length 3 or more in the
  string the line names (``board``).

A check that cannot read an input says None.
"""

from __future__ import annotations

import itertools
import re

from vibecode.problems.constraint_types import Check, Constraints

_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
_AT_MOST = re.compile(r"^there (?:cannot|can not|will not|won't) be more than (\d+) consecutive '(.)'s?\s*\.?$", re.I)
_NONE_OF = re.compile(r"\b(?:will not|won't|does not|do not|cannot) (?:have|contain) any (?:groups? of )?(\d+|two|three|four|five)"
                      r" or more consecutive \w+ of the same (?:color|colour|character|letter)\s*\.?$", re.I)


def read_runs(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Add the check the line states about runs of a character; False for any other line."""
    text = line.strip()
    strings = [n for n, k in params.items() if k == "str"]
    m = _AT_MOST.match(text)
    if m and len(strings) == 1:
        name, most, ch = strings[0], int(m.group(1)), m.group(2)
        c.checks.append(Check(line, "run of a character", lambda a: _longest(a.get(name), ch) <= most
                              if isinstance(a.get(name), str) else None))
        return True
    m = _NONE_OF.search(text)
    named = [n for n in strings if re.search(rf"\b{re.escape(n)}\b", text)]
    if m and len(named) == 1:
        name = named[0]
        least = int(m.group(1)) if m.group(1).isdigit() else _WORDS[m.group(1).lower()]
        c.checks.append(Check(line, "run of a character", lambda a: _longest(a.get(name), None) < least
                              if isinstance(a.get(name), str) else None))
        return True
    return False


def _longest(s: object, ch: str | None) -> int:
    """The longest run of ``ch`` (of any one character when None) in ``s``."""
    if not isinstance(s, str):
        return 0
    return max((len(list(g)) for k, g in itertools.groupby(s) if ch is None or k == ch), default=0)


__all__ = ["read_runs"]
