"""Sentences about the shape of an argument (a tree's values, a nested list's depth, rectangles'
areas), read into checks (generate-then-filter). Built from dev lines only; each a general form
with one dev line:

- "There exist some node in the tree where Node.val == k." (closest_leaf_in_a_binary_tree) -> the
  integer argument is one of the tree's values;
- "The maximum depth of any integer is less than or equal to 50." (nested_list_weight_sum, "The
  depth of an integer is the number of lists that it is inside of") -> the nesting depth of the one
  list argument; "There are no empty lists." (nested_list_weight_sum_ii, one list argument whose
  statement speaks of a nested list) -> no list inside it, nor itself, is empty;
- "All rectangles have non zero area." (rectangle_area_ii, ``rectangle[i] = [xi1, yi1, xi2, yi2]``)
  -> no row of the rectangles has two equal x or two equal y corners.
- "-10^4 <= xi, yi <= 10^4" (valid_square, "The coordinate of a point pi is represented as [xi,
  yi]", arguments ``p1`` ... ``p4``) -> the value range of every such point argument (generated
  within it).
- "1 <= depth <= the depth of tree + 1" (add_one_row_to_tree) -> the integer between a bound and
  the depth of the one tree (LeetCode level order) plus a number;
- "root.val == min(root.left.val, root.right.val) for each internal node of the tree"
  (second_minimum_node_in_a_binary_tree; also max) -> every node with two children holds the
  smaller (larger) of their values.

A check that cannot read an input says None.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_prose import tree_depth
from vibecode.problems.constraint_types import Check, Constraints, _plain, number

_EXISTS = re.compile(r"^there exists? (?:some|a|one|at least one) node in the tree (?:where|with|whose) "
                     r"(?:node\.val|its value|value) ==? (\w+)\s*\.?$", re.I)
_DEPTH = re.compile(r"^the maximum depth of any integer is (?:less than or equal to|at most) (\S+?)\s*\.?$", re.I)
_NO_EMPTY = re.compile(r"^there (?:are|is) no empty (?:nested )?lists?\s*\.?$", re.I)
_POINT = re.compile(r"\bpoint ([a-z])i is represented as \[\s*(\w+)i,\s*(\w+)i\s*\]", re.I)
_BOTH = re.compile(r"^(\S+)\s*<=\s*(\w+),\s*(\w+)\s*<=\s*(\S+?)\s*\.?$")
_TREE_DEPTH = re.compile(r"^(\S+)\s*<=\s*(\w+)\s*<=\s*the depth of (?:the )?tree(?:\s*\+\s*(\d+))?\s*\.?$", re.I)
_CHILDREN = re.compile(r"^root\.val == (min|max)\(root\.left\.val, root\.right\.val\) for (?:each|every) internal node "
                       r"(?:of|in) the tree\s*\.?$", re.I)
_AREA = re.compile(r"^all (?:the )?rectangles have (?:a )?non[- ]?zero area\s*\.?$", re.I)


def read_shape(line: str, params: dict[str, str], statement: str, c: Constraints) -> bool:
    """Add the check one of the module's sentences states; False for any other line."""
    text = line.strip()
    m = _EXISTS.match(text)
    trees = [n for n, k in params.items() if k == "treenode"]
    if m and params.get(m.group(1)) == "int" and len(trees) == 1:
        k, tree = m.group(1), trees[0]
        c.checks.append(Check(line, "a value of the tree", lambda a: a.get(k) in v if isinstance(v := a.get(tree), list) else None))
        return True
    m = _TREE_DEPTH.match(text)
    low = number(m.group(1)) if m else None
    if m and low is not None and params.get(m.group(2)) == "int" and len(trees) == 1:
        k, tree, extra = m.group(2), trees[0], int(m.group(3) or 0)
        c.checks.append(Check(line, "up to the tree's depth", lambda a: None if not isinstance(v := a.get(tree), list)
                              or not isinstance(x := a.get(k), int) else low <= x <= tree_depth(v) + extra))
        return True
    m = _CHILDREN.match(text)
    if m and len(trees) == 1:
        pick, tree = min if m.group(1).lower() == "min" else max, trees[0]
        c.checks.append(Check(line, "a node's value from its children", lambda a: _from_children(a.get(tree), pick)))
        return True
    m = _DEPTH.match(text)
    lists = [n for n, k in params.items() if k == "list"]
    most = number(m.group(1)) if m else None
    if m and isinstance(most, int) and len(lists) == 1 and re.search(r"\bdepth\b", statement):
        name = lists[0]
        c.checks.append(Check(line, "nesting depth", lambda a: _depth(v) <= most if isinstance(v := a.get(name), list) else None))
        return True
    if _NO_EMPTY.match(text) and len(lists) == 1 and re.search(r"\bnested list\b", statement, re.I):
        name = lists[0]
        c.checks.append(Check(line, "no empty lists", lambda a: _no_empty(v) if isinstance(v := a.get(name), list) else None))
        return True
    m, point = _BOTH.match(text), _POINT.search(_plain(statement))
    if m and point:
        letter, x, y = point.groups()
        named = [n for n, k in params.items() if k == "list" and re.fullmatch(rf"{letter}\d+", n)]
        lo, hi = number(m.group(1)), number(m.group(4))
        if {m.group(2), m.group(3)} == {x + "i", y + "i"} and named and len(named) == len(params) \
                and lo is not None and hi is not None:
            for n in named:
                c.value.setdefault(n, []).append((("num", lo, 0), ("num", hi, 0)))
            return True
    rects = [n for n in lists if "rectangle" in n.lower()
             and re.search(rf"\b{re.escape(n.rstrip('s'))}s?\[i\]\s*==?\s*\[\s*x\w*,\s*y\w*,\s*x\w*,\s*y\w*\s*\]", _plain(statement))]
    if _AREA.match(text) and len(rects) == 1:
        name = rects[0]
        c.checks.append(Check(line, "non-zero area", lambda a: _areas(a.get(name))))
        return True
    return False


def _from_children(level: object, pick: Callable[[int, int], int]) -> bool | None:
    """Every node with two children holds ``pick`` of their values (LeetCode level order)."""
    if not isinstance(level, list):
        return None
    if not level or level[0] is None:
        return True
    nodes, k = [0], 1  # indexes of the real nodes, in order; each takes the next two slots
    for at in nodes:
        kids = [level[j] if j < len(level) else None for j in (k, k + 1)]
        nodes += [j for j in (k, k + 1) if j < len(level) and level[j] is not None]
        k += 2
        left, right = kids
        if isinstance(left, int) and isinstance(right, int) and level[at] != pick(left, right):
            return False
    return True


def _depth(v: object) -> int:
    """The number of lists the deepest integer is inside of (a flat list: 1)."""
    if not isinstance(v, list):
        return 0
    return 1 + max((_depth(x) for x in v if isinstance(x, list)), default=0)


def _no_empty(v: list[object]) -> bool:
    return bool(v) and all(_no_empty(x) for x in v if isinstance(x, list))


def _areas(rows: object) -> bool | None:
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 4 for r in rows):
        return None
    return all(r[0] != r[2] and r[1] != r[3] for r in rows)


__all__ = ["read_shape"]
