"""Bug-seeking inputs of the edge tier, driven by the parsed types and constraints (never by the
problem's name). Each strategy starts from valid inputs already drawn (``bases``) and changes
one or two arguments:

- ``extremes``: every combination of the integer arguments' extremes (low, high, -1, 0, 1, one
  inside each end), the pairs of two extremes first: ``(-2^31, -1)`` where the ranges allow;
- ``targets``: an integer argument set to a list argument's boundary items (first, last, least,
  largest, each row's ends), to a value absent from it, below its least and above its largest;
- ``rotations``: a list the statement calls rotated, as a sorted list rotated at every pivot
  (distinct or with duplicates as the constraints say; with duplicates also one value nearly
  everywhere, ``[1, 0, 1, 1, 1]``, where a search cannot tell which half is sorted), with those
  targets;
- ``runs``: a sorted list with duplicates, all equal, with a target on each run;
- ``shapes``: a list of lists as 1 x n, n x 1 and 1 x 1 (filled in order where it is sorted);
- ``orders``: a flat list ascending, descending, all negative, all zero;
- ``bounds``: a short flat list of a few distinct ordinary values with the stated least and/or
  largest item value among them, in a few positions (``[1, 2, -2^31]``): a program that uses an
  extreme of the range as a "missing" sentinel takes it for absent;
- ``prefixes``: non-negative integers whose digits begin alike (``[12, 121]``, ``[3, 30, 34]``);
- ``strings``: repeated and overlapping patterns (also at the sizes the description names, one
  more and one less: :func:`stated_sizes`), a part found in a text only after a near miss,
  numeric strings (``0``, leading zeros where allowed, signs and the 32-bit bounds where the
  characters allow; see ``clr.inputs_bugs_text``).

The caller (``clr.inputs_tiers``) validates each input and keeps at most ``BUG_INPUTS``, taking
from the strategies in turn (these, then the structural ones of ``clr.inputs_bugs_struct``, then
the example-format strings of ``clr.inputs_bugs_format``, then the named properties' boundaries
of ``clr.inputs_bugs_named`` and the small vocabularies of ``clr.inputs_bugs_vocab``) so that each one is represented.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Callable

from vibecode.clr.inputs_bugs_text import numeric, overlap_pairs, pairs_of, patterns
from vibecode.clr.inputs_check import leaf, leaves, rotated_lists, seen_values, specs
from vibecode.clr.trust import description
from vibecode.problems.constraint_types import Constraints, resolve
from vibecode.problems.typespec import TypeSpec
from vibecode.types import Problem

BUG_INPUTS = 32  # bug-seeking inputs per problem, at most (with those of clr.inputs_bugs_struct)
SMALL = 5  # the size of the lists and strings the strategies build
Args = dict[str, object]


def _int_range(c: Constraints, name: str, args: Args) -> tuple[int, int] | None:
    """The stated range of an integer argument given the others, within the 32-bit bounds."""
    los = [v for lo, _ in c.value.get(name, []) if (v := resolve(lo, args)) is not None]
    his = [v for _, hi in c.value.get(name, []) if (v := resolve(hi, args)) is not None]
    if not los or not his:
        return None
    lo, hi = max(int(max(los)), -(2**31)), min(int(min(his)), 2**31 - 1)
    return (lo, hi) if lo <= hi else None


def _scalars(spec: dict[str, TypeSpec], kind: str) -> list[str]:
    return [n for n, s in spec.items() if s.base.kind == kind]


def _lists(spec: dict[str, TypeSpec], depth: int) -> list[str]:
    """List arguments of integers nested ``depth`` deep (1: ``list[int]``, 2: ``list[list[int]]``)."""
    out = []
    for n, s in spec.items():
        d, t = 0, s.base
        while t.kind == "list":
            d, t = d + 1, t.element.base
        if d == depth and t.kind == "int":
            out.append(n)
    return out


def extremes(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    names = _scalars(spec, "int") + _scalars(spec, "bool")
    base = bases[0]
    values: list[list[tuple[int, object]]] = []
    for n in names:
        if spec[n].base.kind == "bool":
            values.append([(0, False), (0, True)])
            continue
        r = _int_range(c, n, base)
        if r is None:
            return []
        lo, hi = r
        ranked = [(0, lo), (0, hi), (1, -1), (1, 0), (1, 1), (2, lo + 1), (2, hi - 1), (3, 2)]
        seen: dict[object, int] = {}
        for rank, v in ranked:
            if lo <= v <= hi and v not in seen:
                seen[v] = rank
        values.append([(rank, v) for v, rank in seen.items()])
    if not names:
        return []
    combos = sorted(itertools.islice(itertools.product(*values), 4096), key=lambda combo: sum(r for r, _ in combo))
    return [{**base, **{n: v for n, (_, v) in zip(names, combo, strict=True)}} for combo in combos]


def _probe_values(items: list[int], rows: list[list[int]] | None = None) -> list[int]:
    """A list's boundary items, the first, last, least, largest, a middle one, absent ones."""
    if not items:
        return [0, 1, -1]
    lo, hi = min(items), max(items)
    present = set(items)
    absent = list(itertools.islice((v for v in range(lo, hi + 1) if v not in present), 1))
    out = [items[0], items[-1], lo, hi, lo - 1, hi + 1, items[len(items) // 2], *absent]
    for row in rows or []:
        if row:
            out += [row[0], row[-1]]
    return list(dict.fromkeys(out))


def targets(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    ints = [t for t in _scalars(spec, "int") if t in c.value]  # a stated range: the validator bounds it
    out: list[Args] = []
    for base in bases:
        for lst in _lists(spec, 1) + _lists(spec, 2):
            value = base.get(lst)
            if not isinstance(value, list):
                continue
            rows = [r for r in value if isinstance(r, list)][:4] or None
            items = [v for v in leaves(value) if isinstance(v, int) and not isinstance(v, bool)]
            for t in ints:
                out += [{**base, t: v} for v in _probe_values(items, rows)]
    return out


def _sorted_small(c: Constraints, name: str, base: Args, n: int, distinct: bool) -> list[int]:
    r = _list_item_range(c, name, base)
    if r is None:
        return []
    lo, hi = r
    start = max(lo, min(0, hi - 2 * n)) if lo < 0 <= hi else lo
    if distinct:
        return list(range(start, hi + 1, 2)[:n]) or [lo]
    vals = list(range(start, hi + 1)[:3]) or [lo]
    return sorted((vals * n)[:n])


def _list_item_range(c: Constraints, name: str, args: Args) -> tuple[int, int] | None:
    return _int_range(c, name, args)


def _small_len(c: Constraints, name: str, base: Args, want: int = SMALL) -> int:
    los = [v for lo, _ in c.length.get(name, []) if (v := resolve(lo, base)) is not None]
    his = [v for _, hi in c.length.get(name, []) if (v := resolve(hi, base)) is not None]
    lo = int(max(los)) if los else 1
    hi = int(min(his)) if his else want
    return max(lo, min(hi, want))


def _with_targets(problem: Problem, c: Constraints, base: Args, name: str, items: list[int]) -> list[Args]:
    ints = [t for t in _scalars(specs(problem), "int") if t in c.value]
    if not items:
        return []
    if not ints:
        return [{**base, name: items}]
    probes = _probe_values(items)
    return [{**base, name: items, **{t: probes[k % len(probes)] for t in ints}} for k in range(len(probes))]


def rotations(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    skewed: list[Args] = []
    base = bases[0]
    ints = [t for t in _scalars(specs(problem), "int") if t in c.value]
    for name in sorted(rotated_lists(problem) & set(_lists(specs(problem), 1))):
        for want in (2, 3, 6):  # every pivot; short lists with every item as the target
            n = _small_len(c, name, base, want)
            for distinct in (True, False) if name not in c.unique else (True,):
                items = _sorted_small(c, name, base, n, distinct)
                for p in range(len(items) if items else 0):
                    rot = items[p:] + items[:p]
                    probes = list(dict.fromkeys(rot)) if n <= 3 else [rot[(p + 1) % n], max(rot) + 1][p % 2:][:1]
                    for t in probes if ints else [None]:
                        out.append({**base, name: rot, **{i: t for i in ints}})
        if name not in c.unique:
            skewed += _skewed(c, name, base, ints)
    return [x for pair in itertools.zip_longest(out, skewed) for x in pair if x is not None]  # both kinds within the cap


def _skewed(c: Constraints, name: str, base: Args, ints: list[str]) -> list[Args]:
    """Rotated sorted lists of one value nearly everywhere, where a search cannot tell which half is
    sorted (``[1, 0, 1, 1, 1]``): the lone value at index 1 first, then at the others; each value a target."""
    n = _small_len(c, name, base, 5)
    r = _list_item_range(c, name, base)
    if r is None or r[0] >= r[1] or n < 3:
        return []
    low = max(r[0], min(0, r[1] - 1))
    out: list[Args] = []
    for odd, common in ((low, low + 1), (low + 1, low)):
        for at in sorted(range(n), key=lambda i: (i != 1, i)):
            items = [common] * n
            items[at] = odd
            for t in (low, low + 1) if ints else [None]:
                out.append({**base, name: items, **{i: t for i in ints}})
    return out


def runs(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    out: list[Args] = []
    base = bases[0]
    for name in sorted(c.sorted - c.unique - rotated_lists(problem)):
        if name not in _lists(specs(problem), 1):
            continue
        n = _small_len(c, name, base, 6)
        dup = _sorted_small(c, name, base, n, False)
        out += _with_targets(problem, c, base, name, dup)
        out += _with_targets(problem, c, base, name, dup[:1] * n)
    return out


def _sorted_hint(problem: Problem, name: str) -> bool:
    words = ("sorted", "increasing", "ascending", "non-decreasing")
    lines = [*problem.constraints, *re.split(r"(?<=[.!?])\s+", problem.statement)]
    return any(name in line and any(w in line.lower() for w in words) for line in lines)


def shapes(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    out: list[Args] = []
    base = bases[0]
    for name, s in spec.items():
        if s.base.kind != "list" or s.base.element.base.kind != "list":
            continue
        pool = [v for b in bases for v in leaves(b.get(name)) if v is not None]
        pool = pool or [v for v in leaves(seen_values(problem, name)) if v is not None]
        if not pool:
            continue
        ordered = _sorted_hint(problem, name)
        if ordered:
            pool = sorted(set(pool), key=lambda v: (str(type(v)), v))
        for rows, cols in ((1, 4), (4, 1), (1, 1), (2, 3)):
            cells = [pool[k % len(pool)] for k in range(rows * cols)]
            if ordered and len(pool) < rows * cols:
                cells = sorted(cells, key=lambda v: (str(type(v)), v))
            grid = [cells[r * cols:(r + 1) * cols] for r in range(rows)]
            nums = [v for v in cells if isinstance(v, int) and not isinstance(v, bool)]
            ints = [t for t in _scalars(spec, "int") if t in c.value]
            probes = [nums[0], nums[-1], max(nums) + 1] if nums and ints else [None]
            for t in probes:
                out.append({**base, name: grid, **({i: t for i in ints} if t is not None else {})})
    return out


def orders(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    out: list[Args] = []
    base = bases[0]
    skip = c.sorted | rotated_lists(problem)
    for name in _lists(spec, 1):
        if name in skip:
            continue
        n = _small_len(c, name, base)
        r = _int_range(c, name, base)
        if r is None:  # no stated range: the examples' own range holds, see clr.inputs
            continue
        lo, hi = r
        up = list(range(max(lo, 1), hi + 1)[:n]) or [lo] * n
        neg = list(range(-1, lo - 1, -1)[:n])
        neg = [neg[k] for k in (2, 0, 3, 1, 4) if k < len(neg)] + neg[5:]
        for items in (up, up[::-1], neg, [0] * n, [hi, lo] * (n // 2) + [hi] * (n % 2)):
            if items:
                out.append({**base, name: items})
    return out


def _bound_lists(lo: int, hi: int, seen: list[int]) -> list[list[int]]:
    """Short lists of ordinary values strictly inside ``(lo, hi)`` with ``lo`` and/or ``hi`` among
    them, the most telling first (an extreme where the answer lies, then at the front, between).
    The ordinary values are those of the drawn inputs (``seen``: they keep the checks the
    constraints name, such as primes) where there are two, else small ones."""
    inner = list(dict.fromkeys(v for v in seen if lo < v < hi))[:3]
    inner = inner if len(inner) >= 2 else [v for v in (1, 2, 3, 0, -1, 4, 5) if lo < v < hi][:3]
    inner = inner if len(inner) >= 2 else list(range(lo + 1, hi))[:3]
    if len(inner) < 2:
        return []
    a, b = inner[0], inner[1]
    made = [[a, b, lo], [hi, a, b], [a, lo, b], [lo, a, b, hi], [a, b, hi], [lo, a, b], [b, a, lo],
            [a, a, lo, b], [a, b, lo, lo], [hi, hi, a, b]]
    if len(inner) >= 3:
        made += [[a, b, inner[2], lo], [hi, a, b, inner[2]]]
    return made


def bounds(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    """Short lists of a few distinct ordinary values with the stated least and/or largest item
    value among them, in a few positions: the range's extremes are the usual "missing" sentinels
    (``-2^31`` for a third maximum), so a program using one answers wrong only where the true
    answer is that extreme among other values. Sorted and distinct as the constraints say."""
    spec = specs(problem)
    base = bases[0]
    out: list[Args] = []
    for name in _lists(spec, 1):
        r = _int_range(c, name, base)
        if name in rotated_lists(problem) or r is None:
            continue
        seen = [v for b in bases for v in leaves(b.get(name)) if isinstance(v, int) and not isinstance(v, bool)]
        for items in _bound_lists(*r, sorted(seen, key=abs)):
            if name in c.unique:
                items = list(dict.fromkeys(items))
            if name in c.sorted:
                items = sorted(items)
            out.append({**base, name: items})
    return out


PREFIX_LISTS = ([12, 121], [121, 12], [3, 30, 34, 5, 9], [10, 2], [0, 0], [824, 8247], [8247, 824], [1, 11, 111],
                [9, 98, 989], [20, 1, 2])


def prefixes(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    """Lists of non-negative integers whose digits begin alike (``[12, 121]``, ``[3, 30, 34]``,
    ``[0, 0]``), in both orders: where numbers are compared or joined as text, a tie-break on
    the shorter one is the usual slip. Only where the list's stated range allows them."""
    spec = specs(problem)
    base = bases[0]
    out: list[Args] = []
    skip = c.sorted | rotated_lists(problem)  # their order is given: a tie-break never shows there
    for name in _lists(spec, 1):
        r = _int_range(c, name, base)
        if name in skip or r is None or r[0] > 0:
            continue
        out += [{**base, name: items} for items in PREFIX_LISTS if all(r[0] <= x <= r[1] for x in items)]
    return out


def _chars(problem: Problem, c: Constraints, name: str) -> str:
    if name in c.chars:
        return c.chars[name]
    shown = "".join(v for v in leaves(seen_values(problem, name)) if isinstance(v, str))
    return "".join(sorted(set(shown))) or string.ascii_lowercase


def strings(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    names = _scalars(spec, "str")
    base = bases[0]
    zeros = not any("leading zero" in line.lower() for line in problem.constraints)
    per: dict[str, list[str]] = {}
    stated = stated_sizes(problem)
    for n in names:
        chars = _chars(problem, c, n)
        size = _small_len(c, n, base, 6)
        at_stated = [x for k in stated for m in (k + 1, k, k - 1) for x in patterns(chars, m)[:2]]
        per[n] = list(dict.fromkeys(at_stated + numeric(chars, size, leading_zeros=zeros) + patterns(chars, size)))
    out: list[Args] = []
    if len(names) >= 2:
        a, b = names[0], names[1]
        shared = "".join(ch for ch in _chars(problem, c, a) if ch in _chars(problem, c, b))
        for text, part in overlap_pairs(shared):
            out += [{**base, a: text, b: part}, {**base, a: part, b: text}]
        out += [{**base, a: x, b: y} for x, y in pairs_of(per[a], 12)]
    for n in names:
        out += [{**base, n: v} for v in per[n]]
    return out


def stated_sizes(problem: Problem) -> list[int]:
    """Sizes the description names in digits ("10-letter-long sequences", "at most 3 times"),
    from 2 to 100, in order: a string of such a length, one more or one less, meets an
    off-by-one at that boundary (a window loop that stops one early sees no repeat in ``"A" * 11``)."""
    sizes = [int(m) for m in re.findall(r"(?<![\w.^-])(\d{1,3})(?![\w.^])", description(problem))]
    return list(dict.fromkeys(k for k in sizes if 2 <= k <= 100))[:3]


Strategies = dict[str, Callable[[Problem, Constraints, list[Args]], list[Args]]]  # name -> strategy

STRATEGIES: Strategies = {
    "extremes": extremes, "rotations": rotations, "runs": runs, "targets": targets, "shapes": shapes,
    "strings": strings, "orders": orders, "bounds": bounds, "prefixes": prefixes,
}


WEIGHTS = {"rotations": 2, "strings": 2, "formats": 2, "powers": 3}  # inputs taken from a strategy in each round (default 1)


def propose(strategies: Strategies, problem: Problem, c: Constraints, bases: list[Args]) -> dict[str, list[Args]]:
    """Strategy -> the inputs it proposes from ``bases`` (not validated yet); none without bases."""
    if not bases:
        return {}
    return {name: make(problem, c, bases) for name, make in strategies.items()}


def bug_candidates(problem: Problem, c: Constraints, bases: list[Args]) -> dict[str, list[Args]]:
    """Strategy -> the inputs this module's strategies propose from ``bases`` (not validated yet)."""
    return propose(STRATEGIES, problem, c, bases)


def leaf_kinds(problem: Problem) -> set[str]:
    return {leaf(s).kind for s in specs(problem).values()}
