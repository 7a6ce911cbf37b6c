"""Bug-seeking inputs of the edge tier where few distinct values repeat (issue 14):

- ``palette``: a drawn input with its values collapsed onto two or three of its own values, one
  mapping for every argument (a value the list and the target share stays shared): integers onto
  integers, letters and digits onto letters and digits. Uniform draws over a wide range almost
  never repeat a value, so a search that assumes distinct values ("duplicates hide the sorted
  half": ``[1, 0, 1, 1, 1]``) or a grouping by the *set* of letters (``"ab"`` with ``"aab"``)
  answers as the correct programs on every one of them;
- ``sparse``: a list or string whose examples are mostly one value (a board of ``'.'``, a grid of
  ``0``) with that value in most places and the drawn values in a few: random boards are full and
  break every rule at once, so a check that forgets one rule (the 3 x 3 boxes of a sudoku) is
  never the only one that fires;
- ``near``: an example input with one item changed to another value the example shows: examples
  are valid inputs, and one change lands next to the line between valid and invalid.

Trees and linked lists are left as they are (their values carry their shape), and the caller
proposes none of these where vibecode's own inputs are not vouched for (``clr.trust``): a
collapsed input easily breaks a promise the constraint reader cannot check ("there is no
contradiction" between two equations on the same variables).

A sorted or rotated sorted list is sorted (and rotated) again after the change. The caller
(``clr.inputs_tiers``) validates each input against the constraints and takes from every strategy
in turn, with those of ``clr.inputs_bugs``.
"""

from __future__ import annotations

import random
from collections import Counter

from vibecode.clr.inputs_bugs import Strategies
from vibecode.clr.inputs_check import key, leaves, rotated_lists, seen_values, specs
from vibecode.clr.inputs_values import rotated_sorted
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
Leaf = int | str
SIZES = (2, 3)  # distinct values in a collapsed input
KEEP = (0.1, 0.25)  # the share of places a sparse input keeps its drawn value
DOMINANT = 0.5  # the share of an argument's example items one value must have to be its blank
NEAR = 6  # changed copies of each example


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _units(value: object) -> list[Leaf]:
    """The integers and the letters or digits of ``value`` (a string counts by its characters)."""
    out: list[Leaf] = []
    for x in leaves(value):
        if isinstance(x, int) and not isinstance(x, bool):
            out.append(x)
        elif isinstance(x, str):
            out += [ch for ch in x if ch.isalnum()]
    return out


def _mapped(value: object, table: dict[Leaf, Leaf]) -> object:
    """``value`` with each integer and each letter or digit replaced as ``table`` says."""
    if isinstance(value, list):
        return [_mapped(v, table) for v in value]
    if isinstance(value, str):
        return "".join(str(table.get(ch, ch)) for ch in value)
    if _is_int(value):
        return table.get(value, value)  # type: ignore[call-overload]
    return value


def _reorder(problem: Problem, c: Constraints, args: Args, rng: random.Random) -> Args:
    """Sorted lists sorted again, rotated sorted ones sorted and rotated at a random pivot (flat
    lists only: the constraint reader sorts no list of lists, and the validator checks each input)."""
    rotated = rotated_lists(problem)
    for name, v in args.items():
        if not isinstance(v, list) or not v or any(isinstance(x, list) or x is None for x in v):
            continue
        if name in rotated:
            args[name] = rotated_sorted(v, rng)
        elif name in c.sorted:
            args[name] = sorted(v)
    return args


def plain_args(problem: Problem) -> list[str]:
    """The arguments the strategies may change: lists, strings and integers, not trees or linked
    lists (a tree's values carry its shape: a binary search tree's order, a heap's)."""
    return [n for n, spec in specs(problem).items() if spec.base.kind in ("list", "str", "int")]


def palette(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    plain = plain_args(problem)
    for base in bases:
        rng = random.Random(key(base))
        units = [u for n in plain for u in _units(base.get(n))]
        ints = sorted({u for u in units if isinstance(u, int)})
        chars = sorted({u for u in units if isinstance(u, str)})
        for size in SIZES:
            keep_i = rng.sample(ints, min(size, len(ints)))
            keep_c = rng.sample(chars, min(size, len(chars)))
            table: dict[Leaf, Leaf] = {v: (v if v in keep_i else rng.choice(keep_i)) for v in ints}
            table.update({ch: (ch if ch in keep_c else rng.choice(keep_c)) for ch in chars})
            made = {n: _mapped(v, table) if n in plain else v for n, v in base.items()}
            out.append(_reorder(problem, c, made, rng))
    return out


def _blank(problem: Problem, name: str) -> Leaf | None:
    """The value most of the argument's example items are, if one is (``'.'``, ``0``)."""
    units = [u for v in seen_values(problem, name) for u in (leaves(v) if isinstance(v, list) else _units(v))
             if _is_int(u) or isinstance(u, str)]
    if len(units) < 4:
        return None
    value, count = Counter(units).most_common(1)[0]
    return value if count >= DOMINANT * len(units) else None  # type: ignore[return-value]


def _thinned(value: object, blank: Leaf, keep: float, rng: random.Random) -> object:
    if isinstance(value, list):
        return [_thinned(v, blank, keep, rng) for v in value]
    if isinstance(value, str) and isinstance(blank, str) and len(blank) == 1 and len(value) != 1:
        return "".join(ch if rng.random() < keep else blank for ch in value)
    if type(value) is type(blank):
        return value if rng.random() < keep else blank
    return value


def sparse(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    for name in plain_args(problem):
        blank = _blank(problem, name)
        if blank is None:
            continue
        for base in bases:
            rng = random.Random(key(base) + name)
            for keep in KEEP:
                out.append(_reorder(problem, c, {**base, name: _thinned(base.get(name), blank, keep, rng)}, rng))
    return out


def _changed(value: object, at: int, new: object) -> object:
    """``value`` with its item number ``at`` (in leaf order) replaced by ``new``."""
    count = 0

    def walk(v: object) -> object:
        nonlocal count
        if isinstance(v, list):
            return [walk(x) for x in v]
        count += 1
        return new if count - 1 == at else v
    return walk(value)


def near(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    for ex in problem.examples:
        rng = random.Random(key(ex.inputs))
        lists = [n for n in plain_args(problem) if isinstance(v := ex.inputs.get(n), list) and len(leaves(v)) >= 2]
        for _ in range(NEAR if lists else 0):
            name = rng.choice(lists)
            items = leaves(ex.inputs[name])
            at = rng.randrange(len(items))
            others = sorted({repr(x): x for x in items if x != items[at] and type(x) is type(items[at])}.items())
            if others:
                out.append(_reorder(problem, c, {**ex.inputs, name: _changed(ex.inputs[name], at, rng.choice(others)[1])}, rng))
    return out


PALETTE_STRATEGIES: Strategies = {"palette": palette, "sparse": sparse, "near": near}
