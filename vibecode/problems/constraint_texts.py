"""Sentences about what string arguments hold, read into checks (generate-then-filter). Built
from dev lines only:

- integers inside strings bounded (one form, two dev lines): "All the given revisions in version1
  and version2 can be stored in a 32-bit integer." (compare_version_numbers: the unsigned integers
  of the strings named), "All numbers in the tree have value at most than 2^30."
  (construct_binary_tree_from_string: the signed integers of the one string);
- characters the input never has: "There are no single-quote or double-quote in the input."
  (remove_comments: no ``'`` or ``"`` in any string of the input);
- integers without a sign: "The integer values in the input expression do not have a leading '-'
  or '+' denoting the sign." (different_ways_to_add_parentheses: no ``+``/``-`` at the start or
  after an operator or ``(``).

A check that cannot read an input says None.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, number

_STORED = re.compile(r"^all (?:the )?(?:given )?\w+ in (\w+) and (\w+) can be stored in a 32-bit integer\s*\.?$", re.I)
_AT_MOST = re.compile(r"^all (?:the )?(?:numbers|integers) in the \w+ have (?:a )?value at most(?: than)? (\S+?)\s*\.?$", re.I)
_NO_QUOTES = re.compile(r"^there (?:are|is) no (single-quotes?|double-quotes?) or (single-quotes?|double-quotes?) in the input"
                        r"\s*\.?$", re.I)
_UNSIGNED = re.compile(r"^the integer(?: values)? in the input (\w+) do(?:es)? not have a leading '-' or '\+'"
                       r"(?: denoting the sign)?\s*\.?$", re.I)


def read_text(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Add the check one of the module's sentences states; False for any other line."""
    text = line.strip()
    strings = [n for n, k in params.items() if k == "str"]
    m = _STORED.match(text)
    if m and all(params.get(n) == "str" for n in m.groups()):
        names = list(m.groups())
        return _add(c, line, "integers inside strings", lambda a: _all_at_most(a, names, r"\d+", 2**31 - 1))
    m = _AT_MOST.match(text)
    most = number(m.group(1)) if m else None
    if m and most is not None and len(strings) == 1:
        one = strings[0]
        return _add(c, line, "integers inside strings", lambda a: _all_at_most(a, [one], r"-?\d+", most))
    m = _NO_QUOTES.match(text)
    if m and {g.lower().rstrip("s")[0] for g in m.groups()} == {"s", "d"}:
        return _add(c, line, "characters never in the input", lambda a: not any(ch in s for s in _strings(a) for ch in "'\""))
    m = _UNSIGNED.match(text)
    if m and (m.group(1) in strings or len(strings) == 1):
        one = m.group(1) if m.group(1) in strings else strings[0]
        return _add(c, line, "unsigned integers", lambda a: None if not isinstance(s := a.get(one), str)
                    else re.search(r"(?:^|[-+*/(])[-+]", s.replace(" ", "")) is None)
    return False


def _all_at_most(args: dict[str, object], names: list[str], pattern: str, most: float) -> bool | None:
    values = [args.get(n) for n in names]
    if not all(isinstance(v, str) for v in values):
        return None
    return all(int(x) <= most for v in values if isinstance(v, str) for x in re.findall(pattern, v))


def _strings(v: object) -> list[str]:
    """Every string inside the arguments (lists of lines included)."""
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):
        return [s for x in v.values() for s in _strings(x)]
    if isinstance(v, list):
        return [s for x in v for s in _strings(x)]
    return []


def _add(c: Constraints, line: str, kind: str, test: Callable[[dict[str, object]], bool | None]) -> bool:
    c.checks.append(Check(line, kind, test))
    return True


__all__ = ["read_text"]
