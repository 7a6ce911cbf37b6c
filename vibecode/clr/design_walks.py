"""Walks on a small board, for design problems whose method takes a direction (design_snake_game).

A method whose one parameter is a direction (its lines name ``'U'``, ``'D'``, ``'L'`` and ``'R'``)
on a board the constructor sizes (``width`` and ``height``, or ``rows`` and ``cols``) is badly
served by moves drawn one at a time: from the corner ``(0, 0)`` half the first moves leave the
board, and cells the constructor names (the food) lie far from the path, so the states that tell
solutions apart (a snake that has eaten, then turns back onto its tail) are almost never reached.

A walk here starts at ``(0, 0)``, stays on a board of at most 4 x 4 cells, and turns back on
itself often; some walks then step off the board and make a few more moves after it. A
constructor parameter that lists cells of the board (``food``) gets cells in the order the walk
first reaches them, and perhaps one cell it never reaches: a cell the walk has not yet visited is
never under the walker's trail, so "food will not appear on a block occupied by the snake" holds
without simulating the game. Every sequence is checked with
:func:`vibecode.clr.design_inputs.validate_design_input` before it is used.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from vibecode.problems.design import fold
from vibecode.problems.typespec import parse_type
from vibecode.types import Problem

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}
SIDE = 4  # the board's rows and columns, at most
_ROWS = ("height", "rows", "m", "h", "numrows")
_COLS = ("width", "cols", "columns", "n", "w", "numcols")


@dataclass(frozen=True)
class Board:
    """Where a walk goes in a sequence: the method that moves and the constructor's parameters."""

    method: str
    params: tuple[str, ...]  # the constructor's parameters, in order
    rows: str
    cols: str
    cells: str | None  # a parameter listing [row, col] cells of the board, if any


def board(problem: Problem) -> Board | None:
    """The board of a design problem whose method takes a direction, or None (see the module)."""
    sig = problem.signature
    if not sig.design:
        return None
    ctor = sig.methods[0]
    ints = {fold(p.name): p.name for p in ctor.params if (p.type or "") == "int"}
    rows = next((ints[n] for n in _ROWS if n in ints), None)
    cols = next((ints[n] for n in _COLS if n in ints), None)
    cells = [p.name for p in ctor.params if _cell_list(p.type or "")]
    if rows is None or cols is None or len(ctor.params) != 2 + len(cells) or len(cells) > 1:
        return None
    for m in sig.methods[1:]:
        if len(m.params) == 1 and (m.params[0].type or "") == "str" and _directions(problem, m.params[0].name):
            return Board(m.function, tuple(p.name for p in ctor.params), rows, cols, cells[0] if cells else None)
    return None


def _cell_list(type_: str) -> bool:
    """Whether a parameter of this type lists cells: a list of lists of ints."""
    t = parse_type(type_).base
    return t.kind == "list" and t.element.base.kind == "list" and t.element.base.element.base.kind == "int"


def _directions(problem: Problem, name: str) -> bool:
    """Whether a constraint line on ``name`` gives its values as the four directions."""
    for line in problem.constraints:
        if re.search(rf"\b{re.escape(name)}\b", line) and \
                all(re.search(rf"['\"`]{d}['\"`]", line) for d in MOVES):
            return True
    return False


def walk(b: Board, class_name: str, length: int, rng: random.Random) -> dict[str, object]:
    """One sequence: the constructor on a small board and ``length`` moves (see the module)."""
    rows, cols = rng.choice([(r, c) for r in range(1, SIDE + 1) for c in range(1, SIDE + 1) if r * c > 1])
    at, last = (0, 0), ""
    seen = [at]
    moves: list[str] = []
    back = rng.choice((0.2, 0.4, 0.6))  # how often the walk turns back on itself
    for _ in range(length):
        inside = [d for d, (dr, dc) in MOVES.items() if 0 <= at[0] + dr < rows and 0 <= at[1] + dc < cols]
        d = BACK[last] if last and BACK[last] in inside and rng.random() < back else rng.choice(inside)
        at = (at[0] + MOVES[d][0], at[1] + MOVES[d][1])
        moves.append(d)
        if at not in seen:
            seen.append(at)
        last = d
    off = [d for d, (dr, dc) in MOVES.items() if not (0 <= at[0] + dr < rows and 0 <= at[1] + dc < cols)]
    if off and rng.random() < 0.4:  # from a cell on the edge: off the board, then a few moves more
        moves += [rng.choice(off), *(rng.choice(list(MOVES)) for _ in range(rng.randint(0, 2)))]
    args: dict[str, object] = {b.rows: rows, b.cols: cols}
    if b.cells is not None:
        args[b.cells] = _cells(seen, rows, cols, rng)
    ctor = [args[p] for p in b.params]
    return {"operations": [class_name, *[b.method] * len(moves)], "arguments": [ctor, *[[d] for d in moves]]}


def _cells(seen: list[tuple[int, int]], rows: int, cols: int, rng: random.Random) -> list[list[int]]:
    """Cells the walk first reaches (after its start), in that order, each kept with one chance per
    walk, and perhaps one it never reaches; at least one cell."""
    keep = rng.choice((1.0, 0.7, 0.4))
    out = [[r, c] for r, c in seen[1:] if rng.random() < keep]
    never = [[r, c] for r in range(rows) for c in range(cols) if (r, c) not in seen]
    if never and (not out or rng.random() < 0.5):
        out.append(rng.choice(never))
    return out or [list(seen[1])]  # a walk of one move or more on two cells or more reaches a second cell
