"""Size names defined by constraint lines, for :mod:`vibecode.problems.constraints`:
``n == nums.length``, ``nums1.length == m``, ``n == grid[i].length``, ``1 <= nums.length == n <=
10^5``, ``nums.length == n + 1`` and "The number of nodes in the list is n" make ``n`` (or ``m``)
stand for a length, a row length or a node count in the other lines."""

from __future__ import annotations

import re

from vibecode.problems.constraint_bounds import NODE_COUNT
from vibecode.problems.constraint_terms import bound_term
from vibecode.problems.constraint_types import Term


def line_aliases(lines: list[str], params: dict[str, str], node_params: list[str], aliases: dict[str, Term]) -> None:
    """Add to ``aliases`` the size names that ``lines`` define (read before any bound)."""
    for line in lines:  # aliases first: "n == nums.length", "nums1.length == m", "n == grid[i].length"
        count = NODE_COUNT.search(line.strip().rstrip(".").strip())
        if count and node_params and count.group(1) not in params:
            aliases.setdefault(count.group(1), ("len", node_params[0], 0))
        chain = [p.strip() for p in re.split(r"(<=|>=|==|<|>)", line.strip().rstrip("."))]
        for k in range(1, len(chain) - 1, 2):  # "1 <= nums.length == n <= 10^5"
            a, b = chain[k - 1], chain[k + 1]
            if chain[k] == "==" and re.search(r"[<>]", line):
                for alias, other in ((a, b), (b, a)):
                    t = bound_term(other, params, aliases)
                    if re.fullmatch(r"[A-Za-z_]\w*", alias) and alias not in params and alias not in aliases \
                            and t is not None and t[0] in ("len", "ilen"):
                        aliases[alias] = t
        if "==" not in line or re.search(r"[<>!]", line):
            continue
        sides = [p.strip() for p in line.strip().rstrip(".").split("==")]
        shifted = re.fullmatch(r"([A-Za-z_]\w*)\s*([+-])\s*(\d+)", sides[-1]) if len(sides) == 2 else None
        if shifted and shifted.group(1) not in params and shifted.group(1) not in aliases:
            t = bound_term(sides[0], params, aliases)  # "nums.length == n + 1": n is the length minus 1
            if t is not None and t[0] in ("len", "ilen"):
                k = int(shifted.group(3)) * (1 if shifted.group(2) == "+" else -1)
                aliases[shifted.group(1)] = (t[0], t[1], t[2] - k)
                continue
        for alias in sides:
            if re.fullmatch(r"[A-Za-z_]\w*", alias) and alias not in params and alias not in aliases:
                found = [t for o in sides if o != alias and (t := bound_term(o, params, aliases)) and t[0] in ("len", "ilen")]
                if found:
                    aliases[alias] = found[0]
