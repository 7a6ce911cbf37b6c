"""What every stage of the solve pipeline shares: the :class:`SolveContext` (engine, sandbox
runner, parameters, budget, what was noted) and :class:`Stage`, which times one stage."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from vibecode.clr.execute import CandidateRunner
from vibecode.clr.score import Calibration
from vibecode.engine.base import Engine
from vibecode.engine.sampling import Budget
from vibecode.events import SampleBudget, StageFinished, StageStarted
from vibecode.types import SamplingParams


@dataclass
class SolveContext:
    engine: Engine
    runner: CandidateRunner | None  # None where no code runs (math mode)
    params: SamplingParams  # for candidates
    helper_params: SamplingParams  # for the oracle, the generator, edge cases and verdicts
    budget: Budget
    calibration: Calibration | None = None
    helper_prefill: str = ""  # the oracle's, generator's and edge cases' assistant prefix (solve/helper_budgets.py)
    use_model_inputs: bool = True
    use_model_verdicts: bool = True
    until: str = "all"  # when to stop sampling (vibecode.solve.streaming)
    streaming: bool = True  # verify candidates as they finish (False: sample all, then verify)
    sampling: dict[str, object] = field(default_factory=dict)  # asked, sampled, until, stopped
    timing: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


class Stage:
    """Times one stage and reports its start and end."""

    def __init__(self, ctx: SolveContext, name: str) -> None:
        self.ctx, self.name = ctx, name
        self.started = time.monotonic()

    def start(self, detail: str = "", sampling: SampleBudget | None = None) -> StageStarted:
        self.started = time.monotonic()
        return StageStarted(self.name, detail, sampling)

    def finish(self) -> StageFinished:
        took = time.monotonic() - self.started
        self.ctx.timing[self.name] = round(self.ctx.timing.get(self.name, 0.0) + took, 3)
        return StageFinished(self.name, took)
