"""Design sequences on the real Snake Game and Tic-Tac-Toe statements (issue 14): walks on a
small board that reach the states where snakes differ, arguments that never repeat across calls,
call limits in the constructor's arguments, and differential steps that keep a sequence well formed."""

from __future__ import annotations

import json
import random
from pathlib import Path

from tests.clr.local_exec import execute
from tests.solve.design_pools import load
from vibecode.clr.design_inputs import generate_design_inputs, validate_design_input
from vibecode.clr.design_walks import BACK, MOVES, board, walk
from vibecode.clr.differential import mutations, shrink_steps
from vibecode.clr.harness import build_job, run_job
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.design import ARGUMENTS, OPERATIONS
from vibecode.problems.leetcode_data import render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

POOLS = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools" / "src" / "dev.txt"


def _problem(slug: str) -> Problem:
    return parse_problem(render_markdown(load(slug)))


def _pool(slug: str) -> dict[str, str]:
    """The candidates of one stored replay pool, by their ``--- kind description`` line."""
    text = POOLS.read_text(encoding="utf-8").split(f"=== {slug}\n", 1)[1].split("\n=== ", 1)[0]
    out = {}
    for part in text.split("--- ")[1:]:
        head, _, code = part.partition("\n")
        out[head] = code
    return out


def _code(slug: str, kind: str, words: str) -> str:
    return next(code for head, code in _pool(slug).items() if head.startswith(kind) and words in head)


def _outputs(problem: Problem, code: str, inputs: list[dict[str, object]]) -> list[object]:
    results = run_job(build_job(problem.signature, code, inputs), execute)
    assert all(r.status == "ok" for r in results), [r.error for r in results if r.status != "ok"][:1]
    return [r.output for r in results]


def _walks(problem: Problem) -> list[dict[str, object]]:
    b = board(problem)
    assert b is not None
    rng = random.Random(5)
    return [walk(b, "SnakeGame", length, rng) for length in (8, 16, 32, 48) * 6]


def test_snake_walks_keep_the_food_promise_and_stay_within_the_constraints() -> None:
    problem = _problem("design_snake_game")
    b = board(problem)
    assert b is not None and (b.method, b.rows, b.cols, b.cells) == ("move", "height", "width", "food")
    walks = _walks(problem)
    made = [json.dumps(s, sort_keys=True) for s in generate_design_inputs(problem).inputs]
    assert sum(len(json.loads(s)[ARGUMENTS][0][2]) and max(json.loads(s)[ARGUMENTS][0][:2]) <= 4 for s in made) >= 8
    reversals = 0
    for seq in walks:
        assert validate_design_input(seq, problem) == []
        (width, height, food), *moves = seq[ARGUMENTS]  # type: ignore[misc]
        body, eaten, alive = [(0, 0)], 0, True
        for prev, (d,) in zip([[""], *moves], moves, strict=False):
            reversals += prev[0] == BACK[d]
            if not alive:
                break
            if eaten < len(food):  # the food on the screen is never under the snake
                assert tuple(food[eaten]) not in body, seq
            head = (body[0][0] + MOVES[d][0], body[0][1] + MOVES[d][1])
            grows = eaten < len(food) and list(head) == list(food[eaten])
            eaten += grows
            rest = body if grows else body[:-1]
            alive = 0 <= head[0] < height and 0 <= head[1] < width and head not in rest
            body = [head, *rest]
    assert reversals >= len(walks)  # the walks turn back on themselves


def test_snake_walks_separate_the_bugs_that_passed_as_verified() -> None:
    """The tail-collision bug (checks the head against the whole body before the tail moves)
    came back verified on the random sequences; the walks tell it and the swapped walls apart."""
    problem = _problem("design_snake_game")
    inputs = [dict(s) for s in generate_design_inputs(problem).inputs]
    right = _outputs(problem, _code("design_snake_game", "correct", "deque"), inputs)
    assert _outputs(problem, _code("design_snake_game", "correct", "plain list"), inputs) == right
    for words in ("whole body", "swapped"):
        wrong = _outputs(problem, _code("design_snake_game", "wrong", words), inputs)
        assert wrong != right, words


def test_tic_tac_toe_cells_never_repeat_and_calls_stay_within_n_squared() -> None:
    problem = _problem("design_tic_tac_toe")
    c = parse_constraints(problem)
    assert c.skipped == []  # "(row, col) are unique ..." and "At most n^2 calls ..." are both read
    made = generate_design_inputs(problem, seed=2)
    assert len(made.inputs) >= 12
    for seq in made.inputs:
        (n,), *moves = seq[ARGUMENTS]  # type: ignore[misc]
        cells = [(r, col) for r, col, _ in moves]
        assert len(set(cells)) == len(cells) and len(moves) <= n * n, seq
    square = {OPERATIONS: ["TicTacToe", "move", "move"], ARGUMENTS: [[2], [0, 0, 1], [0, 0, 2]]}
    assert validate_design_input(square, problem) == [
        "operation 2: row, col = [0, 0] repeats operation 1, which breaks "
        "'(row, col) are unique for each different call to move.'"]
    cells = [[r, col, 1 + (r + col) % 2] for r in range(2) for col in range(2)]
    full = {OPERATIONS: ["TicTacToe", *["move"] * 4], ARGUMENTS: [[2], *cells]}
    assert validate_design_input(full, problem) == []
    over = {OPERATIONS: ["TicTacToe", *["move"] * 5], ARGUMENTS: [[2], *cells, [1, 1, 2]]}
    errors = validate_design_input(over, problem)
    assert "5 calls where 'At most n^2 calls will be made to move.' allows 4 for this constructor" in errors


def test_differential_steps_of_a_sequence_are_whole_calls_and_valid() -> None:
    """Mutating and shrinking a sequence change whole calls or one argument, never one of the
    two parallel lists alone, and every step keeps the constraints (no repeated cell)."""
    problem = _problem("design_tic_tac_toe")
    seq = dict(generate_design_inputs(problem, seed=2).inputs[0])
    ops, args = seq[OPERATIONS], seq[ARGUMENTS]
    assert isinstance(ops, list) and isinstance(args, list)
    changed = [m for s in range(4) for m in mutations(seq, problem, seed=s)]
    assert changed and all(validate_design_input(m, problem) == [] for m in changed)
    assert any(len(m[OPERATIONS]) == len(ops) - 1 for m in changed)  # type: ignore[arg-type]
    smaller = shrink_steps(seq, problem)
    assert smaller and all(validate_design_input(m, problem) == [] for m in smaller)
    assert any(len(m[OPERATIONS]) <= len(ops) // 2 + 1 for m in smaller)  # type: ignore[arg-type]
    assert all(m[OPERATIONS][0] == "TicTacToe" for m in changed + smaller)  # type: ignore[index]
