"""Bug-seeking inputs of the edge tier at the boundaries of properties the statement names (in its
description or its constraint lines; never by the problem's name):

- ``powers``: where the statement names "a power of two" (``of 3``, ``of four``, ``n == 3^x``) or
  "a perfect square", every integer argument with a stated range gets every such value within
  it (``3^0 .. 3^19`` for a 32-bit range), then each one's neighbours (``k^i + 1``, ``k^i - 1``),
  their negatives where the range allows them, and ``0``, ``1``, ``-1``; a flat list of integers
  gets them as its items, a few at a time. Uniform draws across a 32-bit range almost never hit
  a power, so a floating-point ``log(n, 3).is_integer()`` (wrong at ``243 = 3^5``) would agree
  with every right answer on them.

- ``answers``: where two or more integer arguments bound the answer's integers, an example's input
  with one of them set to an integer its answer shows, and to that value plus and minus one
  (sequential_digits: ``high = 123`` where Example 1 answers ``[123, 234]``): an inclusive bound
  taken as exclusive differs only where the bound is an answer.

The caller (``clr.inputs_tiers``) validates each input against the constraints and takes from
every strategy in turn, with those of ``clr.inputs_bugs``.
"""

from __future__ import annotations

import math
import re

from vibecode.clr.inputs_bugs import Strategies, _int_range, _lists, _scalars, _small_len
from vibecode.clr.inputs_check import leaves, specs
from vibecode.clr.trust import description
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
_POWER = re.compile(r"\bpowers? of (two|three|four|five|ten|\d+)\b", re.I)
_EXPONENT = re.compile(r"(?<![\w^])(\d+)\s*\^\s*\(?[a-z]\b")  # "n == 3^x", never "2^31"
_SQUARE = re.compile(r"\bperfect squares?\b", re.I)
LIST_CHUNK = 6  # items of one list of named values, at most
ANSWER_VALUES = 6  # an example answer's distinct integers used as argument values, at most


def _text(problem: Problem) -> str:
    return re.sub(r"<[^>]+>|[`*]", "", description(problem) + "\n" + "\n".join(problem.constraints))


def named_bases(problem: Problem) -> list[int]:
    """The bases of the powers the statement names (``[3]`` for "a power of three"), in order."""
    text = _text(problem)
    found = [_WORDS.get(m.group(1).lower()) or int(m.group(1)) for m in _POWER.finditer(text)]
    found += [int(m.group(1)) for m in _EXPONENT.finditer(text)]
    return list(dict.fromkeys(b for b in found if 2 <= b <= 1000))


def named_values(problem: Problem, lo: int, hi: int) -> list[int]:
    """The values at the boundaries of the named properties within ``[lo, hi]``: the members
    first (every power, every square), then their neighbours, negatives, then 0, 1 and -1."""
    members: list[int] = []
    for base in named_bases(problem):
        v = 1
        while v <= hi:
            members.append(v)
            v *= base
    if _SQUARE.search(_text(problem)):
        top = math.isqrt(max(hi, 0))
        members += [i * i for i in range(top + 1)] if top <= 64 else \
            [i * i for i in range(17)] + [(top - i) * (top - i) for i in range(4)]
    if not members:
        return []
    near = [w for v in members for w in (v + 1, v - 1)]
    negative = [-v for v in members]
    out = [v for v in [*members, *near, *negative, 0, 1, -1] if lo <= v <= hi]
    return list(dict.fromkeys(out))


def powers(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    base = bases[0]
    out: list[Args] = []
    for name in _scalars(spec, "int"):
        r = _int_range(c, name, base)
        if r is not None:
            out += [{**base, name: v} for v in named_values(problem, *r)]
    for name in _lists(spec, 1):
        r = _int_range(c, name, base)
        values = named_values(problem, *r) if r is not None else []
        n = min(_small_len(c, name, base, LIST_CHUNK), LIST_CHUNK)
        if values and n > 0:
            out += [{**base, name: values[k:k + n]} for k in range(0, len(values), n) if len(values[k:k + n]) == n]
    return out


def answers(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    """An example's input with one integer argument set to a value its answer shows, or one next
    to it, where the integer arguments bound the answer's values (every answer integer lies
    between the least and the largest of them: ``low``/``high``, not an index or a count): a
    bound that lands exactly on an answer ("high" equal to the sequential number 123) is where an
    inclusive bound read as exclusive differs, and uniform draws almost never land there."""
    spec = specs(problem)
    names = _scalars(spec, "int")
    out: list[Args] = []
    for ex in problem.examples:
        bounds = [v for n in names if isinstance(v := ex.inputs.get(n), int) and not isinstance(v, bool)]
        shown = list(dict.fromkeys(v for v in leaves(ex.output) if isinstance(v, int) and not isinstance(v, bool)))[:ANSWER_VALUES]
        if len(bounds) < 2 or not shown or not all(min(bounds) <= v <= max(bounds) for v in shown):
            continue  # the integer arguments do not bound the answer's values (an index, a count)
        for name in names:
            out += [{**dict(ex.inputs), name: w} for v in shown for w in (v, v - 1, v + 1) if w != ex.inputs[name]]
    return out


NAMED_STRATEGIES: Strategies = {"powers": powers, "answers": answers}


__all__ = ["NAMED_STRATEGIES", "answers", "named_bases", "named_values", "powers"]
