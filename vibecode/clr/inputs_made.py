"""Arguments a constraint line says are made from another one, made so when an input is drawn.

"popped is a permutation of pushed", "p is a subsequence of s", "sequences[i] is a subsequence of
nums" and "nums is a permutation of all the integers in the range [1, n]" are read as checks
(:mod:`vibecode.problems.constraint_prose` and its siblings), each with its ``made`` rule. Blind
draws almost never satisfy them, so without this the constraint filter drops nearly every drawn
input (sequence_reconstruction kept 1 of 176). :func:`make_derived` rebuilds each such argument
from the drawn ones: a shuffled range as long as the drawn list, a shuffle of the source, a
subsequence of the source as long as the drawn one allows. The filter still validates the result
against every line, so a rule that cannot hold for this draw only costs the draw.
"""

from __future__ import annotations

import json
import random

from vibecode.problems.constraint_types import MADE_HOW, Constraints

WORK_LIMIT = 1_000_000  # items a draw's subsequences may take, beyond which the draw is left as it is


def make_derived(args: dict[str, object], c: Constraints, rng: random.Random) -> None:
    """Apply the ``made`` rules of ``c``'s checks to ``args`` in place (ranges first, then
    permutations, then subsequences, so a subsequence is taken of the finished source)."""
    rules = sorted((ch.made for ch in c.checks if ch.made), key=lambda r: MADE_HOW.index(r[1]))
    for target, how, source in rules:
        drawn = args.get(target)
        if how == "range":
            if isinstance(drawn, list):
                values = list(range(int(source), int(source) + len(drawn)))
                rng.shuffle(values)
                args[target] = values
            continue
        whole = args.get(source)
        if not isinstance(whole, (list, str)):
            continue
        if how == "permutation" and isinstance(drawn, type(whole)):
            items = list(whole)
            rng.shuffle(items)
            args[target] = "".join(items) if isinstance(whole, str) else items
        elif how == "subsequence" and isinstance(drawn, type(whole)):
            args[target] = _subsequence(whole, len(drawn), rng)
        elif (how == "subsequences" and isinstance(drawn, list) and isinstance(whole, list)
              and all(isinstance(r, list) for r in drawn) and len(drawn) * len(whole) <= WORK_LIMIT):
            rows = [_subsequence(whole, len(r), rng) for r in drawn]
            if target in c.unique:  # "All the arrays of sequences are unique"
                rows = list({json.dumps(r): r for r in rows}.values())
            args[target] = rows


def _subsequence(whole: list[object] | str, length: int, rng: random.Random) -> list[object] | str:
    """A random subsequence of ``whole``: ``length`` items where it has them (at least one where
    it has any), in their order."""
    size = min(max(length, 1), len(whole))
    keep = sorted(rng.sample(range(len(whole)), size))
    if isinstance(whole, str):
        return "".join(whole[i] for i in keep)
    return [whole[i] for i in keep]
