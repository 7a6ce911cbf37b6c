"""Values for generated inputs: :class:`ValueMaker` draws one argument at a time from the types and
the parsed constraints, in a *mode* (``min``, ``max``, ``single``, ``duplicates``, ``extremes``,
``negative``, ``random``, ``wide``, ``dense``) and at a size *scale* (the stress tier asks for the largest
sizes the constraints allow, the other tiers stay small). A list the statement calls a rotated
sorted array is drawn sorted, then rotated at a random pivot. An integer (or a list's items) that a
check says is a prime or a power of ``k`` ("primes[i] is a prime number", "n is a power of 2") is
drawn from those values within its range, instead of blind draws the filter would almost all drop.
An edge list a check says is a tree ("The given input is guaranteed to be a tree") is drawn as a
random tree (:meth:`ValueMaker.tree_edges`) on the stated number of nodes.

The ``dense`` mode is the small-scope one: lists and strings of at most 4, 6 or 10 items, each
argument's integers from one narrow window at the low end of its range (a few values for items, up
to a few hundred for a lone scalar), its characters from two or three of the allowed ones, all
chosen afresh for each input. Random inputs over wide ranges almost all fall on one side of a
decision ("no partition", "not enough change", "no rectangle"); small inputs over few values are
where the other side, and the mistakes made on it, are common."""

from __future__ import annotations

import heapq
import json
import random
import re
import string
from collections.abc import Callable
from typing import Any

from vibecode.clr.inputs_check import leaves, lengths, nested_ints, rotated_lists, seen_values
from vibecode.problems.constraint_types import Range
from vibecode.problems.constraints import Constraints, resolve
from vibecode.problems.typespec import TypeSpec
from vibecode.types import Problem

MAX_LEN = 40
NESTED_DEPTH = 5  # the deepest list a nested list of integers is generated with
SCALAR_CAP = 10_000
DENSE_LENS = (4, 6, 10)  # the longest list or string of the dense mode, one drawn per list
DENSE_ITEM_WIDTHS = (1, 2, 3, 5)  # how many values past the window's low end an item may take
DENSE_SCALAR_WIDTHS = (3, 15, 63, 255)  # the same for an argument that is a lone integer
SIEVE_LIMIT = 1_000_000  # primes are listed up to this bound; a wider range is drawn blind
_KIND = re.compile(r"power of (\d+|two)|prime")


class ValueMaker:
    """Values for one problem; ``mode`` picks the kind of case."""

    def __init__(self, problem: Problem, c: Constraints, rng: random.Random, *, max_len: int = MAX_LEN,
                 cells: int | None = None, full_scalars: bool = False) -> None:
        """``max_len``: the longest list or string; ``cells``: at most this many items in a list of
        lists (rows * columns); ``full_scalars``: scalar arguments range over everything the
        constraints allow (the stress tier) instead of staying within ``±SCALAR_CAP``."""
        self.problem, self.c, self.rng = problem, c, rng
        self.max_len, self.cells, self.full_scalars = max_len, cells, full_scalars
        self._outer = 1
        self._outer_stand_in: list[object] = [0]  # as long as the list whose rows are being drawn
        self._members_seen: dict[tuple[str, float, float], list[int]] = {}
        self._square = ""  # the argument whose rows are as long as it is ("n == matrix[i].length")
        self.rotated = rotated_lists(problem)
        self._row_len: int | None = None  # "nums is an ascending array that is possibly rotated"
        self._nested_names: dict[str, bool] = {}  # argument -> whether it is a nested list of integers
        self.reset()

    def _bounds(self, name: str, col: int | None) -> list[Range]:
        by_col = self.c.column_value.get(name, {})
        return list(by_col[col]) if col is not None and col in by_col else list(self.c.value.get(name, []))

    def reset(self) -> None:
        """Forget the ranges worked out for the previous input (they depend on its other arguments)
        and the dense mode's windows and alphabets (each input draws its own)."""
        self._ranges: dict[tuple[str, int | None], tuple[float, float]] = {}
        self._windows: dict[tuple[str, int | None, bool], tuple[int, int]] = {}
        self._alphabets: dict[str, str] = {}
        self._one_length: dict[str, int] = {}  # the length of every string of a same-length list
        self._stress_ints_of: dict[tuple[str, int | None], Callable[[], object]] = {}

    def _range(self, name: str, assigned: dict[str, object], integer: bool, col: int | None = None) -> tuple[float, float]:
        cache = self.__dict__.setdefault("_ranges", {})
        if (name, col) not in cache:
            cache[(name, col)] = self._compute_range(name, assigned, col)
        return cache[(name, col)]

    def _compute_range(self, name: str, assigned: dict[str, object], col: int | None) -> tuple[float, float]:
        los: list[float] = []
        his: list[float] = []
        for lo_t, hi_t in self._bounds(name, col):
            lv, hv = resolve(lo_t, assigned), resolve(hi_t, assigned)
            if lv is not None:
                los.append(lv)
            if hv is not None:
                his.append(hv)
        shown = [float(v) for v in leaves(seen_values(self.problem, name)) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        lo = max(los) if los else (min(shown) if shown else 0.0)
        hi = min(his) if his else (max(shown) if shown else 10.0)
        return (lo, hi)

    def _len_range(self, name: str, assigned: dict[str, object], inner: bool) -> tuple[int, int]:
        ranges = (self.c.inner_length if inner else self.c.length).get(name, [])
        rule = self.c.length_rules.get(name) if not inner else None
        if rule is not None and rule[0] <= set(assigned):  # "nums1.length == m + n", m and n drawn
            size = rule[1](assigned)
            if isinstance(size, int) and not isinstance(size, bool) and 0 <= size <= 10 * self.max_len:
                return size, size
        if inner:  # "matrix[i].length == n" with n == matrix.length: the outer size is known by now
            if len(self._outer_stand_in) != self._outer:  # made once per list, not once per row
                self._outer_stand_in = [0] * self._outer
            assigned = {**assigned, name: self._outer_stand_in}
            if self._square == name:
                return self._outer, self._outer
        los = [v for lo, _ in ranges if (v := resolve(lo, assigned)) is not None]
        his = [v for _, hi in ranges if (v := resolve(hi, assigned)) is not None]
        shown = self._shown_sizes(name, inner)
        lo = int(max(los)) if los else (min(shown) if shown else 1)
        # no stated bound: a list may grow past its examples, a row stays as long as theirs
        # (meeting_rooms_ii shows [start, end] rows and states no row length)
        hi = int(min(his)) if his else ((max(shown) if inner else max(max(shown), 8)) if shown else 8)
        cap = self.max_len if not inner or self.cells is None else max(1, min(self.max_len, self.cells // max(1, self._outer)))
        return max(lo, 0), max(min(hi, cap), max(lo, 0))

    def _rectangular(self, name: str) -> bool:
        """Whether every row of ``name`` has the same length: a line names that length
        (``n == grid[i].length``, ``grid[i].length == n``)."""
        cache = self.__dict__.setdefault("_rect", {})
        if name not in cache:
            row = rf"{re.escape(name)}\[\w+\]\.length"
            pattern = rf"^\s*(?:[A-Za-z]\w*\s*==\s*{row}|{row}\s*==\s*[A-Za-z]\w*)\s*$"
            cache[name] = any(re.match(pattern, _plain(line)) for line in self.problem.constraints)
        return bool(cache[name])

    def _shown_sizes(self, name: str, inner: bool) -> list[int]:
        """The lengths of ``name`` (its rows' when ``inner``) in the examples."""
        cache = self.__dict__.setdefault("_sizes_seen", {})
        if (name, inner) not in cache:
            cache[name, inner] = lengths(seen_values(self.problem, name), 2 if inner else 1)
        return list(cache[name, inner])

    def _shown_lengths(self, name: str) -> list[int]:
        cache = self.__dict__.setdefault("_lengths_seen", {})
        if name not in cache:
            cache[name] = [len(v) for v in leaves(seen_values(self.problem, name)) if isinstance(v, str)]
        return cache[name]

    def _chars(self, name: str, mode: str = "") -> str:
        if mode == "dense":
            return self._dense_chars(name)
        if name in self.c.chars:
            return self.c.chars[name]
        cache = self.__dict__.setdefault("_chars_seen", {})
        if name not in cache:
            shown = "".join(v for v in leaves(seen_values(self.problem, name)) if isinstance(v, str))
            cache[name] = "".join(sorted(set(shown))) or string.ascii_lowercase
        return cache[name]

    def _dense_chars(self, name: str) -> str:
        """Two or three of the characters ``name`` may hold, the same for the whole input."""
        if name not in self._alphabets:
            chars = self._chars(name)
            self._alphabets[name] = "".join(self.rng.sample(chars, min(len(chars), self.rng.choice((2, 3)))))
        return self._alphabets[name]

    def _dense_int(self, name: str, col: int | None, lo: int, hi: int, item: bool) -> int:
        """An integer from the narrow window this input uses for ``name`` (see the module doc):
        at the smallest non-negative value allowed, or around zero half the time where negatives
        are allowed."""
        windows = self._windows
        if (name, col, item) not in windows:
            width = self.rng.choice(DENSE_ITEM_WIDTHS if item else DENSE_SCALAR_WIDTHS)
            base = min(max(0, lo), hi)
            if lo < 0 and self.rng.random() < 0.5:
                base = max(lo, base - width // 2)
            top = min(hi, base + width)
            windows[(name, col, item)] = (max(lo, top - width), top)
        low, high = windows[(name, col, item)]
        return self.rng.randint(low, high)

    def scalar(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], item: bool = False,
               col: int | None = None) -> object:
        """One value. The extremes (``min``/``max``/``negative``) of a stated range are used in full,
        up to the 32-bit bounds (``x = -2^31``); ``item``: an element of a list, drawn across its
        whole range in the "wide" mode too, where a scalar argument stays within ``±SCALAR_CAP``
        (it is often a size or a loop count) except in the stress tier."""
        k = spec.kind
        if k == "bool":
            return mode == "max" or (mode == "random" and self.rng.random() < 0.5)
        if k == "str":
            chars = self._chars(name, mode)
            return self.rng.choice(chars)
        choices = [v for v in self.c.choices.get(name, []) if isinstance(v, (int, float))]
        if choices:
            return min(choices) if mode in ("min", "negative") else max(choices) if mode == "max" else self.rng.choice(choices)
        if k == "int" and mode == "stress" and (item or self.full_scalars):
            return self._stress_int(name, assigned, col)()
        lo, hi = self._range(name, assigned, k == "int", col)
        stated = bool(self._bounds(name, col))
        extreme = mode in ("min", "max", "negative") or ((item or self.full_scalars) and mode in ("wide", "stress"))
        members = self._members(name, lo, hi) if k == "int" else []
        if members:
            if mode == "dense":
                members = members[:max(DENSE_LENS)]
            return members[0] if mode in ("min", "negative") else members[-1] if mode == "max" else self.rng.choice(members)
        if k == "int" and stated and extreme:
            lo_w, hi_w = int(max(lo, -(2**31))), int(min(hi, 2**31 - 1))
            if lo_w <= hi_w:
                if mode in ("wide", "stress"):
                    return self.rng.randint(lo_w, hi_w)
                return lo_w if mode in ("min", "negative") else hi_w
        if k == "int":
            cap = 2**63 if self.full_scalars else SCALAR_CAP
            lo_i, hi_i = int(max(lo, -cap)), int(min(hi, cap))
            if lo_i > hi_i:  # the whole range lies beyond the cap: keep its low end
                lo_i, hi_i = int(lo), int(min(hi, lo + SCALAR_CAP))
            if mode == "min" or mode == "negative" or lo_i > hi_i:  # an empty range: the validator drops it
                return lo_i
            if mode == "max":
                return hi_i
            if mode == "stress":
                return self.rng.randint(lo_i, hi_i)
            if mode == "dense":
                return self._dense_int(name, col, lo_i, hi_i, item)
            # Mostly small values (where off-by-one and greedy mistakes show), sometimes any.
            roll = self.rng.random()
            for width, share in ((10, 0.5), (100, 0.8)):
                w_lo, w_hi = max(lo_i, -width), min(hi_i, width)
                if w_lo > w_hi:
                    w_lo, w_hi = lo_i, min(hi_i, lo_i + width)
                if roll < share:
                    return self.rng.randint(w_lo, w_hi)
            return self.rng.randint(lo_i, hi_i)
        if mode in ("min", "negative"):
            return float(lo)
        if mode == "max":
            return float(hi)
        return round(self.rng.uniform(lo, hi), 3)

    def _stress_int(self, name: str, assigned: dict[str, object], col: int | None) -> Callable[[], object]:
        """How :meth:`scalar` draws an integer of ``name`` (column ``col``) in the stress tier, as
        a function of nothing, kept until :meth:`reset`: a row of a 10^5-row stress input draws
        each item with one call, not a walk through the rules."""
        key = (name, col)
        if key not in self._stress_ints_of:
            self._stress_ints_of[key] = self._stress_int_rule(name, assigned, col)
        return self._stress_ints_of[key]

    def _stress_int_rule(self, name: str, assigned: dict[str, object], col: int | None) -> Callable[[], object]:
        choices = [v for v in self.c.choices.get(name, []) if isinstance(v, (int, float))]
        rng = self.rng
        if choices:
            return lambda: rng.choice(choices)
        lo, hi = self._range(name, assigned, True, col)
        members = self._members(name, lo, hi)
        if members:
            return lambda: rng.choice(members)
        if self._bounds(name, col):  # a stated range: all of it, within the 32-bit bounds
            lo_w, hi_w = int(max(lo, -(2**31))), int(min(hi, 2**31 - 1))
            if lo_w <= hi_w:
                return lambda: rng.randint(lo_w, hi_w)
        cap = 2**63 if self.full_scalars else SCALAR_CAP
        lo_i, hi_i = int(max(lo, -cap)), int(min(hi, cap))
        if lo_i > hi_i:  # the whole range lies beyond the cap: keep its low end
            lo_i, hi_i = int(lo), int(min(hi, lo + SCALAR_CAP))
        if lo_i > hi_i:  # an empty range: the validator drops it
            return lambda: lo_i
        return lambda: rng.randint(lo_i, hi_i)

    def _members(self, name: str, lo: float, hi: float) -> list[int]:
        """The values in ``[lo, hi]`` a check on ``name`` allows ("a prime number", "a power of
        2"), ascending; empty when no such check names it (or primes past ``SIEVE_LIMIT``)."""
        if (name, lo, hi) not in self._members_seen:
            self._members_seen[(name, lo, hi)] = check_members(self.c, name, lo, hi)
        return list(self._members_seen[(name, lo, hi)])

    def element(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], depth: int,
                col: int | None = None) -> object:
        """An item at nesting ``depth`` (1 = an element of the argument itself); ``col``: its
        position in a row of a list of lists (``edges[i] = [ai, bi]`` bounds each column)."""
        spec = spec.base
        if spec.kind == "list":
            return self.sequence(spec, name, mode, assigned, depth)
        if spec.kind == "any" and self._nested_ints(name):
            return self._nested(mode, depth)
        if spec.kind == "str":
            lo, hi = self._len_range(name, assigned, inner=True) if name in self.c.inner_length and depth == 1 else (1, 6)
            shown = self._shown_lengths(name)
            if depth > 1 and shown:  # the cells of a grid of characters: as long as the examples' cells
                lo, hi = min(shown), max(shown)
            n = lo if mode == "min" else hi if mode in ("max", "stress") else self.rng.randint(lo, max(lo, min(hi, 6)))
            if depth == 1 and name in self.c.same_length:  # "strs, all of the same length": the first string's
                n = self._one_length.setdefault(name, n)
            chars = self._chars(name, mode)
            return "".join(self.rng.choice(chars) for _ in range(n))
        return self.scalar(spec, name, mode, assigned, item=True, col=col)

    def _nested_ints(self, name: str) -> bool:
        if name not in self._nested_names:
            self._nested_names[name] = nested_ints(self.problem, name)
        return self._nested_names[name]

    def _nested(self, mode: str, depth: int) -> object:
        """An item of a nested list of integers: an integer, or (less often the deeper it is, never
        below ``NESTED_DEPTH``) a non-empty list of one to three items, one level deeper. The
        values are small, negative in the "negative" mode (the checks of the constraint lines drop
        what breaks a stated range)."""
        if depth >= NESTED_DEPTH or self.rng.random() < 0.4 + 0.15 * depth:
            return self.rng.randint(-20, -1) if mode == "negative" else self.rng.randint(-20, 20)
        return [self._nested(mode, depth + 1) for _ in range(self.rng.randint(1, 3))]

    def sequence(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], depth: int = 0) -> object:
        """A list (or string, or linked list) at nesting ``depth`` (0 = the argument itself)."""
        lo, hi = self._len_range(name, assigned, inner=depth > 0)
        small = self.rng.randint(lo, max(lo, min(hi, 10)))
        n = {"min": lo, "single": max(lo, min(1, hi)), "max": hi, "stress": hi, "wide": self.rng.randint(lo, hi),
             "medium": self.rng.randint(lo, max(lo, min(hi, 200)))}.get(mode, small)
        if mode == "dense":  # drawn only here: the other modes' draws stay as they were
            n = self.rng.randint(lo, max(lo, min(hi, self.rng.choice(DENSE_LENS))))
        if depth == 0:
            self._outer = max(1, n)
            tied = [t for rng in self.c.length.get(name, []) for t in rng if t is not None and t[:2] == ("ilen", name)]
            self._square = name if tied else ""
            self._row_len = None
        elif depth == 1 and self._rectangular(name):  # "n == grid[i].length": every row as long
            if self._row_len is None:
                self._row_len = n
            n = self._row_len
        elem = spec.element if spec.kind == "list" else TypeSpec("int")
        if spec.kind == "str":
            chars = self._chars(name, mode)
            if mode == "duplicates":
                return self.rng.choice(chars) * max(n, 2 if hi >= 2 else n)
            return "".join(self.rng.choice(chars) for _ in range(n))
        fast = self._stress_ints(elem, name, mode, assigned, depth, n)
        if fast is not None:
            items: list[object] = fast
        elif mode == "duplicates":
            one = self.element(elem, name, "random", assigned, depth + 1, None)
            items = [one] * max(n, 2 if hi >= 2 else n)
        elif mode == "extremes":
            items = [self.element(elem, name, "min" if i % 2 else "max", assigned, depth + 1, i if depth == 1 else None)
                     for i in range(n)]
        elif mode == "stress" and elem.base.kind == "int":  # each column's rule worked out once, not per item
            draws = [self._stress_int(name, assigned, j if depth == 1 else None) for j in range(n if depth == 1 else 1)]
            items = [draws[j]() for j in range(n)] if depth == 1 else [draws[0]() for _ in range(n)]
        else:
            sub = mode if mode in ("min", "max", "negative", "wide", "stress", "dense") else "random"
            items = [self.element(elem, name, sub, assigned, depth + 1, j if depth == 1 else None) for j in range(n)]
        if name in self.c.pair_sorted and depth == 0:
            items = [sorted(v) if isinstance(v, list) else v for v in items]
        if name in self.c.unique and depth == 0:
            items = self._distinct(items, elem, name, assigned, lo)
        if name in self.c.sorted and depth == 0:
            items.sort()
        if name in self.rotated and depth == 0 and items:
            items = rotated_sorted(items, self.rng)
        return items

    def _distinct(self, items: list[object], elem: TypeSpec, name: str, assigned: dict[str, object],
                  lo: int) -> list[object]:
        """``items`` without repeats, topped up with random items to the least length allowed: the
        edge modes draw equal items ("min", "duplicates"), which a list of unique points
        (convex_polygon, at least 3) would otherwise shrink below its minimum, and drop."""
        seen = {json.dumps(v): v for v in items}
        for _ in range(4 * max(lo, 1)):
            if len(seen) >= lo:
                break
            extra = self.element(elem, name, "random", assigned, 1, None)
            seen.setdefault(json.dumps(extra), extra)
        return list(seen.values())

    def _stress_ints(self, elem: TypeSpec, name: str, mode: str, assigned: dict[str, object], depth: int,
                     n: int) -> list[object] | None:
        """A long flat list of integers for the stress tier, drawn in one go (what :meth:`scalar`
        would draw item by item, without its per-item cost)."""
        if mode != "stress" or depth != 0 or elem.base.kind != "int" or name in self.c.choices:
            return None
        lo, hi = self._range(name, assigned, True, None)
        if self._bounds(name, None):
            lo, hi = max(lo, -(2**31)), min(hi, 2**31 - 1)
        lo_i, hi_i = int(lo), int(hi)
        if lo_i > hi_i:
            return None
        members = self._members(name, lo_i, hi_i)
        if members:
            return [self.rng.choice(members) for _ in range(n)]
        draw = self.rng.randint
        return [draw(lo_i, hi_i) for _ in range(n)]

    def tree_edges(self, n: int) -> list[list[int]]:
        """A random tree on the nodes ``0..n-1`` as its ``n - 1`` edges: decoded from a random
        Pruefer sequence (every labelled tree equally likely), labels shuffled, the edges in random
        order, each edge's endpoints in random order."""
        if n <= 1:
            return []
        code = [self.rng.randrange(n) for _ in range(n - 2)]
        degree = [1] * n
        for v in code:
            degree[v] += 1
        leaves = [v for v in range(n) if degree[v] == 1]
        heapq.heapify(leaves)
        edges: list[list[int]] = []
        for v in code:
            leaf = heapq.heappop(leaves)
            edges.append([leaf, v])
            degree[v] -= 1
            if degree[v] == 1:
                heapq.heappush(leaves, v)
        edges.append([heapq.heappop(leaves), heapq.heappop(leaves)])
        label = list(range(n))
        self.rng.shuffle(label)
        self.rng.shuffle(edges)
        return [[label[a], label[b]] if self.rng.random() < 0.5 else [label[b], label[a]] for a, b in edges]

    def tree_size(self, name: str, drawn: int, mode: str, assigned: dict[str, object]) -> int:
        """The node count of a tree drawn as an edge list: ``drawn`` (the count as drawn for the
        argument ``name``) when its ``n - 1`` edges fit the list sizes of this tier, else one
        drawn within the argument's stated range up to that size (by ``mode``)."""
        cap = self.max_len + 1
        if drawn <= cap:
            return drawn
        lo = max(1, int(self._range(name, assigned, True)[0]))
        if lo > cap:
            return drawn
        if mode in ("max", "stress", "wide"):
            return cap
        return self.rng.randint(lo, cap)

    def tree(self, name: str, mode: str, assigned: dict[str, object]) -> object:
        values = self.sequence(TypeSpec("list", (TypeSpec("int"),)), name, mode, assigned)
        assert isinstance(values, list)
        if name in self.c.bst:
            return _bst(list(dict.fromkeys(values)))
        out: list[object] = list(values)
        if len(out) > 2 and mode == "random":
            for i in range(1, len(out)):
                if self.rng.random() < 0.2:
                    out.insert(i, None)
        while out and out[-1] is None:
            out.pop()
        return out


def rotated_sorted(items: list[object], rng: random.Random) -> list[object]:
    """``items`` sorted (``None`` last) and rotated at a random pivot: a list the statement calls
    a rotated sorted array, as it is drawn."""
    items = sorted(items, key=lambda v: (v is None, v))
    pivot = rng.randrange(len(items))
    return items[pivot:] + items[:pivot]


def check_members(c: Constraints, name: str, lo: float, hi: float) -> list[int]:
    """The integers in ``[lo, hi]`` (within 32 bits) that a check on ``name`` allows, ascending:
    the powers of ``k`` ("n is a power of 2", "power of two"), the primes up to ``SIEVE_LIMIT``;
    empty when no such check names it."""
    lo_i, hi_i = max(int(lo), -(2**31)), min(int(hi), 2**31 - 1)
    for check in c.checks:
        m = _KIND.fullmatch(check.kind)
        said = re.match(r"\W*([A-Za-z_]\w*)", _plain(check.line))
        if not m or not said or said.group(1) != name or lo_i > hi_i:
            continue
        if m.group(1):
            base, v, out = 2 if m.group(1) == "two" else int(m.group(1)), 1, []
            while v <= hi_i and base >= 2:
                out.append(v)
                v *= base
            return [x for x in out if x >= lo_i]
        if hi_i <= SIEVE_LIMIT:
            return _primes(max(lo_i, 2), hi_i)
    return []


def _primes(lo: int, hi: int) -> list[int]:
    if hi < 2:
        return []
    sieve = bytearray([1]) * (hi + 1)
    sieve[0:2] = b"\x00\x00"
    for p in range(2, int(hi**0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, hi + 1, p)))
    return [p for p in range(lo, hi + 1) if sieve[p]]


def _plain(line: str) -> str:
    return re.sub(r"<[^>]+>|`", "", line).strip()


def _bst(values: list[Any]) -> list[object]:
    """The level-order serialization of the BST built by inserting ``values`` in order."""
    root: list[Any] | None = None

    def insert(node: list[Any] | None, v: Any) -> list[Any]:
        if node is None:
            return [v, None, None]
        side = 1 if v < node[0] else 2
        node[side] = insert(node[side], v)
        return node

    for v in values:
        root = insert(root, v)
    out: list[object] = []
    queue: list[list[Any] | None] = [root]
    while queue:
        node = queue.pop(0)
        if node is None:
            out.append(None)
            continue
        out.append(node[0])
        queue.extend([node[1], node[2]])
    while out and out[-1] is None:
        out.pop()
    return out
