"""Verify one patch in its own sandbox workspace.

1. The failing tests, all of them (no ``-x``: one failure that a patch cannot fix must not hide
   what the patch does to the others). Their outcomes here are the patch's outcomes on them.
2. The regression set: every test that passed before when there are at most
   :data:`CHEAP_SUITE_TESTS` of them (a count, never a time, so the status does not depend on
   the machine's load), else the test files that import the modules the patch touches
   (:mod:`vibecode.fix.affected`). A previously passing test that now fails, errors, is skipped
   or is gone is a regression, once it was rerun on the unpatched tree and passed there (a test
   that fails on the unpatched tree too is flaky, not the patch's fault).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vibecode.errors import VibecodeError
from vibecode.fix.affected import affected_tests, test_files_of
from vibecode.fix.suite import SuiteCommand, outcomes_for, run_tests
from vibecode.fix.testfiles import TestFiles
from vibecode.repo.code_index import CodeIndex
from vibecode.sandbox import Sandbox
from vibecode.types import Patch, RegressionScope, TestReport

CHEAP_SUITE_TESTS = 2000  # previously passing tests checked in full; above, only the affected ones


@dataclass(frozen=True)
class VerifyPlan:
    source: Path  # the folder every workspace copies (the exported tree)
    command: SuiteCommand
    failing: tuple[str, ...]  # node ids that failed before
    passed_before: tuple[str, ...]
    selectors: tuple[str, ...] | None  # what the run before the patch ran (None: the whole suite)
    cheap: bool  # check every previously passing test
    timeout: float  # per test run
    index: CodeIndex | None = None  # for the affected tests when the suite is not cheap
    tests: TestFiles | None = None  # which files hold tests (pytest's view)


@dataclass(frozen=True)
class Verification:
    fixed: int
    failing_total: int
    regressions: tuple[str, ...] = ()
    regression_run: int = 0
    scope: RegressionScope = "none"
    outcomes: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    flaky: tuple[str, ...] = ()  # failed with the patch, and again on the unpatched tree


def verify_patch(sandbox: Sandbox, plan: VerifyPlan, patch: Patch, timeout: float | None = None) -> Verification:
    """Run the failing tests, then the regression set, on ``plan.source`` with ``patch``."""
    limit = min(plan.timeout, timeout) if timeout is not None else plan.timeout
    total = len(plan.failing)
    try:
        with sandbox.prepare(plan.source, patch) as ws:
            selectable = plan.command.selectable
            first = run_tests(sandbox, ws, plan.command, plan.failing if selectable else plan.selectors, limit)
            outcomes = outcomes_for(first, plan.failing)
            fixed = sum(outcomes.get(n) == "passed" for n in plan.failing)
            if fixed < total:
                gone = [n for n in plan.failing if n not in outcomes]
                problem = _run_problem(first) if not gone or first.cases else None
                if gone and problem is None:
                    problem = f"{len(gone)} failing test(s) did not run (deleted or renamed?): {', '.join(gone[:3])}"
                return Verification(fixed, total, outcomes=outcomes, error=problem)
            scope, selectors, checked = regression_set(plan, patch.paths)
            if not checked:
                return Verification(fixed, total, scope=scope, outcomes=outcomes)
            second = run_tests(sandbox, ws, plan.command, selectors, limit) if selectable else first
    except VibecodeError as exc:
        return Verification(0, total, error=f"The sandbox run failed: {exc}")
    after = outcomes_for(second)
    regressions = tuple(n for n in checked if after.get(n) != "passed")
    flaky: tuple[str, ...] = ()
    if regressions and selectable:
        flaky = failing_on_base(sandbox, plan, regressions, limit)
        regressions = tuple(n for n in regressions if n not in flaky)
    # The failing tests' outcomes are those of the first run: a later run must not overwrite them.
    merged = {**after, **{n: outcomes[n] for n in plan.failing if n in outcomes}}
    return Verification(fixed, total, regressions, len(checked), scope, merged,
                        _run_problem(second) if regressions else None, flaky)


def failing_on_base(sandbox: Sandbox, plan: VerifyPlan, nodeids: Sequence[str], timeout: float) -> tuple[str, ...]:
    """Of ``nodeids`` (tests that failed with a patch), those that fail on the unpatched tree too."""
    try:
        with sandbox.prepare(plan.source) as ws:
            report = run_tests(sandbox, ws, plan.command, list(nodeids), timeout)
    except VibecodeError:
        return ()
    if report.run.timed_out or not report.cases:
        return ()
    again = outcomes_for(report)
    return tuple(n for n in nodeids if n in again and again[n] != "passed")


def regression_set(
    plan: VerifyPlan, touched: Sequence[str]
) -> tuple[RegressionScope, tuple[str, ...] | None, tuple[str, ...]]:
    """(scope, what to run, the previously passing node ids to check)."""
    if not plan.passed_before:
        return "all", None, ()  # nothing passed before, so nothing can break
    if plan.cheap or plan.index is None:
        return "all", plan.selectors, plan.passed_before
    affected = affected_tests(plan.index, list(touched), plan.tests)
    if affected.whole_suite is not None:
        return "all", plan.selectors, plan.passed_before
    files = set(affected.tests)
    checked = tuple(n for n in plan.passed_before if n.split("::", 1)[0] in files)
    if not checked:
        return "none", None, ()
    if len(checked) == len(plan.passed_before):
        return "all", plan.selectors, plan.passed_before  # the affected tests are every test
    return "affected", tuple(test_files_of(checked)), checked


def _run_problem(report: TestReport) -> str | None:
    run = report.run
    if run.timed_out:
        return f"the test run timed out after {run.duration_s:.0f} s"
    if run.oom:
        return "the test run ran out of memory"
    if report.collection_error:
        return "collection failed: " + report.collection_error.strip().splitlines()[-1][:300]
    return None
