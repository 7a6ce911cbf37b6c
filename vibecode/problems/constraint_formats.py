"""Strings that follow a format with named fields, read into checks (generate-then-filter). Built
from dev lines only (subdomain_visit_count, three lines of one general form):

- ``cpdomains[i] follows either the "repi d1i.d2i.d3i" format or the "repi d1i.d2i" format.`` ->
  every item of the list matches one of the templates (a field: a run of characters other than
  space, ``.``, ``:``, ``/``; everything else literal);
- a field's line under such a format: "repi is an integer in the range [1, 10^4]." (an integer
  within the range), "d1i, d2i, and d3i consist of lowercase English letters." (letters a-z) -> the
  field of every item that has it.

A check that cannot read an input says None.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, number

_FORMAT = re.compile(r'^(\w+)\[i\] follows (?:either )?the "([^"]+)" format(?: or the "([^"]+)" format)?\s*\.?$', re.I)
_INTEGER = re.compile(r"^(\w+) is an integer in the range \[\s*([^,\]]+),\s*([^\]]+)\]\s*\.?$", re.I)
_LETTERS = re.compile(r"^(\w+(?:\s*,\s*\w+)*(?:,?\s*and\s+\w+)?) consists? (?:only )?of lowercase english letters\s*\.?$", re.I)
_FIELD = r"[^\s.:/]+"


def _templates(lines: list[str], params: dict[str, str]) -> tuple[str, list[re.Pattern[str]], list[set[str]]] | None:
    """The list argument and its templates (as patterns, and their field names) from the format line."""
    for line in lines:
        m = _FORMAT.match(line.strip())
        if m and params.get(m.group(1)) == "list":
            shapes = [t for t in m.groups()[1:] if t]
            fields = [set(re.findall(r"\w+", t)) for t in shapes]
            pats = [re.compile("".join(f"(?P<{tok}>{_FIELD})" if re.fullmatch(r"\w+", tok) else re.escape(tok)
                                       for tok in re.findall(r"\w+|\W", t))) for t in shapes]
            return m.group(1), pats, fields
    return None


def read_format(line: str, params: dict[str, str], lines: list[str], c: Constraints) -> bool:
    """Add the check a format line or a line on its fields states; False for any other line."""
    found = _templates(lines, params)
    if found is None:
        return False
    name, pats, fields = found
    text = line.strip()
    if _FORMAT.match(text):
        return _add(c, line, "format", name, pats, None, lambda v: True)
    m = _INTEGER.match(text)
    if m and any(m.group(1) in f for f in fields):
        lo, hi = number(m.group(2)), number(m.group(3))
        if lo is None or hi is None:
            return False
        return _add(c, line, "format field", name, pats, {m.group(1)},
                    lambda v: re.fullmatch(r"-?\d+", v) is not None and lo <= int(v) <= hi)
    m = _LETTERS.match(text)
    named = set(re.findall(r"\w+", m.group(1))) - {"and"} if m else set()
    if named and all(any(n in f for f in fields) for n in named):
        return _add(c, line, "format field", name, pats, named, lambda v: re.fullmatch(r"[a-z]+", v) is not None)
    return False


def _add(c: Constraints, line: str, kind: str, name: str, pats: list[re.Pattern[str]], fields: set[str] | None,
         ok: Callable[[str], bool]) -> bool:
    c.checks.append(Check(line, kind, lambda a: _items(a.get(name), pats, fields, ok)))
    return True


def _items(v: object, pats: list[re.Pattern[str]], fields: set[str] | None, ok: Callable[[str], bool]) -> bool | None:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        return None
    for s in v:
        m = next((m for p in pats if (m := p.fullmatch(s))), None) if isinstance(s, str) else None
        if m is None:
            if fields is None:
                return False
            continue  # a string of no format: the format line says so
        if fields is not None and not all(ok(m.group(f)) for f in fields if f in m.groupdict()):
            return False
    return True


__all__ = ["read_format"]
