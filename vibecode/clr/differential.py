"""Differential inputs (the S* idea): when clusters that pass every example disagree, look for
more inputs on which they differ.

Two sources, both validated against the problem's constraints: fresh type-driven inputs with
other seeds, and small mutations of the input that first told the clusters apart (one number
moved by one, one list item dropped, duplicated, changed or swapped, one character dropped).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_check import outside_examples
from vibecode.problems.constraints import parse_constraints
from vibecode.types import Problem

MAX_MUTATIONS = 16
EXTRA_SEEDS = (101, 202)
SKIPPED = "skipped"  # behaviour token of a candidate that did not run a differential input


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
        for name, value in args.items():
            for changed in _mutate_value(value, rng):
                candidate = {**args, name: changed}
                if not validate_input(dict(candidate), problem, c) and not outside_examples(candidate, problem, c):
                    out.setdefault(_key(candidate), candidate)
                if len(out) >= limit:
                    return list(out.values())
    return list(out.values())


def differential_inputs(problem: Problem, distinguishing: dict[str, object] | None,
                        seen: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """New inputs to tell disagreeing clusters apart: mutations of the distinguishing input
    first, then fresh generated ones; none that is already in ``seen``."""
    known = {_key(x) for x in seen}
    out: list[dict[str, object]] = []
    pool = mutations(distinguishing, problem) if distinguishing else []
    for seed in EXTRA_SEEDS:
        pool += [dict(x) for x in generate_inputs(problem, seed=seed).inputs]
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
