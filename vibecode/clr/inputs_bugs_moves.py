"""Bug-seeking inputs of the edge tier a few small moves away from the examples (issue 14).

The examples are the only inputs vibecode has that are known to lie where the answer is
interesting. Random inputs of a decision problem nearly always fall on one side of it: drawn at
random, a pyramid's bottom almost never can be built on, a ``start`` almost never can become
``result``, a 3 x 3 window of a grid is almost never a magic square. A program that takes the first
allowed block for each pair and never backtracks, a move check that forgets one direction, or a
magic-square test that accepts the numbers 2..10 then agrees with the right program on every
random input and on the examples, and differs on an example moved by a step or two.

``moves``: from each example, seeded walks of one to ``MAX_STEPS`` moves, each on one argument
(or on one item of it, a string inside a list or a row of a grid):

- ``swap``: two neighbouring items (characters of a string, items of a list, rows of a grid);
- ``reverse``: the value's items in reverse order or, for a grid, every row reversed in place; and
  every list and string argument of one length reversed together (``start`` and ``result``
  mirrored keep their letters' order);
- ``shuffle``: a list's items in a seeded order (which pattern comes first in ``allowed``);
- ``repeat`` / ``drop``: one item (character) written twice, or left out (not where every list or
  string at that depth has one length: a row of a grid, a cell ``"W"`` of a grid of characters,
  a word of a list of words of one length);
- ``step``: every integer of the value one more, or one less.

The moves keep what an example is made of (its letters, its values give or take one), so the
inputs stay near the examples' answers; the caller (``clr.inputs_tiers``) validates each one
against the parsed constraints and, as for the few-value strategies (``clr.inputs_bugs_palette``),
proposes them only where vibecode's own inputs are vouched for (``clr.trust``): a moved example
easily breaks a promise the reader cannot check. Trees, linked lists and design classes are left
alone (their values carry their shape).
"""

from __future__ import annotations

import random

from vibecode.clr.inputs_bugs_palette import plain_args
from vibecode.clr.inputs_check import key
from vibecode.types import Problem

Args = dict[str, object]
MAX_STEPS = 3  # moves in one walk, at most
WALKS = 24  # walks from each example (the caller keeps the first valid ones, examples in turn)
MOVES = ("swap", "reverse", "shuffle", "repeat", "drop", "step")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _containers(value: object) -> list[list[int]]:
    """Paths (item indexes) to the lists and strings inside ``value``, itself first."""
    if not isinstance(value, (list, str)):
        return []
    out: list[list[int]] = [[]]
    if isinstance(value, list):
        for i, item in enumerate(value):
            out += [[i, *p] for p in _containers(item)]
    return out


def _at(value: object, path: list[int]) -> object:
    for i in path:
        value = value[i]  # type: ignore[index]
    return value


def _put(value: object, path: list[int], new: object) -> object:
    if not path:
        return new
    items = list(value)  # type: ignore[call-overload]
    items[path[0]] = _put(items[path[0]], path[1:], new)
    return items


def _stepped(value: object, by: int) -> object:
    if isinstance(value, list):
        return [_stepped(v, by) for v in value]
    return value + by if _is_int(value) else value  # type: ignore[operator]


def _moved(value: object, move: str, rng: random.Random) -> object | None:
    """``value`` (a list or a string) after one ``move``; None where the move does not apply."""
    if not isinstance(value, (list, str)):
        return value + rng.choice((-1, 1)) if isinstance(value, int) and _is_int(value) and move == "step" else None
    items = list(value)
    n = len(items)
    if move == "swap" and n >= 2:
        i = rng.randrange(n - 1)
        items[i], items[i + 1] = items[i + 1], items[i]
    elif move == "reverse" and n >= 2:
        items.reverse()
        if isinstance(value, list) and rng.random() < 0.5 and all(isinstance(r, list) for r in items):
            items = [list(reversed(r)) for r in value]  # every row mirrored instead
    elif move == "shuffle" and isinstance(value, list) and n >= 3:
        rng.shuffle(items)
    elif move == "repeat" and n >= 1:
        i = rng.randrange(n)
        items.insert(i, items[i])
    elif move == "drop" and n >= 2:
        del items[rng.randrange(n)]
    elif move == "step" and isinstance(value, list):
        return _stepped(value, rng.choice((-1, 1)))
    else:
        return None
    return "".join(items) if isinstance(value, str) else items


def _mirrored(args: Args, names: list[str]) -> Args | None:
    """Every list and string argument of the most common length reversed together."""
    sized = [n for n in names if isinstance(args.get(n), (list, str)) and len(args[n]) >= 2]  # type: ignore[arg-type]
    lengths = [len(args[n]) for n in sized]  # type: ignore[arg-type]
    if len(sized) < 2:
        return None
    common = max(set(lengths), key=lengths.count)
    together = [n for n in sized if len(args[n]) == common]  # type: ignore[arg-type]
    if len(together) < 2:
        return None
    return {**args, **{n: args[n][::-1] for n in together}}  # type: ignore[index]


def _one_length(value: object, depth: int) -> bool:
    """Whether the lists and strings ``depth`` levels down in ``value`` are at least two and all
    of one length: a grid's rows (depth 1), the one-character cells of a grid of characters
    (depth 2: ``[["W"], ["B"]]`` as much as ``[["W", "B"], ...]``), a list of pairs."""
    level = [value]
    for _ in range(depth):
        level = [x for v in level if isinstance(v, list) for x in v]
    sized = [len(v) for v in level if isinstance(v, (list, str))]
    return len(sized) >= 2 and len(set(sized)) == 1


def walk(args: Args, names: list[str], steps: int, rng: random.Random) -> Args | None:
    """``args`` after ``steps`` random moves on the arguments ``names``; None when none applied."""
    out = dict(args)
    done = 0
    for _ in range(steps * 4):  # a move that does not apply is drawn again, a few times
        if done >= steps:
            break
        if rng.random() < 0.1 and (both := _mirrored(out, names)) is not None:
            out, done = both, done + 1
            continue
        name = rng.choice(names)
        paths = _containers(out[name]) or [[]]
        path = rng.choice(paths)
        move = rng.choice(MOVES)
        if move in ("repeat", "drop") and path and _one_length(args[name], len(path)):
            continue  # one row longer than the others is no grid, a cell "WW" no pixel (as the example has it)
        before = _at(out[name], path)
        new = _moved(before, move, rng)
        if new is not None and new != before:  # a step on a list of strings, a swap of equal items: no move
            out[name] = _put(out[name], path, new)
            done += 1
    return out if done else None


def whole(args: Args, names: list[str]) -> list[Args]:
    """The moves of a whole argument: reversed (a grid also mirrored row by row), every integer
    one more and one less; and the arguments of one length reversed together."""
    out: list[Args] = []
    for name in names:
        value = args[name]
        if isinstance(value, (list, str)) and len(value) >= 2:
            out.append({**args, name: value[::-1]})
        if isinstance(value, list) and value and all(isinstance(r, list) for r in value):
            out.append({**args, name: [r[::-1] for r in value]})
        out += [{**args, name: _stepped(value, by) if isinstance(value, list) else value + by}  # type: ignore[operator]
                for by in (1, -1) if _is_int(value) or (isinstance(value, list) and _stepped(value, by) != value)]
    both = _mirrored(args, names)
    return out + ([both] if both is not None else [])


def moves(problem: Problem) -> list[Args]:
    """Moved examples, none equal to an example: first each example's whole-argument moves
    (:func:`whole`), then the walks, the examples in turn (walk ``w`` of every example before walk
    ``w + 1``), shorter walks first."""
    if problem.signature.design:
        return []
    names = plain_args(problem)
    examples = [ex.inputs for ex in problem.examples if names and all(n in ex.inputs for n in names)]
    seen = {key(ex) for ex in examples}
    out: list[Args] = []

    def add(made: Args | None) -> None:
        if made is not None and key(made) not in seen:
            seen.add(key(made))
            out.append(made)
    for ex in examples:
        for made in whole(ex, names):
            add(made)
    for w in range(WALKS):
        for ex in examples:
            add(walk(ex, names, 1 + w % MAX_STEPS, random.Random(f"{key(ex)}/{w}")))
    return out


__all__ = ["MAX_STEPS", "MOVES", "WALKS", "moves", "walk"]
