"""The one API that the CLI, the TUI and the benchmarks drive: a task in, events out.

A :class:`Session` owns an engine, a sandbox and the settings (passed in, never global). Each
request is a generator of :mod:`vibecode.events`; the last event of a solve is
``ProposalReady`` with the :class:`~vibecode.types.SolveResult`.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from vibecode.clr.execute import CandidateRunner
from vibecode.clr.score import Calibration
from vibecode.config import Settings
from vibecode.engine.base import CANDIDATE, Engine
from vibecode.engine.params import sampling_params
from vibecode.events import Event
from vibecode.models import Manifest
from vibecode.sandbox import Sandbox
from vibecode.tasks.sampling import Budget
from vibecode.tasks.solve import SolveContext, solve
from vibecode.tasks.solve_math import solve_math
from vibecode.types import ChatMessage, MathProblem, Problem, SamplingParams, StreamEvent

HELPER_MAX_TOKENS = 2048  # edge cases and verdicts: short answers after a short think


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

    def _context(self, use_model: bool) -> SolveContext:
        self.cancel_event.clear()
        return SolveContext(
            engine=self.engine,
            runner=CandidateRunner(self.sandbox) if self.sandbox is not None else None,
            params=self.params(),
            helper_params=self.helper_params(),
            budget=Budget(self.settings.time_budget_s, self.cancel_event),
            calibration=self.calibration,
            use_model_inputs=use_model,
            use_model_verdicts=use_model,
        )

    def solve(self, problem: Problem, n: int | None = None, use_model_checks: bool = True) -> Iterator[Event]:
        """Solve a code problem; the events end with ``ProposalReady``."""
        ctx = self._context(use_model_checks)
        try:
            yield from solve(ctx, problem, n or self.settings.n)
        finally:
            if ctx.runner is not None:
                ctx.runner.close()

    def solve_math(self, problem: MathProblem, n: int | None = None) -> Iterator[Event]:
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
