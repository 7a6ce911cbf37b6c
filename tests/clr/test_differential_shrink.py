"""Shrinking a separating input (``clr.differential.shrink``) with a real pair of candidates for
Remove Duplicate Letters (the dev pool's wrong-majority and correct ones), run in the real
harness: the 40-character input that told them apart is far beyond the brute-force oracle, the
shrunk one is not."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from tests.clr.local_exec import execute
from vibecode.clr.differential import separating, shrink, shrink_steps, size
from vibecode.clr.harness import build_job, run_job
from vibecode.clr.inputs import validate_input
from vibecode.clr.score import behaviour_tokens
from vibecode.problems.leetcode_data import load_all, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

POOLS = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools" / "dev.jsonl"
TASK = "LeetCode/remove_duplicate_letters@wrong-majority"
LONG = {"s": "jeydtzirwztejdxcvkprdlnktugrpoqibzracxmw"}  # what the differential search found


def _problem() -> Problem:
    [lp] = [p for p in load_all() if p.slug == "remove_duplicate_letters"]
    return parse_problem(render_markdown(lp))


def _codes() -> dict[str, str]:
    lines = [json.loads(line) for line in POOLS.read_text(encoding="utf-8").splitlines() if TASK in line]
    pick = {"wrong": next(x for x in lines if x.get("role") == "wrong-majority"),
            "right": next(x for x in lines if x.get("role") == "correct"),
            "oracle": next(x for x in lines if x["kind"] == "oracle")}
    return {k: re.search(r"```python\n(.*?)```", v["text"], re.S).group(1) for k, v in pick.items()}  # type: ignore[union-attr]


def _tokens(problem: Problem, code: str, inputs: Sequence[dict[str, object]]) -> tuple[str, ...]:
    return behaviour_tokens(run_job(build_job(problem.signature, code, list(inputs)), execute), problem.output_order)


def test_shrink_steps_are_valid_and_smaller() -> None:
    problem = _problem()
    steps = shrink_steps(LONG, problem)
    assert steps and all(size(s["s"]) < size(LONG["s"]) for s in steps)
    assert all(not validate_input(dict(s), problem) for s in steps)
    assert len(steps[0]["s"]) == len(LONG["s"]) // 2  # a half dropped comes first
    assert shrink_steps({"s": "a"}, problem) == []  # 1 <= s.length: nothing below one letter


def test_a_separating_input_shrinks_to_one_the_oracle_can_judge() -> None:
    problem, codes = _problem(), _codes()
    calls: list[int] = []

    def separates(batch: Sequence[dict[str, object]]) -> list[bool]:
        calls.append(len(batch))
        cols = set(separating([_tokens(problem, codes[k], batch) for k in ("wrong", "right")]))
        return [j in cols for j in range(len(batch))]

    assert separates([LONG]) == [True]
    small = shrink(LONG, problem, separates)
    assert len(str(small["s"])) <= 8 and not validate_input(dict(small), problem)
    wrong, right, oracle = (_tokens(problem, codes[k], [small])[0] for k in ("wrong", "right", "oracle"))
    assert wrong != right and wrong.startswith("ok:") and right.startswith("ok:")
    assert oracle == right  # the brute force answers it, as the correct candidate does
    # nothing is asked about inputs that do not separate forever: at most the rounds allowed
    assert 1 < len(calls) <= 21


def test_no_smaller_input_separates_two_equal_programs() -> None:
    problem = _problem()
    assert shrink(LONG, problem, lambda batch: [False] * len(batch)) == LONG
