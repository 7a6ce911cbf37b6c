"""What the fix run view shows, as plain data: the baseline test run, the candidates (the run
view's rows, see :class:`~vibecode.tui.state.RunState`) and each patch's verification.

Nothing here imports textual.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from vibecode.events import (
    FIX_STAGES,
    BaselineTested,
    ContextBuilt,
    Event,
    FixReady,
    PatchParsed,
    PatchVerified,
    StageStarted,
)
from vibecode.tui.state import Clock, RunState
from vibecode.types import FixCandidate, FixResult

MESSAGE_LINES = 2  # lines of a failing test's message shown under its name
_DIFF_HEADER = re.compile(r'^diff --git "?a/.+? "?b/(.+?)"?$', re.M)

# Fix statuses that end a run with nothing to fix (no proposals to show).
NOTHING_TO_FIX = ("passing", "no_tests")


@dataclass(frozen=True)
class FailingTest:
    nodeid: str
    message: str = ""

    def summary(self, lines: int = MESSAGE_LINES) -> list[str]:
        return message_summary(self.message, lines)


def message_summary(message: str, lines: int = MESSAGE_LINES) -> list[str]:
    """The telling lines of a failure message: pytest's ``E`` lines when there are some (the
    assertion and what differed), else the last lines."""
    raw = [line.rstrip() for line in message.strip().splitlines() if line.strip()]
    errors = [line[1:].strip() for line in raw if line.startswith("E ")]
    chosen = [line for line in errors if line][:lines] if errors else raw[-lines:]
    return [line.strip() for line in chosen]


@dataclass
class PatchCheck:
    """What extraction and verification found about one candidate's patch."""

    diff: str | None = None
    retried: bool = False
    test_edit: bool = False
    verified: bool = False
    fixed: int = 0
    failing_total: int = 0
    regressions: tuple[str, ...] = ()
    regression_run: int = 0
    scope: str = "none"
    error: str | None = None  # the sandbox run went wrong
    files: tuple[str, ...] = ()

    @property
    def fixes_all(self) -> bool:
        return self.failing_total > 0 and self.fixed == self.failing_total


class FixState(RunState):
    """Everything the fix run view shows about one fix: the session's events folded in."""

    def __init__(self, n: int, clock: Clock = time.monotonic) -> None:
        super().__init__(n, clock=clock, mode="fix")
        self.stages = FIX_STAGES
        self.baseline: BaselineTested | None = None
        self.failing: list[FailingTest] = []
        self.context: ContextBuilt | None = None
        self.checks: dict[int, PatchCheck] = {}
        self.fix_result: FixResult | None = None
        self.environment: str | None = None  # which Python ran the tests ("the project's .venv ...")

    @property
    def passing(self) -> bool:
        """Nothing to fix: the tests passed before any patch, or no test was collected."""
        return self.fix_result is not None and self.fix_result.status in NOTHING_TO_FIX

    def check(self, index: int) -> PatchCheck:
        self.row(index)
        return self.checks.setdefault(index, PatchCheck())

    def apply(self, event: Event) -> None:
        if isinstance(event, BaselineTested):
            self._started()
            self.baseline = event
            messages = list(event.messages) + [""] * (len(event.failing) - len(event.messages))
            self.failing = [FailingTest(nodeid, message) for nodeid, message in zip(event.failing, messages, strict=False)]
        elif isinstance(event, ContextBuilt):
            self._started()
            self.context = event
            self.prompt_tokens = event.tokens
        elif isinstance(event, PatchParsed):
            self._started()
            row = self.row(event.index)
            row.parsed, row.duplicate_of, row.error = event.parsed, event.duplicate_of, event.error
            check = self.check(event.index)
            check.diff, check.retried, check.test_edit = event.diff, event.retried, event.test_edit
            check.files = diff_paths(event.diff or "")
        elif isinstance(event, PatchVerified):
            self._started()
            for index in [event.index, *self._duplicates(event.index)]:
                check = self.check(index)
                check.verified = event.error is None or not event.error.startswith("not run")
                check.fixed, check.failing_total = event.fixed, event.failing_total
                check.regressions, check.regression_run = event.regressions, event.regression_run
                check.scope, check.error = event.scope, event.error
        elif isinstance(event, FixReady):
            self.finish_fix(event.result)
        else:
            if isinstance(event, StageStarted) and event.stage == "environment":
                self.environment = event.detail or None
            super().apply(event)

    def _started(self) -> None:
        if self.status == "starting":
            self.status = "running"

    def _duplicates(self, index: int) -> list[int]:
        return [i for i, row in self.candidates.items() if row.duplicate_of == index]

    def finish_fix(self, result: FixResult) -> None:
        """The final word: the failing tests with their messages, and every candidate as the
        result has it (duplicates share their original's verification)."""
        self.fix_result = result
        self.status = "done"
        self.ended_at = self.clock()
        self.failing = [FailingTest(c.nodeid, c.message) for c in result.failing]
        for c in result.candidates:
            row = self.row(c.index)
            row.parsed, row.duplicate_of, row.error = c.parsed, c.duplicate_of, c.error
            row.cluster = c.cluster
            if c.claims or c.r is not None:
                row.claims, row.r = c.claims, c.r
            if not row.finished:
                row.finished, row.finish_reason = True, c.completion.finish_reason
                row.tokens = max(row.tokens, c.completion.completion_tokens)
            self.checks[c.index] = check_of(c)


def check_of(c: FixCandidate) -> PatchCheck:
    return PatchCheck(
        diff=c.diff, retried=c.retried, test_edit=c.test_edit, verified=c.verified, fixed=c.fixed,
        failing_total=c.failing_total, regressions=c.regressions, regression_run=c.regression_run,
        scope=c.regression_scope, error=c.verify_error, files=c.patch.paths if c.patch else (),
    )


def diff_paths(diff: str) -> tuple[str, ...]:
    """The files a git-style diff touches (for showing them before the result has the patch)."""
    return tuple(m.group(1) for m in _DIFF_HEADER.finditer(diff))
