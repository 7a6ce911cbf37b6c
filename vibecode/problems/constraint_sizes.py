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
