"""Sizes a problem states outside its constraint lines: size names the statement defines ("an
integer array nums of length n", "an m x n grid") and the width of rows whose columns it names
(``mines[i] = [xi, yi]``: rows of two items)."""

from __future__ import annotations

import re

from vibecode.problems.constraint_types import Constraints, Term
from vibecode.types import Problem


def column_widths(problem: Problem, c: Constraints) -> None:
    """``mines[i] = [xi, yi]``: the rows of mines have two items (when every example agrees)."""
    for name in {n for n, _ in c.columns.values()}:
        width = 1 + max(k for n, k in c.columns.values() if n == name)
        shown = [ex.inputs.get(name) for ex in problem.examples]
        rows = [r for v in shown if isinstance(v, list) for r in v]
        if rows and all(isinstance(r, list) and len(r) == width for r in rows) and name not in c.inner_length:
            c.inner_length[name] = [(("num", width, 0), ("num", width, 0))]


def statement_aliases(statement: str, params: dict[str, str], aliases: dict[str, Term]) -> None:
    """Size names the statement defines: "an integer array nums of length n", "an m x n grid"."""
    text = re.sub(r"<[^>]+>|\*\*|\\", "", statement)
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s+of\s+(?:length|size)\s+([A-Za-z_]\w*)\b", text):
        name, alias = m.groups()
        if params.get(name) in ("list", "str") and alias not in params:
            aliases.setdefault(alias, ("len", name, 0))
    lists = "|".join(re.escape(n) for n, k in params.items() if k == "list")
    for m in re.finditer(rf"\b([a-z])\s*[x×*]\s*([a-z])\s+(?:[\w-]+\s+){{0,3}}?({lists})\b" if lists else r"(?!)", text):
        rows, cols, name = m.groups()
        if rows not in params and cols not in params and rows != cols:
            aliases.setdefault(rows, ("len", name, 0))
            aliases.setdefault(cols, ("ilen", name, 0))


_SCALED = re.compile(r"^\s*(?:(\w+)\.length\s*==\s*(\d+)\s*\*\s*([A-Za-z_]\w*)|(\d+)\s*\*\s*([A-Za-z_]\w*)\s*==\s*(\w+)\.length)\s*\.?\s*$")


def scaled_sizes(lines: list[str], params: dict[str, str]) -> dict[str, tuple[int, str]]:
    """``nums.length == 2 * n`` (n not an argument) -> {"n": (2, "nums")}."""
    out: dict[str, tuple[int, str]] = {}
    for line in lines:
        m = _SCALED.match(line)
        if m:
            name, k, size = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(6), m.group(4), m.group(5))
            if name in params and size not in params:
                out.setdefault(size, (int(k), name))
    return out


def rescaled(line: str, scaled: dict[str, tuple[int, str]]) -> str | None:
    """A line about a scaled size as a line about the list: the defining line -> ``nums.length %
    2 == 0``; ``1 <= n <= 10^4`` -> ``2 <= nums.length <= 20000``."""
    from vibecode.problems.constraint_types import number

    m = _SCALED.match(line)
    if m:
        name, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(6), m.group(4))
        size = m.group(3) or m.group(5)
        return f"{name}.length % {k} == 0" if scaled.get(size) == (int(k), name) else None
    parts = [p.strip() for p in re.split(r"(<=|<)", line.strip().rstrip("."))]
    if len(parts) == 5 and parts[2] in scaled:
        k, name = scaled[parts[2]]
        lo, hi = number(parts[0]), number(parts[4])
        if isinstance(lo, int) and isinstance(hi, int):
            return f"{lo * k} {parts[1]} {name}.length {parts[3]} {hi * k}"
    return None
