"""Sentences about the rows of list arguments, or the sum of an argument's values, read into checks
(generate-then-filter). Built from dev lines only; each a general form with one dev line:

- "Both arrays are in strictly ascending order by id." (merge_two_2d_arrays_by_summing_values,
  ``nums1[i] = [idi, vali]``): the column ``idi`` of every list that has it (or of the list the
  line names) increases down the rows (strictly, or "non-decreasing");
- "All worker and bike locations are unique." (campus_bikes): the rows of ``workers`` and
  ``bikes`` taken together are distinct (``locations``, ``positions``, ``points``);
- "For each IDi, there will be at least five scores." (high_five, ``items[i] = [IDi, scorei]``):
  each value of that column is in that many rows or more;
- "The sum of all Node.val is n." (distribute_coins_in_binary_tree, "The number of nodes in the
  tree is n"): the values of the one tree (or list) add up to that term.
- "Alice and Bob have a different total number of candies." (fair_candy_swap, ``aliceSizes`` and
  ``bobSizes``) -> the sums of the two lists the names begin differ.
- "informTime[i] == 0 if employee i has no subordinates." (time_needed_to_inform_all_employees,
  ``manager[i]`` the direct manager of employee i) -> the entry is that value at every index no
  entry of the other list (``manager``, ``parent``) points to.

A check that cannot read an input says None.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, Term, _plain, resolve

_ORDER = re.compile(r"^(both arrays|(?:all|each|every) (?:of the )?arrays|\w+) (?:is|are) (?:sorted )?in (strictly )?"
                    r"(ascending|increasing|non-decreasing) order by (\w+)\s*\.?$", re.I)
_PLACES = re.compile(r"^all (?:the )?(\w+) and (\w+) (?:locations|positions|points|coordinates) are (?:unique|distinct)"
                     r"\s*\.?$", re.I)
_PER = re.compile(r"^for each (\w+), there (?:will be|is|are) at least (\d+|one|two|three|four|five) \w+\s*\.?$", re.I)
_TOTALS = re.compile(r"^(\w+) and (\w+) have (?:a )?different total (?:number|amount|sum) of \w+\s*\.?$", re.I)
_LEAF = re.compile(r"^(\w+)\[i\] == (-?\d+) if (?:employee|node|process) i has no (?:subordinates|children)\s*\.?$", re.I)
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_SUM = re.compile(r"^the sum of (?:all )?(?:the )?(node\.val|(\w+)\[i\]|values of (\w+)) is (\w+)\s*\.?$", re.I)


def read_rows(line: str, params: dict[str, str], statement: str, term: Callable[[str], Term | None],
              c: Constraints) -> bool:
    """Add the check one of the module's sentences states; False for any other line. ``term``
    reads a bound (``n``) as the constraint reader does."""
    text = line.strip()
    m = _ORDER.match(text)
    if m:
        return _ordered(line, m, params, statement, c)
    m = _PLACES.match(text)
    if m:
        names = [_plural(w, params) for w in (m.group(1), m.group(2))]
        if None in names or len(set(names)) != 2:
            return False
        lists = [n for n in names if n is not None]
        c.checks.append(Check(line, "distinct rows across lists", lambda a: _distinct_rows([a.get(n) for n in lists])))
        return True
    m = _PER.match(text)
    if m:
        found = _columns(statement, params, {m.group(1)})
        if len(found) != 1:
            return False
        (name, k), = found.items()
        least = int(m.group(2)) if m.group(2).isdigit() else _WORDS[m.group(2).lower()]
        c.checks.append(Check(line, "rows per value of a column", lambda a: _per_value(a.get(name), k, least)))
        return True
    m = _LEAF.match(text)
    parents = [n for n, k in params.items() if k == "list" and n.lower() in ("manager", "parent", "parents", "managers")]
    if m and params.get(m.group(1)) == "list" and len(parents) == 1 and parents[0] != m.group(1):
        name, value, up = m.group(1), int(m.group(2)), parents[0]
        c.checks.append(Check(line, "value at the leaves", lambda a: _at_leaves(a.get(name), a.get(up), value)))
        return True
    m = _TOTALS.match(text)
    if m:
        named = [[n for n, k in params.items() if k == "list" and n.lower().startswith(w.lower())] for w in m.groups()]
        if any(len(found) != 1 for found in named) or named[0] == named[1]:
            return False
        one, two = named[0][0], named[1][0]
        c.checks.append(Check(line, "different sums", lambda a: None if (x := _total(a.get(one))) is None
                              or (y := _total(a.get(two))) is None else x != y))
        return True
    m = _SUM.match(text)
    if m:
        said = m.group(2) or m.group(3)
        kinds = ("treenode", "listnode") if said is None else ("list", "treenode", "listnode")
        targets = [said] if said in params else [n for n, k in params.items() if k in kinds]
        bound = term(m.group(4))
        if len(targets) != 1 or bound is None or params.get(targets[0]) not in kinds:
            return False
        name = targets[0]
        c.checks.append(Check(line, "sum of values", lambda a: _sum_is(a.get(name), resolve(bound, a))))
        return True
    return False


def _plural(word: str, params: dict[str, str]) -> str | None:
    found = [n for n in (word + "s", word) if params.get(n) == "list"]
    return found[0] if found else None


def _ordered(line: str, m: re.Match[str], params: dict[str, str], statement: str, c: Constraints) -> bool:
    said, strict, column = m.group(1), bool(m.group(2)), m.group(4)
    found = _columns(statement, params, {column + "i", column + "j"})
    if said in params:
        found = {n: k for n, k in found.items() if n == said}
    elif said.lower().startswith("both") and len(found) != 2:
        return False
    if not found:
        return False
    cols = dict(found)
    c.checks.append(Check(line, "rows ordered by a column", lambda a: _increasing(a, cols, strict)))
    return True


def _columns(statement: str, params: dict[str, str], spelled: set[str]) -> dict[str, int]:
    """Each list argument the statement gives a column spelled so (``nums1[i] = [idi, vali]``) ->
    that column's index."""
    found: dict[str, int] = {}
    for row in re.finditer(r"\b(\w+)\[\w\]\s*==?\s*\[([^\]\[]+)\]", _plain(statement)):
        items = [t.strip().replace("_", "") for t in row.group(2).split(",")]
        for k, item in enumerate(items):
            if item in spelled and params.get(row.group(1)) == "list":
                found.setdefault(row.group(1), k)
    return found


def _per_value(rows: object, k: int, least: int) -> bool | None:
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > k for r in rows):
        return None
    keys = [repr(r[k]) for r in rows]
    return all(keys.count(x) >= least for x in set(keys))


def _increasing(args: dict[str, object], cols: dict[str, int], strict: bool) -> bool | None:
    for name, k in cols.items():
        rows = args.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > k for r in rows):
            return None
        keys = [r[k] for r in rows]
        if any((b <= a) if strict else (b < a) for a, b in itertools.pairwise(keys)):
            return False
    return True


def _distinct_rows(lists: list[object]) -> bool | None:
    rows: list[str] = []
    for v in lists:
        if not isinstance(v, list):
            return None
        rows += [repr(r) for r in v]
    return len(set(rows)) == len(rows)


def _at_leaves(v: object, up: object, value: int) -> bool | None:
    if not isinstance(v, list) or not isinstance(up, list) or len(v) != len(up):
        return None
    pointed = {x for x in up if isinstance(x, int)}
    return all(x == value for i, x in enumerate(v) if i not in pointed)


def _total(v: object) -> int | float | None:
    if not isinstance(v, list) or not all(isinstance(x, (int, float)) for x in v):
        return None
    return sum(v)


def _sum_is(v: object, total: int | float | None) -> bool | None:
    if not isinstance(v, list) or total is None or not all(x is None or isinstance(x, (int, float)) for x in v):
        return None
    return sum(x for x in v if isinstance(x, (int, float))) == total


__all__ = ["read_rows"]


def strictly_ascending_rows(name: str) -> Callable[[dict[str, object]], bool | None]:
    """The test of "0 <= starti < endi <= 10^6" on the ``[start, end]`` rows of ``name`` (the
    reader in ``constraints`` sorts each row; this says its two items also differ). Rows of
    another length ("xi < ai" in ``[xi, yi, ai, bi]``) are not this line's to decide: None."""
    def test(args: dict[str, object]) -> bool | None:
        rows = args.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
            return None
        return all(a < b for a, b in rows)
    return test
