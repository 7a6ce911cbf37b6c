"""Bug-seeking inputs of the edge tier over a small alphabet and a small vocabulary, so that repeats
and collisions happen (uniform draws over 26 letters almost never repeat a word):

- ``vocabulary``: strings of two to four letters over the first two or three letters (or digits)
  allowed,
  strings of two to four words over a vocabulary of three words (``a``, ``b``, ``ab``) where the
  argument allows spaces (words separated by single spaces, no leading or trailing ones), and
  lists of strings over that vocabulary. Every *shape* is built (``aab``: the first two items
  equal, the third new); for two such arguments, every pair of shapes of the same length, the
  pairs whose shapes differ first (``ab`` with ``a a``: a mapping checked one way only takes
  them for a match).

The caller (``clr.inputs_tiers``) validates each input against the constraints (characters,
lengths, spaces) and takes from every strategy in turn, with those of ``clr.inputs_bugs``.
"""

from __future__ import annotations

import itertools

from vibecode.clr.inputs_bugs import Strategies, _chars
from vibecode.clr.inputs_check import specs
from vibecode.problems.constraint_types import Constraints
from vibecode.types import Problem

Args = dict[str, object]
SIZES = (1, 2, 3, 4)  # items (letters or words) per value
PAIRS = 60  # pairs of two arguments' shapes, at most


def shapes(n: int, symbols: int = 3) -> list[tuple[int, ...]]:
    """Every way ``n`` items can repeat with at most ``symbols`` distinct ones, each new item the
    next number (``(0, 0, 1)``: the first two equal), in order."""
    out: list[tuple[int, ...]] = []
    for combo in itertools.product(range(symbols), repeat=n):
        if all(x <= max(combo[:i], default=-1) + 1 for i, x in enumerate(combo)):
            out.append(combo)
    return out


def _kinds(problem: Problem, c: Constraints) -> dict[str, tuple[str, list[str]]]:
    """Argument -> (how its shapes are written, the symbols): ``letters`` (a string), ``words``
    (a string that allows spaces: words joined by one space), ``items`` (a list of strings).
    Symbols are letters or digits only (punctuation makes tokens and versions no answer reads);
    an argument with fewer than two allowed is left out."""
    out: dict[str, tuple[str, list[str]]] = {}
    for name, s in specs(problem).items():
        base = s.base
        listed = base.kind == "list" and base.element.base.kind == "str"
        if base.kind != "str" and not listed:
            continue
        chars = _chars(problem, c, name)
        plain = [ch for ch in chars if ch.isalnum()][:3]
        if len(plain) < 2 or (listed and not all(ch.isalnum() for ch in chars)):
            continue  # a list of tokens with operators ("+", "*"): shapes of digits are no valid list
        a, b = plain[0], plain[1]
        if listed:
            out[name] = ("items", [a, b, a + b])
        elif " " in chars and a.isalpha():
            out[name] = ("words", [a, b, a + b])
        else:
            out[name] = ("letters", plain)
    return out


def _write(how: str, symbols: list[str], shape: tuple[int, ...]) -> object | None:
    if max(shape) >= len(symbols):
        return None
    items = [symbols[k] for k in shape]
    return items if how == "items" else (" ".join(items) if how == "words" else "".join(items))


def vocabulary(problem: Problem, c: Constraints, bases: list[Args]) -> list[Args]:
    base = bases[0]
    kinds = _kinds(problem, c)
    out: list[Args] = []
    names = list(kinds)
    if len(names) >= 2:
        (a, (how_a, sym_a)), (b, (how_b, sym_b)) = (names[0], kinds[names[0]]), (names[1], kinds[names[1]])
        pairs: list[Args] = []
        for n in SIZES[1:]:  # one item each: a single shape, always a match
            both = list(itertools.product(shapes(n), shapes(n)))
            both.sort(key=lambda p: p[0] == p[1])  # differing shapes first
            for p, q in both:
                x, y = _write(how_a, sym_a, p), _write(how_b, sym_b, q)
                if x is not None and y is not None:
                    pairs.append({**base, a: x, b: y})
        out += pairs[:PAIRS]
    for name in names:
        how, sym = kinds[name]
        if how == "letters" and len(names) == 1:
            continue  # one string alone: the repeated patterns of clr.inputs_bugs cover it
        for n in SIZES[1:]:
            out += [{**base, name: v} for shape in shapes(n) if (v := _write(how, sym, shape)) is not None]
    return out


VOCAB_STRATEGIES: Strategies = {"vocabulary": vocabulary}


__all__ = ["VOCAB_STRATEGIES", "shapes", "vocabulary"]
