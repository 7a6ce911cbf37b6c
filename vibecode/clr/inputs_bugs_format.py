"""Bug-seeking strings in the format of the examples' (issue 14): for a string argument whose
example values are built of runs and separators (``"1.01"``, ``"255.0.10.1"``, ``"3[a]2[bc]"``,
``"/a/./b/"``, ``"-1/2+1/3"``), strings made the same way, so that a format vibecode cannot read
("valid version numbers", "a valid expression") is kept more often than by drawing characters.

A value is cut into *runs* (:func:`runs`): digits, lowercase letters, uppercase letters, and each
other character on its own (a *separator*). A variant (:func:`variant`) keeps the separators and
redraws every run:

- digits: a number of the run's length (one more or less at times), with a leading zero only
  where some example run of this argument has one;
- letters: the same case, from the letters the examples use in runs of that case, about as long;

and, where the examples show the same separator a different number of times (``"1.0"`` and
``"1.0.0"``), repeats or drops a trailing ``separator + run`` group. For two string arguments of
the same format it also builds near pairs (:func:`near_pairs`): the same value, one with a
trailing group more (``"1.2"`` / ``"1.2.3"`` and ``"1.2.0"``), one run changed.

Only arguments with at least one separator in every example value take part: plain words and
numerals are ``clr.inputs_bugs_text``'s. Apart from the formats, ``zeros`` puts a leading zero
before one digit run of an example's string that mixes digits with other characters
(``"i12iz4n"`` -> ``"i012iz4n"``): the examples rarely show one, and "no leading zeros" is a rule
a solution must check. The caller validates every input against the parsed
constraints; nothing here is trusted as valid (``clr.trust``): the format is a guess from the
examples, not read from the statement.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

from vibecode.clr.inputs_check import specs
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
VARIANTS = 8  # variants per example and argument
RUN = re.compile(r"[0-9]+|[a-z]+|[A-Z]+|.", re.S)


def runs(text: str) -> list[str]:
    """``text`` cut into digit, lowercase and uppercase runs and single other characters."""
    return RUN.findall(text)


def _kind(run: str) -> str:
    if run.isdigit():
        return "d"
    if run.isalpha() and run.isascii():
        return "a" if run.islower() else "A"
    return run  # a separator is its own kind


def _separators(text: str) -> Counter[str]:
    return Counter(r for r in runs(text) if _kind(r) == r)


class Format:
    """What the examples of one string argument show: the letters per case, whether digit runs
    start with a zero, and whether the number of separators varies."""

    def __init__(self, values: list[str]) -> None:
        cut = [runs(v) for v in values]
        self.letters = {k: sorted({ch for rs in cut for r in rs if _kind(r) == k for ch in r}) for k in ("a", "A")}
        self.zeros = any(len(r) > 1 and r[0] == "0" for rs in cut for r in rs if r.isdigit())
        self.varies = len({tuple(sorted(_separators(v).items())) for v in values}) > 1

    def run(self, rng: random.Random, like: str) -> str:
        kind = _kind(like)
        size = max(1, len(like) + rng.choice((-1, 0, 0, 1)))
        if kind == "d":
            first = "0123456789" if self.zeros or size == 1 else "123456789"
            return rng.choice(first) + "".join(rng.choice("0123456789") for _ in range(size - 1))
        if kind in ("a", "A"):
            letters = self.letters[kind]
            return "".join(rng.choice(letters) for _ in range(size))
        return like

    def variant(self, rng: random.Random, value: str) -> str:
        """A string made like ``value``: every run redrawn, separators kept (and, where the
        examples vary in them, a trailing group repeated or dropped)."""
        cut = runs(value)
        out = [self.run(rng, r) for r in cut]
        if self.varies and len(cut) >= 3 and _kind(cut[-2]) == cut[-2]:
            if rng.random() < 0.5:
                out += [cut[-2], self.run(rng, cut[-1])]
            else:
                out = out[:-2]
        return "".join(out)


def formatted(values: list[object]) -> bool:
    """Whether every value is a non-empty string with a separator between runs."""
    return bool(values) and all(isinstance(v, str) and v and any(_kind(r) == r for r in runs(v)) for v in values)


def near_pairs(rng: random.Random, fmt: Format, value: str) -> list[tuple[str, str]]:
    """``(value, other)`` pairs where ``other`` is ``value`` with a trailing group more (a zero
    run and a non-zero one), or with one run redrawn."""
    cut = runs(value)
    seps = [r for r in cut if _kind(r) == r]
    out: list[tuple[str, str]] = [(value, value)]
    if seps and fmt.varies:
        sep = seps[-1]
        last = next((r for r in reversed(cut) if _kind(r) != r), "1")
        zero = "0" if _kind(last) == "d" else last
        out += [(value, value + sep + zero), (value, value + sep + fmt.run(rng, last))]
    grown = [i for i, r in enumerate(cut) if _kind(r) != r]
    if grown:
        i = rng.choice(grown)
        out.append((value, "".join([*cut[:i], fmt.run(rng, cut[i]), *cut[i + 1:]])))
    return out


def zeros(problem: Problem) -> list[Args]:
    """Each example with a zero put before one digit run of a string argument whose example values
    mix digits with other characters (``"i12iz4n"`` -> ``"i012iz4n"``, ``"1.2"`` -> ``"01.2"``,
    ``"1.02"``), and with that run made ``"0"``: text read as numbers that must refuse, or ignore,
    a leading zero (the examples rarely show one)."""
    names = [n for n, s in specs(problem).items() if s.base.kind == "str"]
    examples = [dict(e.inputs) for e in problem.examples]
    out: list[Args] = []
    for n in names:
        values = [e.get(n) for e in examples]
        if not all(isinstance(v, str) and any(ch.isdigit() for ch in v) and not v.isdigit() for v in values) or not values:
            continue
        for e in examples:
            cut = runs(str(e[n]))
            for i, r in enumerate(cut):
                if r.isdigit():
                    out += [{**e, n: "".join([*cut[:i], "0" + r, *cut[i + 1:]])},
                            {**e, n: "".join([*cut[:i], "0", *cut[i + 1:]])}]
    return out


def format_candidates(problem: Problem, c: Constraints, bases: list[Args]) -> dict[str, list[Args]]:
    """``{"formats": inputs, "zeros": inputs}``: each example with its formatted string arguments
    redrawn, near pairs where two string arguments share a format, and the examples with a
    leading zero put before a digit run (:func:`zeros`); not validated yet."""
    del c, bases  # the examples are the bases: they carry the format
    names = [n for n, s in specs(problem).items() if s.base.kind == "str"]
    examples = [dict(e.inputs) for e in problem.examples]
    shaped = [n for n in names if formatted([e.get(n) for e in examples])]
    with_zeros = {"zeros": made} if (made := zeros(problem)) else {}
    if not shaped or not examples:
        return with_zeros
    rng = random.Random(len(examples) * 7919 + len(shaped))
    formats = {n: Format([str(e[n]) for e in examples]) for n in shaped}
    pairs: list[Args] = []
    if len(shaped) >= 2:
        a, b = shaped[0], shaped[1]
        both = Format([str(e[n]) for e in examples for n in (a, b)])  # one format, seen in either
        for e in examples:
            for x, y in near_pairs(rng, both, both.variant(rng, str(e[a]))):
                pairs += [{**e, a: x, b: y}, {**e, a: y, b: x}]
    variants = [{**e, **{n: formats[n].variant(rng, str(e[n])) for n in shaped}}
                for _ in range(VARIANTS) for e in examples]
    # near pairs and variants in turn: the caller takes the first few of each strategy
    mixed = [x for both in itertools.zip_longest(pairs, variants) for x in both if x is not None]
    return {"formats": mixed, **with_zeros}
