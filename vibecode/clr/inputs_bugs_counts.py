"""Bug-seeking inputs of the edge tier where an integer argument meets a count of another one:

- ``counts``: a drawn input with an integer argument (one with a stated range) set to 1 and 2, to
  one below, at and one above the number of distinct items of a list or string argument, and to
  one below and at its length. Drawn across its range, ``k`` in "the longest substring with at
  most k distinct characters" is nearly always at least the number of letters drawn, where every
  program answers the whole string; a window that evicts the wrong letter only shows when ``k`` is
  below that number and the string repeats its letters, and then on long strings more than short
  ones: the strategy starts from the ``BASES`` longest drawn inputs of at most ``MAX_ITEMS`` items
  (:func:`count_bases`), not from the two small ones the other strategies change.

Like the few-value strategies (``clr.inputs_bugs_palette``), the caller proposes these only where
vibecode's own inputs are vouched for: a count the reader cannot check ("k is in the range [1,
the number of unique elements]" left unread) is easily broken by one above it. The caller
(``clr.inputs_tiers``) validates each input against the constraints.
"""

from __future__ import annotations

import json

from vibecode.clr.inputs_bugs import Strategies
from vibecode.clr.inputs_check import specs
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
MIN_ITEMS = 3  # a list or string shorter than this has no counts worth probing
MAX_ITEMS = 40  # the longest list or string a base may hold (a brute-force oracle still answers)
BASES = 3  # drawn inputs the strategy starts from


def _items(args: Args) -> list[int]:
    return [len(v) for v in args.values() if isinstance(v, (list, str))]


def count_bases(drawn: list[Args]) -> list[Args]:
    """The ``BASES`` drawn inputs with the most items in their lists and strings, none longer than
    ``MAX_ITEMS``, longest first."""
    fit = [a for a in drawn if _items(a) and max(_items(a)) <= MAX_ITEMS and max(_items(a)) >= MIN_ITEMS]
    return sorted(fit, key=lambda a: -sum(_items(a)))[:BASES]


def count_values(items: list[object] | str) -> list[int]:
    """1, 2, the distinct items' number -1, +0, +1, the length -1, +0; each once, in that order."""
    distinct = len({json.dumps(x, sort_keys=True) for x in items})
    return list(dict.fromkeys((1, 2, distinct - 1, distinct, distinct + 1, len(items) - 1, len(items))))


def counts(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    spec = specs(problem)
    ints = [n for n, s in spec.items() if s.base.kind == "int" and n in c.value]
    sequences = [n for n, s in spec.items() if s.base.kind in ("list", "str")]
    out: list[Args] = []
    for base in bases:
        for name in sequences:
            value = base.get(name)
            if not isinstance(value, (list, str)) or len(value) < MIN_ITEMS:
                continue
            for t in ints:
                out += [{**base, t: k} for k in count_values(value) if k != base.get(t)]
    return out


COUNT_STRATEGIES: Strategies = {"counts": counts}

__all__ = ["COUNT_STRATEGIES", "count_bases", "count_values", "counts"]
