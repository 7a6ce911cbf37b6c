"""The pre-commit check: run the tests affected by the staged change on exactly what is staged,
and when they fail, look for a verified fix within a time budget.

1. Export the staged index to a temporary folder (the working tree is neither read nor written).
2. Choose the tests: the test files that depend on the staged modules (code index,
   :mod:`vibecode.fix.affected`); the whole suite when that choice is empty, when the change can
   affect every test, or when the suite is cheap (its last full run took at most
   ``cheap_suite_s``; the time is kept in ``<state dir>/precommit.json``).
3. Passing: done (exit 0). Failing: run the fix pipeline on the export within the budget and
   save its proposals; exit 1 in hard mode, 0 in soft mode.

vibecode's own failures (no sandbox, no model, a broken export) never block a commit in soft
mode; in hard mode they do when the tests could not be run at all (nothing was checked), and the
message says how to commit anyway. Either way the result's ``message`` says what happened.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from vibecode.errors import Cancelled, VibecodeError
from vibecode.events import (
    BASELINE_MESSAGE_CHARS,
    BaselineTested,
    Event,
    StageFinished,
    StageStarted,
    StepUnavailable,
)
from vibecode.fix.affected import affected_tests
from vibecode.fix.discover import unlisted_note, unlisted_test_files
from vibecode.fix.snapshot import Snapshot, snapshot, staged_paths
from vibecode.fix.suite import SuiteCommand, check_baseline, failures, run_tests, with_environment
from vibecode.fix.testfiles import find_test_files
from vibecode.precommit.preexisting import fails_on_head, preexisting_note, without
from vibecode.repo.code_index import CodeIndex
from vibecode.repo.git import vibecode_dir
from vibecode.sandbox import Sandbox
from vibecode.types import FixResult, PrecommitMode, PrecommitResult, TestCaseResult, TestReport

if TYPE_CHECKING:
    from vibecode.fix.pipeline import FixRun

CHEAP_SUITE_S = 10.0
CHEAP_TEST_FILES = 40  # with no timing on record, a suite this small counts as cheap
STATS_FILE = "precommit.json"
BYPASS = "Commit with `git commit --no-verify` to skip the check, or reinstall the hook with `vibecode hook install --mode soft`."


@dataclass(frozen=True)
class PrecommitOptions:
    mode: PrecommitMode = "hard"
    budget_s: float = 120.0
    n: int | None = None
    command: SuiteCommand = field(default_factory=SuiteCommand)
    cheap_suite_s: float = CHEAP_SUITE_S
    timeout: float = 600.0  # per test run
    save: bool = True
    fix: bool = True  # look for a fix when the tests fail
    allow_no_tests: bool = False  # hard mode: let a commit through on which no test was collected
    tests: tuple[str, ...] | None = None  # run these (pytest paths or ids) instead of choosing


@dataclass(frozen=True)
class Selection:
    kind: str  # "all" | "affected"
    tests: tuple[str, ...] | None  # test files, None for the whole suite
    why: str


def precommit(
    sandbox: Sandbox,
    root: Path,
    options: PrecommitOptions,
    make_run: Callable[[float], FixRun],
) -> Generator[Event, None, PrecommitResult]:
    """The check (see the module docstring); ``make_run(budget_s)`` builds the fix run (opening
    the model) only when the tests fail."""
    started = time.monotonic()
    timing: dict[str, float] = {}
    changed: tuple[str, ...] = ()
    environment: dict[str, object] = {}
    try:
        with snapshot(root, "index") as snap:
            assert snap.repo is not None
            changed = tuple(staged_paths(snap.repo))
            timing["export"] = round(time.monotonic() - started, 3)
            options = dataclasses.replace(options, command=with_environment(options.command, snap.root, sandbox, snap.source))
            env = options.command.environment
            environment = env.json() if env is not None else {}
            yield StageStarted("environment", env.describe() if env else f"the {sandbox.name} sandbox's Python")
            yield StageStarted("tests", "index")
            mark = time.monotonic()
            selection = choose_tests(snap, changed, options)
            timing["select"] = round(time.monotonic() - mark, 3)
            mark = time.monotonic()
            with sandbox.prepare(snap.source) as ws:
                report = run_tests(sandbox, ws, options.command, selection.tests, options.timeout)
            unlisted = unlisted_test_files(snap.source) if _collected_nothing(report, options) else ()
            if unlisted:  # test.py / tests.py, which pytest's default patterns skip
                selection = Selection("all", unlisted, unlisted_note(unlisted))
                with sandbox.prepare(snap.source) as ws:
                    report = run_tests(sandbox, ws, options.command, selection.tests, options.timeout)
            timing["tests"] = round(time.monotonic() - mark, 3)
            timing["test_run"] = round(report.run.duration_s, 3)
            failing = failures(report, snap.source)
            yield BaselineTested("index", len(report.passed), tuple(c.nodeid for c in failing), report.run.duration_s,
                                 report.complete, report.collection_error, selection.kind,
                                 tuple(c.message[-BASELINE_MESSAGE_CHARS:] for c in failing))
            check_baseline(report, failing, options.command, snap.source)
            yield StageFinished("tests", time.monotonic() - mark)
            if selection.tests is None:
                _record_suite(snap, report)
            preexisting: tuple[str, ...] = ()
            if failing and snap.repo is not None and snap.repo.head():
                preexisting = fails_on_head(sandbox, snap.root, options.command, failing, options.timeout)
                failing = tuple(c for c in failing if c.nodeid not in preexisting)
            note = " " + preexisting_note(preexisting) if preexisting else ""
            if not report.cases and not failing and not preexisting:
                timing["total"] = round(time.monotonic() - started, 3)
                block = options.mode == "hard" and not options.allow_no_tests
                what = "No tests were collected on the staged changes, so nothing was checked."
                what += (" The commit is blocked (hard mode); set precommit_allow_no_tests = true "
                         "(VIBECODE_PRECOMMIT_ALLOW_NO_TESTS=1) if that is fine." if block else "")
                return _result(options, "no_tests", int(block), changed, selection, report, (), timing=timing,
                               message=what, environment=environment)
            if not failing:
                timing["total"] = round(time.monotonic() - started, 3)
                return _result(options, "passed", 0, changed, selection, report, (), timing=timing,
                               message=f"{len(report.passed)} test(s) pass on the staged changes.{note}",
                               environment=environment)
            if options.fix:
                fixed, message = yield from _try_fix(sandbox, snap, options, selection, without(report, preexisting),
                                                     make_run)
            else:
                fixed, message = None, "Not looking for a fix (--no-fix)."
            message += note
    except Cancelled:
        raise
    except VibecodeError as exc:
        timing["total"] = round(time.monotonic() - started, 3)
        code = 1 if options.mode == "hard" else 0
        what = f"vibecode could not check the staged changes: {exc}"
        if code:
            what += " " + BYPASS
        else:
            what += " The commit is not blocked (soft mode)."
        return PrecommitResult(options.mode, "error", code, changed, "none", (), 0, (), message=what, timing=timing,
                               environment=environment)
    timing["total"] = round(time.monotonic() - started, 3)
    best = fixed.best_candidate if fixed is not None else None
    return _result(options, "failed", 1 if options.mode == "hard" else 0, changed, selection, report, failing,
                   fix_result=fixed, proposal=best.proposal_id if best is not None else None, message=message,
                   timing=timing, environment=environment)


def _try_fix(
    sandbox: Sandbox,
    snap: Snapshot,
    options: PrecommitOptions,
    selection: Selection,
    report: TestReport,
    make_run: Callable[[float], FixRun],
) -> Generator[Event, None, tuple[FixResult | None, str]]:
    from vibecode.fix.pipeline import FixTarget, fix  # only when the tests fail

    try:
        target = FixTarget(
            root=snap.root, source=snap.source, base=snap.base, command=options.command, tests=selection.tests,
            n=options.n or 8, save=options.save, baseline=report, timeout=options.timeout, label="index",
        )
        result = yield from fix(sandbox, target, lambda: make_run(options.budget_s))
    except Cancelled:
        raise
    except VibecodeError as exc:
        yield StepUnavailable("fix", str(exc))
        return None, f"vibecode could not look for a fix: {exc}"
    if result.status in ("verified", "plausible"):
        return result, f"A {result.status} fix was found."
    budget_note = " The time budget ran out." if any("budget" in n for n in result.notes) else ""
    return result, f"No verified fix was found: {result.reason}{budget_note}"


def _collected_nothing(report: TestReport, options: PrecommitOptions) -> bool:
    """A pytest run on no named tests that collected nothing and broke on nothing."""
    return (not report.cases and options.command.is_pytest and not (options.tests or options.command.selectors)
            and not report.collection_error and not report.run.timed_out)


def choose_tests(snap: Snapshot, changed: tuple[str, ...], options: PrecommitOptions) -> Selection:
    """The affected test files, or the whole suite (see the module docstring)."""
    tests = options.tests or options.command.selectors or None
    if tests:
        return Selection("given", tuple(tests), "the tests were named")
    index = CodeIndex.build(snap.source, cache_dir=vibecode_dir(snap.root) / "index")
    if not options.command.selectable:
        return Selection("all", None, "the test command cannot select tests")
    affected = affected_tests(index, list(changed), find_test_files(snap.source))
    if affected.whole_suite is not None:
        return Selection("all", None, affected.whole_suite)
    if not affected.tests:
        return Selection("all", None, "no test depends on the staged files")
    last = _suite_seconds(snap)
    if last is not None and last <= options.cheap_suite_s:
        return Selection("all", None, f"the whole suite is cheap ({last:.1f} s last time)")
    if last is None and sum(find_test_files(snap.source).collectable(p) for p in index.files) <= CHEAP_TEST_FILES:
        return Selection("all", None, "the suite is small")
    return Selection("affected", affected.tests, f"{len(affected.tests)} test file(s) depend on the staged files")


def _stats_path(snap: Snapshot) -> Path:
    return vibecode_dir(snap.root) / STATS_FILE


def _suite_seconds(snap: Snapshot) -> float | None:
    try:
        data = json.loads(_stats_path(snap).read_text(encoding="utf-8"))
        value = data.get("suite_s")
        return float(value) if isinstance(value, (int, float)) else None
    except (OSError, ValueError, AttributeError):
        return None


def _record_suite(snap: Snapshot, report: TestReport) -> None:
    if not report.complete:
        return
    path = _stats_path(snap)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"suite_s": round(report.run.duration_s, 3), "tests": len(report.cases)}),
                        encoding="utf-8")
    except OSError:
        pass  # only a missed shortcut next time


def _result(
    options: PrecommitOptions,
    outcome: str,
    code: int,
    changed: tuple[str, ...],
    selection: Selection,
    report: TestReport,
    failing: tuple[TestCaseResult, ...],
    *,
    fix_result: FixResult | None = None,
    proposal: str | None = None,
    message: str = "",
    timing: dict[str, float] | None = None,
    environment: dict[str, object] | None = None,
) -> PrecommitResult:
    return PrecommitResult(
        mode=options.mode, outcome=outcome, exit_code=code, changed=changed,  # type: ignore[arg-type]
        selection=selection.kind,  # type: ignore[arg-type]
        selected=selection.tests or (), tests_run=len(report.cases), failing=failing, fix=fix_result,
        proposal_id=proposal, message=message, timing=timing or {}, environment=environment or {},
    )
