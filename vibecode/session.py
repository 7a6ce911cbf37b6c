"""The one API that the CLI, the TUI and the benchmarks drive: a task in, events out.

A :class:`Session` owns an engine, a sandbox and the settings (passed in, never global). Each
request is a generator of :mod:`vibecode.events`; the last event of a solve is
``ProposalReady`` with the :class:`~vibecode.types.SolveResult`, of a fix ``FixReady`` with the
:class:`~vibecode.types.FixResult`, of a precommit check ``PrecommitReady`` with the
:class:`~vibecode.types.PrecommitResult`. The engine may be a
:class:`~vibecode.engine.deferred.DeferredEngine`: fix and precommit open it only when a
test fails.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibecode.clr.score import Calibration
from vibecode.config import Settings
from vibecode.engine.base import CANDIDATE, Engine
from vibecode.engine.deferred import DeferredEngine
from vibecode.engine.params import sampling_params
from vibecode.engine.sampling import Budget
from vibecode.errors import SandboxError
from vibecode.events import Event, FixReady, PrecommitReady, ProposalReady
from vibecode.fix.report import fix_json
from vibecode.models import Manifest
from vibecode.precommit.report import precommit_json
from vibecode.sandbox import Sandbox
from vibecode.solve.helper_budgets import NO_THINK
from vibecode.solve.report import result_json
from vibecode.types import ChatMessage, MathProblem, Problem, SamplingParams, StreamEvent

# The pipelines are imported when a request needs them: a pre-commit check that passes loads
# neither the solve nor the fix pipeline (its overhead beyond the test run must stay small).
if TYPE_CHECKING:
    from vibecode.fix.pipeline import FixRun
    from vibecode.fix.suite import SuiteCommand
    from vibecode.precommit.check import PrecommitOptions
    from vibecode.solve.pipeline import SolveContext

# Verdicts (and the base of the oracle's, generator's and edge cases' sampling, whose own budgets
# are vibecode.solve.helper_budgets'): short answers after a short think.
HELPER_MAX_TOKENS = 2048


def calibration_path(manifest: Manifest | None) -> Path | None:
    """``models/<id>.calibration.json`` beside the model's manifest."""
    if manifest is None or manifest.source is None:
        return None
    return manifest.source.with_name(f"{manifest.id}.calibration.json")


class Session:
    def __init__(
        self,
        engine: Engine,
        sandbox: Sandbox | None,
        settings: Settings,
        manifest: Manifest | None = None,
    ) -> None:
        self.engine = engine
        self.sandbox = sandbox
        self.settings = settings
        self.manifest = manifest
        self.cancel_event = threading.Event()
        path = calibration_path(manifest)
        self.calibration = Calibration.load(path) if path is not None and path.is_file() else None

    def cancel(self) -> None:
        """Stop the current request (from any thread): the engine and sandbox runs stop soon."""
        self.cancel_event.set()

    def params(self) -> SamplingParams:
        return sampling_params(self.settings, self.manifest)

    def helper_params(self) -> SamplingParams:
        base = self.params()
        budget = min(base.max_tokens, HELPER_MAX_TOKENS)
        return dataclasses.replace(base, max_tokens=budget, max_think_tokens=budget // 2)

    def helper_prefill(self) -> str:
        """The helpers' assistant prefix: an empty think block for a model that thinks."""
        return NO_THINK if self.manifest is not None and self.manifest.thinks else ""

    def _context(self, use_model: bool) -> SolveContext:
        from vibecode.clr.execute import CandidateRunner
        from vibecode.solve.pipeline import SolveContext

        self.cancel_event.clear()
        return SolveContext(
            engine=self.engine,
            runner=CandidateRunner(self.sandbox) if self.sandbox is not None else None,
            params=self.params(),
            helper_params=self.helper_params(),
            budget=Budget(self.settings.time_budget_s, self.cancel_event),
            calibration=self.calibration,
            helper_prefill=self.helper_prefill(),
            use_model_inputs=use_model,
            use_model_verdicts=use_model,
            until=self.settings.until,
        )

    def solve(self, problem: Problem, n: int | None = None, use_model_checks: bool = True) -> Iterator[Event]:
        """Solve a code problem; the events end with ``ProposalReady``."""
        from vibecode.solve.pipeline import solve

        yield from solve(self._context(use_model_checks), problem, n or self.settings.n)

    def solve_math(self, problem: MathProblem, n: int | None = None) -> Iterator[Event]:
        from vibecode.solve.math import solve_math
        from vibecode.solve.pipeline import SolveContext

        self.cancel_event.clear()
        ctx = SolveContext(
            engine=self.engine,
            runner=None,  # math mode runs no code
            params=self.params(),
            helper_params=self.helper_params(),
            budget=Budget(self.settings.time_budget_s, self.cancel_event),
            calibration=self.calibration,
        )
        yield from solve_math(ctx, problem, n or self.settings.n)

    def ask(self, messages: Sequence[ChatMessage], n: int = 1) -> Iterator[StreamEvent]:
        """A free question: the engine's stream (as ``vibecode ask`` sends it); ``cancel()`` stops it."""
        self.cancel_event.clear()
        yield from self.engine.stream(messages, self.params(), n, purpose=CANDIDATE, cancel=self.cancel_event)

    # ---- fixing failing tests ---------------------------------------------------------------

    def _fix_run(self, budget_s: float | None, use_model: bool) -> FixRun:
        from vibecode.fix.pipeline import FixRun

        if self.sandbox is None:
            raise SandboxError("Fixing tests needs a sandbox to run them in.")
        started = time.monotonic()  # loading the model counts against the budget
        self._open_deferred()
        return FixRun(
            engine=self.engine,
            sandbox=self.sandbox,
            params=self.params(),
            helper_params=self.helper_params(),
            budget=Budget(budget_s, self.cancel_event, started),
            n_ctx=self.settings.n_ctx,
            calibration=self.calibration,
            use_model_verdicts=use_model,
        )

    def _open_deferred(self) -> None:
        """Open a deferred engine now, and take its model's manifest and calibration."""
        if isinstance(self.engine, DeferredEngine) and not self.engine.is_open:
            opened = self.engine.opened()
            if self.manifest is None and opened.manifest is not None:
                self.manifest = opened.manifest
                path = calibration_path(opened.manifest)
                self.calibration = Calibration.load(path) if path is not None and path.is_file() else None

    def fix(
        self,
        root: Path,
        *,
        command: SuiteCommand | None = None,
        tests: tuple[str, ...] | None = None,
        n: int | None = None,
        allow_test_edits: bool = False,
        save: bool = True,
        timeout: float = 600.0,
        use_model_checks: bool = True,
    ) -> Iterator[Event]:
        """Fix the failing tests of the working tree at ``root`` (run on an export of it; the
        user's files are never written). The events end with ``FixReady``."""
        from vibecode.fix.pipeline import FixTarget, fix
        from vibecode.fix.snapshot import snapshot
        from vibecode.fix.suite import SuiteCommand

        if self.sandbox is None:
            raise SandboxError("Fixing tests needs a sandbox to run them in.")
        self.cancel_event.clear()
        with snapshot(root, "worktree") as snap:
            target = FixTarget(
                root=snap.root, source=snap.source, base=snap.base, command=command or SuiteCommand(),
                tests=tests, n=n or self.settings.n, allow_test_edits=allow_test_edits, save=save,
                timeout=timeout, label=snap.label,
            )
            yield from fix(self.sandbox, target, lambda: self._fix_run(self.settings.time_budget_s, use_model_checks))

    def precommit(self, root: Path, options: PrecommitOptions | None = None) -> Iterator[Event]:
        """Check the staged changes of the repository at ``root``; the events end with
        ``PrecommitReady``. The model is opened only when a test fails."""
        from vibecode.precommit.check import PrecommitOptions, precommit

        if self.sandbox is None:
            raise SandboxError("The pre-commit check needs a sandbox to run the tests in.")
        self.cancel_event.clear()
        opts = options or PrecommitOptions()
        result = yield from precommit(self.sandbox, root, opts, lambda budget_s: self._fix_run(budget_s, True))
        yield PrecommitReady(result)


def event_json(event: Event) -> dict[str, Any]:
    """A JSON-able form: ``{"event": "<ClassName>", ...fields}``."""
    if isinstance(event, ProposalReady):
        return {"event": "ProposalReady", "result": result_json(event.result)}
    if isinstance(event, (FixReady, PrecommitReady)):
        body = fix_json(event.result) if isinstance(event, FixReady) else precommit_json(event.result)
        return {"event": type(event).__name__, "result": body}
    return {"event": type(event).__name__, **_plain(dataclasses.asdict(event))}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)
