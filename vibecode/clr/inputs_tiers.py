"""Generated inputs in three tiers, each input labelled with its tier.

1. ``edge``: the smallest sizes the constraints allow (empty where allowed), a single element,
   all items equal, negatives, the largest values and alternating extremes of every stated value
   range, up to the 32-bit bounds the constraints allow (small sizes, at most ``MAX_LEN`` items);
2. ``random``: seeded random inputs at several sizes (up to 10 items, up to ``MAX_LEN``, up to
   200) with values mostly small and sometimes across the whole stated range;
3. ``stress``: ``STRESS_INPUTS`` inputs at the largest sizes the constraints allow (a list of
   lists holds at most ``STRESS_CELLS`` items in all; a size that breaks a check such as
   ``m * n <= 10^4`` is halved until it passes), values across the whole range. They are run
   apart from the others with a LeetCode-like time limit per input (``clr.stress``).

Every input is validated against the parsed constraints (``clr.inputs_check``); one that breaks a
property the generator cannot build directly (a relation, "leading zeros", "permutation of") is
dropped and counted, and drawn again, up to ``RETRIES`` times a mode; the notes say so when the
filter drops most of what was drawn. Arguments a line says are in another one ("word1 and word2
are in wordsDict") are picked from its items.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import dataclass

from vibecode.clr.inputs_bugs import WEIGHTS, bug_candidates, propose
from vibecode.clr.inputs_bugs_counts import COUNT_STRATEGIES, count_bases
from vibecode.clr.inputs_bugs_format import format_candidates
from vibecode.clr.inputs_bugs_moves import moves
from vibecode.clr.inputs_bugs_named import NAMED_STRATEGIES
from vibecode.clr.inputs_bugs_palette import PALETTE_STRATEGIES
from vibecode.clr.inputs_bugs_struct import struct_candidates
from vibecode.clr.inputs_bugs_vocab import VOCAB_STRATEGIES
from vibecode.clr.inputs_check import (
    key,
    leaf,
    nested_ints,
    outside_examples,
    specs,
    supported,
    validate_input,
)
from vibecode.clr.inputs_made import make_derived
from vibecode.clr.inputs_values import MAX_LEN, ValueMaker
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraints import Constraints, parse_constraints
from vibecode.problems.typespec import TypeSpec
from vibecode.types import Problem

EDGE_MODES = ("min", "single", "duplicates", "negative", "max", "extremes")
RANDOM_MODES = ("random", "wide", "medium") * 6
STRESS_INPUTS = 2
DENSE_INPUTS = 96  # small-scope inputs of the differential search (dense_inputs)
MOVED = 12  # examples moved a step or two (clr.inputs_bugs_moves), at most, beside the other bug-seeking inputs
RETRIES = 8  # draws of one mode until one satisfies the constraints
STRESS_CELLS = 200_000  # items in one stress input, at most (lists of lists: rows * columns)
TIERS = ("edge", "random", "stress")


@dataclass(frozen=True)
class TieredInputs:
    """Generated inputs, ``tiers[i]`` the tier of ``inputs[i]``; ``notes`` say what was skipped
    or filtered."""

    inputs: tuple[dict[str, object], ...]
    tiers: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def of(self, tier: str) -> list[dict[str, object]]:
        return [x for x, t in zip(self.inputs, self.tiers, strict=True) if t == tier]

    def counts(self) -> dict[str, int]:
        """Inputs per tier, every tier named (0 when none was generated)."""
        return {t: self.tiers.count(t) for t in TIERS}


def _draw(problem: Problem, c: Constraints, maker: ValueMaker, mode: str) -> dict[str, object]:
    spec = specs(problem)
    order = _order(spec, c)
    maker.reset()
    args: dict[str, object] = {}
    for name in order:
        base = spec[name].base
        if base.kind == "treenode":
            args[name] = maker.tree(name, mode, args)
        elif base.kind in ("list", "listnode", "str"):
            args[name] = maker.sequence(base, name, mode, args)
        else:
            scalar_mode = mode if mode in ("min", "max", "negative", "stress", "dense") else "random"
            args[name] = maker.scalar(base, name, scalar_mode, args)
    _pick_members(args, c, maker)
    make_derived(args, c, maker.rng)
    _grow_trees(args, c, maker, mode)
    return _repair_rows({p.name: args[p.name] for p in problem.signature.params}, c)


def _pick_members(args: dict[str, object], c: Constraints, maker: ValueMaker) -> None:
    """Arguments a line says are in another one ("word1 and word2 are in wordsDict") taken from
    its drawn items: blind draws almost never are, and the filter would drop every input."""
    for check in c.checks:
        pool = args.get(check.pool) if check.pool else None
        if check.members and isinstance(pool, list) and pool:
            for name in check.members:
                if name in args:
                    args[name] = maker.rng.choice(pool)


def _grow_trees(args: dict[str, object], c: Constraints, maker: ValueMaker, mode: str) -> None:
    """Edge lists a line says form a tree ("The given input is guaranteed to be a tree and ...")
    drawn as random trees on the drawn node count (kept within the tier's list sizes and the
    count's stated range): blind draws are almost never trees, and the filter would drop them."""
    for check in c.checks:
        for edges, count in check.trees:
            rows = args.get(edges)
            if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
                continue  # rows of pairs only (a weighted edge is not drawn as a tree)
            if count:
                drawn = args.get(count)
                if not isinstance(drawn, int) or isinstance(drawn, bool):
                    continue
                n = maker.tree_size(count, drawn, mode, args)
                args[count] = n
            else:  # the nodes are 0..len(edges)
                n = len(rows) + 1
            args[edges] = maker.tree_edges(n)


def _order(spec: dict[str, TypeSpec], c: Constraints) -> list[str]:
    """Draw order: an argument after those its bounds refer to ("k <= nums.length": nums first;
    "1 <= ai, bi <= n" and "nums1.length == m + n": the scalars first); otherwise lists, strings
    and trees before scalars (a scalar is often bounded by a list's size)."""
    deps: dict[str, set[str]] = {}
    for name in spec:
        ranges = [*c.length.get(name, []), *c.inner_length.get(name, []), *c.value.get(name, [])]
        ranges += [r for rs in c.column_value.get(name, {}).values() for r in rs]
        refs = {str(t[1]) for r in ranges for t in r if t is not None and t[0] != "num"}
        refs |= set(c.length_rules.get(name, (frozenset(), None))[0])
        deps[name] = (refs & set(spec)) - {name}
    left = sorted(spec, key=lambda n: spec[n].base.kind in ("int", "float", "bool"))
    order: list[str] = []
    while left:
        ready = [n for n in left if deps[n] <= set(order)]
        pick = ready[0] if ready else left[0]  # a cycle: the default order decides
        order.append(pick)
        left.remove(pick)
    return order


def _repair_rows(args: dict[str, object], c: Constraints) -> dict[str, object]:
    """Drop the rows of a list of rows that break a check on that row alone ("ai != bi",
    "1 <= ai, bi <= n" with ``edges[i] = [ai, bi]``), then repeated rows when rows must be
    distinct: what generate-then-filter would otherwise throw away whole."""
    for name in {n for n, _ in c.columns.values()}:
        rows = args.get(name)
        if not isinstance(rows, list) or not rows:
            continue
        own = {a for a, (n, _) in c.columns.items() if n == name}
        local = []
        for check in c.checks:
            words = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"<sub>(\w+)</sub>", r"\1", check.line)))
            if words & own and name not in words and not any(n in words for n, _ in c.columns.values() if n != name):
                local.append(check)
        # a check that every row fails alone counts rows ("for each IDi, there will be at least five
        # scores"): it is no check on a row, and the validator judges the whole list
        local = [ch for ch in local if any(ch.test({**args, name: [r]}) is not False for r in rows)]
        if local:
            rows = [r for r in rows if all(ch.test({**args, name: [r]}) is not False for ch in local)]
        if name in c.unique:
            rows = list({json.dumps(r): r for r in rows}.values())
        args[name] = rows
    return args


def _unsupported(problem: Problem) -> str | None:
    spec = specs(problem)
    if not spec:
        return "the function takes no arguments"
    bad = [n for n, s in spec.items() if not supported(s) and not nested_ints(problem, n)]
    if bad:
        types = {p.name: p.type for p in problem.signature.params}
        return f"cannot generate values of type {types[bad[0]]} for {bad[0]}"
    return None


def generate_tiers(problem: Problem, *, seed: int = 0, edge: int = 6, random_count: int = 10,
                   stress: int = STRESS_INPUTS, constraints: Constraints | None = None,
                   bugs: int = 0) -> TieredInputs:
    """Up to ``edge`` edge, ``random_count`` random and ``stress`` stress inputs, validated and
    without duplicates, and up to ``bugs`` bug-seeking inputs (``clr.inputs_bugs``) in the edge
    tier; see the module doc."""
    why = _unsupported(problem)
    if why:
        return TieredInputs((), (), (why,))
    c = constraints if constraints is not None else parse_constraints(problem)
    rng = random.Random(seed)
    maker = ValueMaker(problem, c, rng)
    out: dict[str, tuple[dict[str, object], str]] = {}
    notes: list[str] = list(c.notes)
    spec = specs(problem)
    numeric = [n for n in spec if leaf(spec[n]).kind in ("int", "float")]
    for tier, modes, limit in (("edge", EDGE_MODES, edge), ("random", RANDOM_MODES, random_count)):
        tried = rejected = 0
        reasons: list[str] = []
        made = 0
        for mode in modes:
            if made >= limit:
                break
            if mode == "negative" and all(maker._range(n, {}, True)[0] >= 0 for n in numeric):
                continue
            for _ in range(RETRIES):  # generate, then filter: a property drawn blind may need a few tries
                args = _draw(problem, c, maker, mode)
                tried += 1
                bad = validate_input(args, problem, c)
                if not bad:
                    break
                rejected += 1
                reasons.append(bad[0])
            if bad:
                continue
            k = key(args)
            if k not in out:
                out[k] = (args, tier)
                made += 1
        notes += _filter_note(tier, tried, rejected, reasons)
    if bugs > 0:
        vouched = tiers_vouched(problem, c) is None  # collapsed values, counts and moved examples break what the reader cannot check
        notes += _bugs(problem, c, bugs, out, vouched)
        _moves(problem, c, out, vouched)
    notes += _stress(problem, c, seed, stress, out)
    kept = list(out.values())
    return TieredInputs(tuple(a for a, _ in kept), tuple(t for _, t in kept), tuple(notes))


def dense_inputs(problem: Problem, *, seed: int = 0, count: int = DENSE_INPUTS,
                 constraints: Constraints | None = None) -> list[dict[str, object]]:
    """Up to ``count`` small-scope inputs (``clr.inputs_values``' ``dense`` mode: short lists, few
    values, few characters), validated like the tiers' and without duplicates; none where the
    arguments' types cannot be generated."""
    if _unsupported(problem):
        return []
    c = constraints if constraints is not None else parse_constraints(problem)
    maker = ValueMaker(problem, c, random.Random(seed))
    out: dict[str, dict[str, object]] = {}
    for _ in range(count * 3):  # small scopes repeat themselves: a few more draws than inputs
        if len(out) >= count:
            break
        args = _draw(problem, c, maker, "dense")
        if not validate_input(args, problem, c):
            out.setdefault(key(args), args)
    return list(out.values())


def bug_bases(drawn: list[dict[str, object]]) -> list[dict[str, object]]:
    """The inputs the bug-seeking strategies change: a small one with at least three items in its
    lists where there is one, then a middle-sized one."""
    by_size = sorted(drawn, key=lambda a: len(key(a)))
    roomy = [a for a in by_size if all(len(v) >= 3 for v in a.values() if isinstance(v, (list, str)))]
    picks = [roomy[0]] if roomy else by_size[:1]
    if by_size:
        picks.append(by_size[len(by_size) // 2])
    return list({key(a): a for a in picks}.values())


def _bugs(problem: Problem, c: Constraints, limit: int, out: dict[str, tuple[dict[str, object], str]],
          vouched: bool) -> list[str]:
    """Add up to ``limit`` bug-seeking inputs to ``out`` (edge tier), taking from each strategy in
    turn; a note when the validator drops most of what they propose."""
    drawn = [a for a, _ in out.values()]
    bases = bug_bases(drawn)
    proposed = bug_candidates(problem, c, bases) | struct_candidates(problem, c, bases) | format_candidates(problem, c, bases) \
        | propose(NAMED_STRATEGIES | VOCAB_STRATEGIES, problem, c, bases)
    if vouched:
        proposed |= propose(PALETTE_STRATEGIES, problem, c, bases) | propose(COUNT_STRATEGIES, problem, c, count_bases(drawn))
    valid: list[list[dict[str, object]]] = []
    tried = rejected = 0
    for name, made in proposed.items():
        keep: dict[str, dict[str, object]] = {}
        for args in made:
            k = key(args)
            if k in out or k in keep:
                continue
            tried += 1
            if validate_input(args, problem, c) or outside_examples(args, problem, c):
                rejected += 1
                continue
            keep[k] = args
        kept = list(keep.values())
        step = WEIGHTS.get(name, 1)
        valid += [kept[k::step] for k in range(step)]  # a strategy of weight w takes w slots a round
    added = 0
    for row in itertools.zip_longest(*valid):
        for args in row:
            if args is not None and added < limit and key(args) not in out:
                out[key(args)] = (args, "edge")
                added += 1
    return [f"{rejected} of {tried} bug-seeking input(s) did not satisfy the constraints and were dropped"] \
        if tried and 2 * rejected > tried else []


def _moves(problem: Problem, c: Constraints, out: dict[str, tuple[dict[str, object], str]],
           vouched: bool | None = None) -> None:
    """Add up to ``MOVED`` examples moved a step or two (``clr.inputs_bugs_moves``) to ``out``
    (edge tier), beside the other bug-seeking inputs rather than in their place, and only where
    vibecode's inputs are vouched for (``vouched``: as the caller found it; None: found here)."""
    if vouched is None:
        vouched = tiers_vouched(problem, c) is None
    if not vouched:
        return
    added = 0
    for args in moves(problem):
        if added >= MOVED:
            return
        if key(args) not in out and not validate_input(args, problem, c) and not outside_examples(args, problem, c):
            out[key(args)] = (args, "edge")
            added += 1


def _stress(problem: Problem, c: Constraints, seed: int, count: int, out: dict[str, tuple[dict[str, object], str]]) -> list[str]:
    """Add up to ``count`` stress inputs to ``out``; the notes when none could be made."""
    made = tried = 0
    reasons: list[str] = []
    for k in range(count):
        max_len = STRESS_CELLS
        while max_len >= 1:  # the largest sizes first, smaller until the checks pass
            maker = ValueMaker(problem, c, random.Random(seed * 1000 + k * 31 + max_len), max_len=max_len,
                               cells=STRESS_CELLS, full_scalars=True)
            args = _draw(problem, c, maker, "stress")
            tried += 1
            bad = validate_input(args, problem, c)
            if bad:
                reasons.append(bad[0])
                max_len //= 4
                continue
            if key(args) not in out:
                out[key(args)] = (args, "stress")
                made += 1
            break
    if count and not made:
        return [f"no stress input satisfied the constraints ({tried} drawn; first reason: {reasons[0] if reasons else 'duplicates'})"]
    return []


def _filter_note(tier: str, tried: int, rejected: int, reasons: list[str]) -> list[str]:
    if not rejected:
        return []
    note = f"{rejected} of {tried} {tier} input(s) did not satisfy the constraints and were dropped"
    if 2 * rejected > tried:
        note += f" (the constraint filter rejects most of what is drawn; first reason: {reasons[0]})"
    return [note]


__all__ = ["DENSE_INPUTS", "MAX_LEN", "STRESS_CELLS", "STRESS_INPUTS", "TIERS", "TieredInputs", "dense_inputs", "generate_tiers"]
