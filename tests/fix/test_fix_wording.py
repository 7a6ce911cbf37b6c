"""Counts agree with their nouns in the fix and precommit output: a run of one candidate says
"1 candidate" and "1 distinct patch" (its events were "1 candidates"), a reason about one test
is in the singular."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.fix.repos import OFF_BY_ONE, state
from tests.fix.test_fix_pipeline import FAST
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import StageStarted
from vibecode.fix import wording
from vibecode.fix.score import decide
from vibecode.sandbox import Sandbox
from vibecode.session import Session
from vibecode.types import Completion, FixCandidate


def test_counts_and_sentences_agree_with_their_numbers() -> None:
    assert wording.count(1, "candidate") == "1 candidate" and wording.count(0, "candidate") == "0 candidates"
    assert wording.count(1, "distinct patch", "distinct patches") == "1 distinct patch"
    assert wording.count(3, "distinct patch", "distinct patches") == "3 distinct patches"
    assert wording.failing_tests(1) == "the failing test" and wording.failing_tests(2) == "all 2 failing test(s)"
    assert wording.still_pass(1) == "the 1 test that passed before still passes"
    assert wording.were_checked(1).startswith("only the 1 test that imports") and wording.were_checked(1).endswith("was checked for regressions")
    assert wording.candidates_do([6], "fixes", "fix") == "Candidate 6 fixes"
    assert wording.candidates_do([2, 6], "fixes", "fix") == "Candidates 2, 6 fix"
    assert wording.agreement(1, 1) == "1 of 1 candidate: no other behaves alike"
    assert wording.agreement(4, 8) == "4 of 8 candidates behave alike"


def cand(index: int, fixed: int, test_edit: bool = False, scope: str = "all", run: int = 1) -> FixCandidate:
    return FixCandidate(index, Completion("", "", "", "stop", 0, 0), parsed=True, verified=True, fixed=fixed,
                        failing_total=1, regression_run=run, regression_scope=scope,
                        outcomes={"t.py::a": "passed" if fixed else "failed"}, test_edit=test_edit)


def test_the_fix_reasons_about_one_test_are_in_the_singular() -> None:
    verified = decide([cand(0, 1)], ["t.py::a"], k=1)
    assert verified.status == "verified"
    assert "fixes the failing test and the 1 test that passed before still passes." in verified.reason
    affected = decide([cand(0, 1, scope="affected")], ["t.py::a"], k=1)
    assert "fixes the failing test; only the 1 test that imports the touched modules was checked" in affected.reason
    failed = decide([cand(0, 0), cand(2, 1, True), cand(5, 1, True)], ["t.py::a"], k=8)
    assert "No patch fixes the failing test; the closest fixes 0." in failed.reason
    assert "Candidates 2, 5 fix all of them by editing a test file" in failed.reason
    assert "1 tests" not in verified.reason + affected.reason + failed.reason


def test_a_fix_of_one_candidate_says_so_in_its_events(tmp_path: Path, sandbox: Sandbox) -> None:
    root = OFF_BY_ONE.build(tmp_path / OFF_BY_ONE.name)
    pool = dataclasses.replace(OFF_BY_ONE, pool=OFF_BY_ONE.pool[:1]).write_pool(tmp_path / "pool.jsonl")
    before = state(root)
    run = Session(ReplayEngine(pool), sandbox, Settings()).fix(root, command=FAST, n=1)
    details: dict[str, str] = {}
    for event in run:  # up to the verify stage's start: its detail is the last count
        if isinstance(event, StageStarted):
            details[event.stage] = event.detail
            if event.stage == "verify":
                break
    run.close()
    assert details["sample"] == "1 candidate" and details["verify"] == "1 distinct patch"
    assert state(root) == before
