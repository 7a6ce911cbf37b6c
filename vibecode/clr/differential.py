"""Differential inputs (the S* idea): when clusters that pass every example disagree, look for
more inputs on which they differ.

Three sources, all validated against the problem's constraints: small mutations of the input that
first told the clusters apart (one number moved by one, one list item dropped, duplicated, changed
or swapped, one character dropped), fresh type-driven inputs with other seeds, and small-scope
inputs (:func:`vibecode.clr.inputs_tiers.dense_inputs`: short lists over a few values, where a
decision's rarer answer and the greedy shortcut that gets it wrong are common). A
design problem's inputs are operation sequences: their fresh inputs are generated sequences and
their mutations and shrinking steps change whole calls (:mod:`vibecode.clr.differential_design`).

An input that separates the clusters is then shrunk (:func:`shrink`, delta-debugging style:
chunks of a string or list dropped, numbers made smaller, every step valid under the
constraints) to the smallest one that still separates them: generated inputs are often far
beyond what a brute-force oracle can run, and an oracle that cannot answer cannot judge.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from vibecode.clr.design_inputs import generate_design_inputs
from vibecode.clr.differential_design import sequence_mutations, sequence_shrinks, valid
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_check import outside_examples
from vibecode.clr.inputs_tiers import dense_inputs
from vibecode.problems.constraints import Constraints, parse_constraints
from vibecode.types import Problem

MAX_MUTATIONS = 16
EXTRA_SEEDS = (101, 202)
SKIPPED = "skipped"  # behaviour token of a candidate that did not run a differential input
SHRINK_ROUNDS = 20  # batches of smaller inputs tried, at most, for one separating input
SHRINK_BATCH = 24  # smaller inputs in one batch, at most
SHRINK_STEPS = 240  # smaller inputs one step below an input, at most


def _key(args: dict[str, object]) -> str:
    return json.dumps(args, sort_keys=True, default=str)


def _mutate_value(value: object, rng: random.Random) -> list[object]:
    if isinstance(value, bool) or value is None:
        return [not value] if isinstance(value, bool) else []
    if isinstance(value, int):
        return [value - 1, value + 1]
    if isinstance(value, str):
        if not value:
            return []
        i = rng.randrange(len(value))
        out: list[object] = [value[:i] + value[i + 1:]]
        if len(value) > 1:
            j = rng.randrange(len(value) - 1)
            out.append(value[:j] + value[j + 1] + value[j] + value[j + 2:])
        return out
    if isinstance(value, list):
        if not value:
            return []
        i = rng.randrange(len(value))
        items: list[object] = [value[:i] + value[i + 1:], [*value[:i + 1], value[i], *value[i + 1:]]]
        items += [[*value[:i], v, *value[i + 1:]] for v in _mutate_value(value[i], rng)]
        if len(value) > 1:
            j = rng.randrange(len(value) - 1)
            items.append([*value[:j], value[j + 1], value[j], *value[j + 2:]])
        return items
    return []


def mutations(args: dict[str, object], problem: Problem, *, limit: int = MAX_MUTATIONS,
              seed: int = 0) -> list[dict[str, object]]:
    """Valid inputs one small change away from ``args``, within what the examples show where no
    line bounds a value or a row's length (as every input vibecode makes: ``clr.inputs_check``)."""
    rng = random.Random(seed)
    c = parse_constraints(problem)
    out: dict[str, dict[str, object]] = {}
    for _ in range(3):
        if problem.signature.design:  # whole calls change, or one call's argument (clr.differential_design)
            changes = sequence_mutations(args, rng, lambda v: _mutate_value(v, rng))
        else:
            changes = [{**args, name: changed} for name, value in args.items() for changed in _mutate_value(value, rng)]
        for candidate in changes:
            if _valid(candidate, problem, c):
                out.setdefault(_key(candidate), candidate)
            if len(out) >= limit:
                return list(out.values())
    return list(out.values())


def _valid(args: dict[str, object], problem: Problem, c: Constraints) -> bool:
    """Whether vibecode may run ``args``: within the constraints ``c`` and the examples' range
    where nothing bounds a value; for a design problem, a well-formed sequence whose every call
    is (:func:`vibecode.clr.differential_design.valid`)."""
    if problem.signature.design:
        return valid(args, problem)
    return not validate_input(dict(args), problem, c) and not outside_examples(args, problem, c)


def differential_inputs(problem: Problem, distinguishing: dict[str, object] | None,
                        seen: Sequence[dict[str, object]], *, small: bool = True) -> list[dict[str, object]]:
    """New inputs to tell disagreeing clusters apart: mutations of the distinguishing input
    first, then fresh generated ones, then (``small``) small-scope ones (none for a design
    problem); none that is already in ``seen``."""
    known = {_key(x) for x in seen}
    out: list[dict[str, object]] = []
    pool = mutations(distinguishing, problem) if distinguishing else []
    fresh = generate_design_inputs if problem.signature.design else generate_inputs
    for seed in EXTRA_SEEDS:
        pool += [dict(x) for x in fresh(problem, seed=seed).inputs]
    if small:
        pool += dense_inputs(problem, seed=EXTRA_SEEDS[0])
    for x in pool:
        k = _key(x)
        if k not in known:
            known.add(k)
            out.append(x)
    return out


def separating(tokens: Sequence[Sequence[str]]) -> list[int]:
    """Columns on which at least two of the given behaviours answer differently."""
    width = min((len(t) for t in tokens), default=0)
    cols = []
    for i in range(width):
        answers = {t[i] for t in tokens if t[i].startswith("ok:")}
        if len(answers) > 1 or (answers and any(not t[i].startswith("ok:") for t in tokens)):
            cols.append(i)
    return cols


def size(value: object) -> tuple[int, int]:
    """How big a value is, for shrinking: its items and characters (nested), then the sum of its
    numbers' magnitudes."""
    if isinstance(value, bool) or value is None:
        return (0, 0)
    if isinstance(value, int):
        return (0, abs(value))
    if isinstance(value, float):
        return (0, int(abs(value)))
    if isinstance(value, str):
        return (len(value), 0)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        parts = [size(v) for v in value]
        return (len(value) + sum(p[0] for p in parts), sum(p[1] for p in parts))
    return (0, 0)


def _smaller_int(value: int) -> list[int]:
    if value == 0:
        return []
    toward = [0, value // 2 if value > 0 else -((-value) // 2), value - 1 if value > 0 else value + 1]
    return list(dict.fromkeys(v for v in toward if abs(v) < abs(value)))


def _drops(n: int) -> list[tuple[int, int]]:
    """(start, stop) of the chunks to drop from a sequence of length ``n``: halves first, then
    quarters and so on down to single items."""
    out: list[tuple[int, int]] = []
    chunk = n // 2 if n > 1 else 1
    while chunk >= 1:
        out += [(i, min(i + chunk, n)) for i in range(0, n, chunk)]
        if chunk == 1:
            break
        chunk //= 2
    return list(dict.fromkeys(out))


def _smaller_value(value: object) -> list[object]:
    """Values one shrinking step below ``value``: chunks dropped, numbers made smaller, for a
    list also each item made smaller."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return list(_smaller_int(value))
    if isinstance(value, str):
        return [value[:a] + value[b:] for a, b in _drops(len(value))]
    if isinstance(value, list):
        out: list[object] = [value[:a] + value[b:] for a, b in _drops(len(value))]
        for i, item in enumerate(value):
            out += [[*value[:i], v, *value[i + 1:]] for v in _smaller_value(item)]
        return out
    return []


def shrink_steps(args: dict[str, object], problem: Problem, *, limit: int = SHRINK_STEPS,
                 c: Constraints | None = None) -> list[dict[str, object]]:
    """Valid inputs one shrinking step below ``args`` (one argument made smaller), smallest first;
    valid as :func:`mutations` (the constraints ``c``, parsed when not given, and the examples'
    range where nothing bounds a value)."""
    c = parse_constraints(problem) if c is None else c
    found: dict[str, dict[str, object]] = {}
    if problem.signature.design:  # chunks of calls dropped, or one call's argument made smaller
        steps = sequence_shrinks(args, _drops, _smaller_value)
    else:
        steps = [{**args, name: v} for name, value in args.items() for v in _smaller_value(value)]
    steps.sort(key=lambda x: size(list(x.values())))
    for candidate in steps:
        if _key(candidate) in found:
            continue
        if _valid(candidate, problem, c):
            found[_key(candidate)] = candidate
            if len(found) >= limit:
                break
    return list(found.values())


def shrink(args: dict[str, object], problem: Problem,
           separates: Callable[[Sequence[dict[str, object]]], Sequence[bool]], *,
           rounds: int = SHRINK_ROUNDS, batch: int = SHRINK_BATCH) -> dict[str, object]:
    """The smallest input found below ``args`` on which the clusters still differ: ``separates``
    is asked about batches of valid inputs a step smaller (:func:`shrink_steps`, the smallest
    first) until one of them still separates; the search goes on from the smallest of those.
    ``rounds`` bounds the batches asked about; ``args`` itself when no smaller input separates."""
    best = args
    asked = 0
    c = parse_constraints(problem)
    while asked < rounds:
        steps = shrink_steps(best, problem, c=c)
        found: dict[str, object] | None = None
        for start in range(0, len(steps), batch):
            if asked >= rounds:
                break
            chunk = steps[start:start + batch]
            asked += 1
            kept = [x for x, ok in zip(chunk, separates(chunk), strict=False) if ok]
            if kept:
                found = min(kept, key=lambda x: size(list(x.values())))
                break
        if found is None:
            break
        best = found
    return best
