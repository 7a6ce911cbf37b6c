"""The fix pipeline: run the tests, localize, sample K patches, verify each distinct one in its
own sandbox workspace, check claims, score, rank and save the proposals.

:func:`fix` is a generator of session events that ends with :class:`~vibecode.events.FixReady`.
It works on ``FixTarget.source``, a folder that holds the tree under test (an export of the
working tree or of the staged index): the user's files are only read, never written. Proposals
are saved under ``<state dir>/proposals/`` of ``FixTarget.root``.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

from vibecode.clr.claim_check import check_claims
from vibecode.clr.claims import extract_claims
from vibecode.clr.score import Calibration, trajectory_weight
from vibecode.engine.base import Engine
from vibecode.engine.sampling import Budget, ask_model, sample_candidates
from vibecode.errors import SandboxError
from vibecode.events import (
    BASELINE_MESSAGE_CHARS,
    BaselineTested,
    ClaimsChecked,
    ContextBuilt,
    Event,
    FixReady,
    PatchVerified,
    SampleBudget,
    StageFinished,
    StageStarted,
    StepUnavailable,
)
from vibecode.fix.baseline import split_baseline
from vibecode.fix.discover import unlisted_note, unlisted_test_files
from vibecode.fix.extract import extract_candidates, original, share_results
from vibecode.fix.localize import build_context
from vibecode.fix.prompts import fix_messages, instruction_overhead, problem_text
from vibecode.fix.proposals import save_all
from vibecode.fix.score import decide
from vibecode.fix.suite import SuiteCommand, check_baseline, failures, run_tests, with_environment
from vibecode.fix.testfiles import find_test_files
from vibecode.fix.verify import CHEAP_SUITE_TESTS, Verification, VerifyPlan, verify_patch
from vibecode.fix.wording import count
from vibecode.repo.code_index import CodeIndex, default_cache_dir
from vibecode.sandbox import Sandbox
from vibecode.types import (
    ChatMessage,
    FixCandidate,
    FixResult,
    SamplingParams,
    TestCaseResult,
    TestReport,
)

MAX_PROMPT_TOKENS = 8192  # small models lose the thread in longer prompts
MIN_PROMPT_TOKENS = 1024
MAX_MODEL_VERDICTS = 12
MAX_PARALLEL = 4


@dataclass
class FixRun:
    """What one fix request runs with (the session builds it)."""

    engine: Engine
    sandbox: Sandbox
    params: SamplingParams
    helper_params: SamplingParams
    budget: Budget
    n_ctx: int = 32768  # the context size to plan with when the engine does not say
    calibration: Calibration | None = None
    use_model_verdicts: bool = True
    timing: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FixTarget:
    """What to fix: ``source`` holds the tree under test; ``root`` is the user's repository."""

    root: Path
    source: Path
    base: dict[str, object]
    command: SuiteCommand = field(default_factory=SuiteCommand)
    tests: tuple[str, ...] | None = None  # selectors (None: the whole suite)
    n: int = 8
    allow_test_edits: bool = False
    save: bool = True
    baseline: TestReport | None = None  # a run already made (and reported) on ``source`` (precommit)
    timeout: float = 600.0  # per test run
    label: str = "worktree"


class _Stage:
    def __init__(self, run: FixRun, name: str) -> None:
        self.run, self.name, self.started = run, name, time.monotonic()

    def start(self, detail: str = "", sampling: SampleBudget | None = None) -> StageStarted:
        self.started = time.monotonic()
        return StageStarted(self.name, detail, sampling)

    def finish(self) -> StageFinished:
        took = time.monotonic() - self.started
        self.run.timing[self.name] = round(self.run.timing.get(self.name, 0.0) + took, 3)
        return StageFinished(self.name, took)


def fix(sandbox: Sandbox, target: FixTarget, make_run: Callable[[], FixRun]) -> Generator[Event, None, FixResult]:
    """The pipeline (see the module docstring). ``make_run`` is called (opening the model) only
    when a test fails."""
    started = time.monotonic()
    baseline = target.baseline
    early_notes: list[str] = []
    if target.tests is None and target.command.selectors:  # tests named in --test-cmd
        target = dataclasses.replace(target, tests=target.command.selectors)
    if target.command.environment is None or target.command.nprocs is None:
        target = dataclasses.replace(target, command=with_environment(target.command, target.root, sandbox, target.source))
        env = target.command.environment
        yield StageStarted("environment", env.describe() if env else f"the {sandbox.name} sandbox's Python")
        yield StageFinished("environment", time.monotonic() - started)
    if baseline is None:
        yield StageStarted("tests", target.label)
        with sandbox.prepare(target.source) as ws:
            baseline = run_tests(sandbox, ws, target.command, target.tests, target.timeout)
        unlisted = unlisted_test_files(target.source) if _collected_nothing(baseline, target) else ()
        if unlisted:  # test.py / tests.py, which pytest's default patterns skip
            target = dataclasses.replace(target, tests=unlisted)
            early_notes.append(unlisted_note(unlisted))
            with sandbox.prepare(target.source) as ws:
                baseline = run_tests(sandbox, ws, target.command, target.tests, target.timeout)
        failing = failures(baseline, target.source)
        yield _tested(baseline, failing, target.label)
        check_baseline(baseline, failing, target.command, target.source)
        yield StageFinished("tests", time.monotonic() - started)
    else:  # the caller ran (and reported) the tests
        failing = failures(baseline, target.source)
    split = split_baseline(sandbox, target.source, target.command, failing, target.timeout) if failing else None
    if split is not None and not split.targets:
        raise SandboxError("No failing test fails because of the code: " + " ".join(split.notes()),
                           "Run the tests again; raise sandbox_nprocs (VIBECODE_SANDBOX_NPROCS) or select tests "
                           "with --tests if the sandbox stops them.")
    failing = split.targets if split is not None else failing
    took = time.monotonic() - started
    if not failing:
        timing = {"tests": round(took, 3)}
        return (yield from _finish(target, started, baseline, failing, {}, None, timing, early_notes, None))
    run = make_run()
    run.notes.extend([*early_notes, *(split.notes() if split is not None else [])])
    run.timing["tests"] = round(took, 3)
    passed_before = tuple(baseline.passed)

    stage = _Stage(run, "localize")
    yield stage.start()
    index = CodeIndex.build(target.source, cache_dir=default_cache_dir(target.root))  # outside git: the user cache dir
    budget_tokens = prompt_budget(run, instruction_overhead())
    tests = find_test_files(target.source, [c.nodeid for c in baseline.cases] + [c.nodeid for c in failing])
    context = build_context(target.source, index, failing, run.engine.count_tokens, budget_tokens, tests)
    messages = fix_messages(context.text)
    yield ContextBuilt(tuple(f"{s.path}:{s.line}-{s.end_line}" + (f" ({s.name})" if s.name else "")
                             for s in context.suspects), context.tokens, budget_tokens, context.map_tokens)
    yield stage.finish()

    stage = _Stage(run, "sample")
    yield stage.start(count(target.n, "candidate"), SampleBudget(target.n, run.params.max_tokens))
    completions = yield from _noting(run, sample_candidates(run.engine, messages, run.params, target.n, run.budget))
    yield stage.finish()

    stage = _Stage(run, "extract")
    yield stage.start()
    candidates = yield from _noting(
        run, extract_candidates(run.engine, completions, messages, target.source, run.params, run.budget, tests))
    yield stage.finish()

    stage = _Stage(run, "verify")
    distinct = [c for c in candidates.values() if c.parsed and c.duplicate_of is None]
    yield stage.start(count(len(distinct), "distinct patch", "distinct patches"))
    plan = VerifyPlan(
        source=target.source, command=target.command, failing=tuple(c.nodeid for c in failing),
        passed_before=passed_before, selectors=target.tests,
        cheap=len(passed_before) <= CHEAP_SUITE_TESTS, timeout=verify_timeout(baseline, target.timeout),
        index=index, tests=tests,
    )
    yield from _noting(run, _verify_all(run, plan, distinct, candidates))
    candidates = share_results(candidates)
    yield stage.finish()

    stage = _Stage(run, "claims")
    yield stage.start()
    candidates = yield from _noting(run, _check_claims(run, candidates, failing))
    yield stage.finish()
    return (yield from _finish(target, started, baseline, failing, candidates, len(completions), run.timing,
                               run.notes, run.calibration))


def _collected_nothing(baseline: TestReport, target: FixTarget) -> bool:
    """A default pytest run (no tests named) that collected no test and broke on nothing."""
    return (not baseline.cases and target.tests is None and target.command.is_pytest
            and not baseline.collection_error and not baseline.run.timed_out)


T = TypeVar("T")


def _noting(run: FixRun, events: Generator[Event, None, T]) -> Generator[Event, None, T]:
    """Pass the events on; keep each unavailable step's reason as a note of the result."""
    try:
        while True:
            try:
                event = next(events)
            except StopIteration as stop:
                return cast(T, stop.value)
            if isinstance(event, StepUnavailable):
                note = event.reason[0].upper() + event.reason[1:] + "."
                if note not in run.notes:
                    run.notes.append(note)
            yield event
    finally:
        events.close()


def _tested(report: TestReport, failing: Sequence[TestCaseResult], label: str) -> BaselineTested:
    return BaselineTested(label, len(report.passed), tuple(c.nodeid for c in failing), report.run.duration_s,
                          report.complete, report.collection_error,
                          messages=tuple(c.message[-BASELINE_MESSAGE_CHARS:] for c in failing))


def prompt_budget(run: FixRun, overhead: str) -> int:
    """Tokens the context may take: the context window less the answer's budget."""
    n_ctx = run.engine.info().n_ctx or run.n_ctx
    room = n_ctx - run.params.max_tokens - run.engine.count_tokens(overhead) - 64
    return max(MIN_PROMPT_TOKENS, min(MAX_PROMPT_TOKENS, room))


def verify_timeout(baseline: TestReport, limit: float) -> float:
    """Per verification run: a generous multiple of the run before the patch, within ``limit``."""
    return min(limit, max(30.0, baseline.run.duration_s * 3 + 10))


def _verify_all(
    run: FixRun, plan: VerifyPlan, distinct: list[FixCandidate], candidates: dict[int, FixCandidate]
) -> Generator[Event, None, None]:
    if not distinct:
        return
    workers = max(1, min(MAX_PARALLEL, os.cpu_count() or 1, len(distinct)))

    def job(c: FixCandidate) -> Verification:
        left = _seconds_left(run.budget)
        if run.budget.exhausted or (left is not None and left < 1):
            return Verification(0, len(plan.failing), error="not run: the time budget ran out")
        assert c.patch is not None
        return verify_patch(run.sandbox, plan, c.patch, timeout=left)

    skipped = 0
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="vibecode-verify") as pool:
        futures: dict[Future[Verification], FixCandidate] = {pool.submit(job, c): c for c in distinct}
        for future in as_completed(futures):
            c = futures[future]
            v = future.result()
            ran = v.error is None or not v.error.startswith("not run")
            skipped += not ran
            if v.flaky:
                note = (f"{len(v.flaky)} test(s) failed with a patch and again on the unchanged tree (flaky, not "
                        f"counted as regressions): {', '.join(v.flaky[:5])}.")
                if note not in run.notes:
                    run.notes.append(note)
            candidates[c.index] = dataclasses.replace(
                c, verified=ran, fixed=v.fixed, failing_total=v.failing_total, regressions=v.regressions,
                regression_run=v.regression_run, regression_scope=v.scope, outcomes=dict(v.outcomes),
                verify_error=v.error,
            )
            yield PatchVerified(c.index, v.fixed, v.failing_total, v.regressions, v.regression_run, v.scope, v.error)
    if skipped:
        yield StepUnavailable("verify", f"the time budget ran out before {skipped} patch(es) could be verified")


def _seconds_left(budget: Budget) -> float | None:
    if budget.seconds is None:
        return None
    return budget.seconds - (time.monotonic() - budget.started)


def _check_claims(
    run: FixRun, candidates: dict[int, FixCandidate], failing: Sequence[TestCaseResult]
) -> Generator[Event, None, dict[int, FixCandidate]]:
    text = problem_text(failing)
    left = [MAX_MODEL_VERDICTS]

    def ask(prompts: list[list[ChatMessage]]) -> list[str | None]:
        answers: list[str | None] = []
        for prompt in prompts:
            if not run.use_model_verdicts or left[0] <= 0 or run.budget.exhausted:
                answers.append(None)
                continue
            answer = ask_model(run.engine, prompt, run.helper_params, "verdict")
            left[0] = left[0] - 1 if answer is not None else -1
            answers.append(answer)
        return answers

    out = dict(candidates)
    for i, c in sorted(candidates.items()):
        if not c.parsed or not candidates[original(c)].verified:
            continue
        claims = check_claims(extract_claims(c.completion.reasoning), ask=ask, problem_text=text)
        r = trajectory_weight(claims)
        out[i] = dataclasses.replace(c, claims=claims, r=r)
        yield ClaimsChecked(i, claims, r)
    if run.use_model_verdicts and left[0] < 0:
        yield StepUnavailable("claims", "the model could not give verdicts; those claims stay unchecked")
    return out


def _finish(
    target: FixTarget,
    started: float,
    baseline: TestReport,
    failing: Sequence[TestCaseResult],
    candidates: dict[int, FixCandidate],
    k: int | None,
    timing: dict[str, float],
    notes: list[str],
    calibration: Calibration | None,
) -> Generator[Event, None, FixResult]:
    mark = time.monotonic()
    yield StageStarted("score")
    ids = [c.nodeid for c in failing]
    checked = [c for c in candidates.values() if c.parsed and candidates[original(c)].verified]
    if not failing:
        status, reason = ("passing" if baseline.cases else "no_tests"), _passing_reason(baseline)
        decision = None
    else:
        decision = decide(checked, ids, k=k or len(candidates), allow_test_edits=target.allow_test_edits,
                          calibration=calibration)
        status, reason = decision.status, decision.reason
    ranked = dict(candidates)
    if decision is not None:
        rank_of = {index: rank for rank, index in enumerate(decision.ranking)}
        for i, c in candidates.items():
            ranked[i] = dataclasses.replace(c, cluster=decision.cluster_of.get(i), rank=rank_of.get(i))
    result = FixResult(
        status=status,  # type: ignore[arg-type]
        reason=reason,
        failing=tuple(failing),
        passed_before=len(baseline.passed),
        candidates=tuple(ranked[i] for i in sorted(ranked)),
        best=decision.best if decision is not None else None,
        reliability=decision.reliability if decision is not None else 0.0,
        raw_reliability=decision.raw_reliability if decision is not None else 0.0,
        ranking=decision.ranking if decision is not None else (),
        k=k or 0,
        base=dict(target.base),
        root=str(target.root),
        calibrated=calibration is not None,
        notes=tuple(notes),
        collection_error=baseline.collection_error if not baseline.cases else None,
        environment=target.command.environment.json() if target.command.environment is not None else {},
    )
    if target.save and decision is not None and decision.ranking:
        result = save_all(target.root, result, decision, allow_test_edits=target.allow_test_edits)
    took = time.monotonic() - mark
    timing["score"] = round(took, 3)
    yield StageFinished("score", took)
    timing["total"] = round(time.monotonic() - started, 3)
    result = dataclasses.replace(result, timing=dict(timing))
    yield FixReady(result)
    return result


def _passing_reason(baseline: TestReport) -> str:
    n = len(baseline.passed)
    if not baseline.cases:
        return "No tests were collected, so nothing was checked."
    return f"Nothing fails: {n} test(s) pass." if n else "Nothing fails."
