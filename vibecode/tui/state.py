"""What the run view shows, as plain data: session events folded into per-candidate rows.

Nothing here imports textual; the widgets read a :class:`RunState` and the app feeds it the
events that the worker thread sends (:meth:`RunState.apply`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from vibecode.engine.lengths import likely_left_s
from vibecode.engine.meter import Throughput
from vibecode.engine.plan import helper_tokens_left, sampling_left_s, tokens_left, within_budget
from vibecode.engine.text import THINK_OPEN, ThinkSplitter
from vibecode.events import (
    STAGES,
    CandidateParsed,
    CandidateSampled,
    CandidateTested,
    ClaimsChecked,
    Event,
    InputsReady,
    ProposalReady,
    SampleProgress,
    StageFinished,
    StageStarted,
    StepUnavailable,
)
from vibecode.types import Claim, ExampleResult, Phase, SolveResult

Clock = Callable[[], float]
RunStatus = Literal["starting", "running", "done", "cancelled", "failed"]
REASONING_TAIL = 6000  # characters of reasoning kept on screen per candidate
MATH_STAGES = ("sample", "claims")
FINAL_MIN_SPAN_S = 0.05  # a finished sampling span shorter than this gives no honest tokens/s


@dataclass
class CandidateRow:
    index: int
    tokens: int = 0
    phase: Phase | None = None  # None until the first token
    finished: bool = False
    budget_forced: bool = False
    finish_reason: str | None = None
    reasoning: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    splitter: ThinkSplitter | None = None  # removes the think tags from the streamed text
    parsed: bool | None = None  # None until extraction ran
    duplicate_of: int | None = None
    error: str | None = None
    examples: tuple[ExampleResult, ...] | None = None
    inputs_run: int = 0
    failures: int = 0
    claims: tuple[Claim, ...] | None = None
    r: float | None = None
    cluster: int | None = None
    stopped: bool = False  # the run ended (cancelled, failed) before this candidate finished

    @property
    def state(self) -> str:
        """waiting, thinking, answering, done, budget-forced or stopped."""
        if self.stopped and not self.finished:
            return "stopped"
        if self.finished:
            if self.finish_reason == "length":
                return "cut off"
            return "budget-forced" if self.budget_forced else "done"
        if self.phase is None:
            return "waiting"
        if self.budget_forced:
            return "budget-forced"
        return "thinking" if self.phase == "thinking" else "answering"

    def feed(self, text: str, phase: Phase) -> None:
        if self.splitter is None:
            self.splitter = ThinkSplitter()
            if phase == "thinking" and THINK_OPEN not in text:  # the prompt opened the think block
                self.splitter.phase = "thinking"
        for part_phase, part in self.splitter.feed(text):
            (self.reasoning if part_phase == "thinking" else self.answer).append(part)

    def close(self) -> None:
        """The sequence ended: text held back as a possible partial tag is shown."""
        if self.splitter is not None:
            for part_phase, part in self.splitter.flush():
                (self.reasoning if part_phase == "thinking" else self.answer).append(part)
            self.splitter = None

    def reasoning_text(self) -> str:
        return "".join(self.reasoning)[-REASONING_TAIL:].strip()

    def answer_text(self) -> str:
        return "".join(self.answer)[-REASONING_TAIL:].strip()


class RunState:
    """Everything the run view shows about one solve."""

    def __init__(self, n: int, clock: Clock = time.monotonic, mode: str = "code") -> None:
        self.n = n
        self.mode = mode
        self.stages: tuple[str, ...] = STAGES[1:] if mode == "code" else MATH_STAGES
        self.clock = clock
        self.started = clock()
        self.status: RunStatus = "starting"
        self.stage: str | None = None
        self.stage_detail = ""
        self.stages_done: dict[str, float] = {}
        self.candidates: dict[int, CandidateRow] = {i: CandidateRow(i) for i in range(n)}
        self.max_tokens = 0
        self.k = n  # the sample stage's K: the plan may lower the one asked for
        self.helpers, self.helper_max_tokens = 0, 0  # helper sequences in the batch and their budget
        self.plan_rates: Mapping[int, float] = {}  # cached tokens/s per K of this model and backend
        self.seen: Sequence[float] = ()  # its recorded completion lengths (fractions of a budget)
        self.time_budget_s: float | None = None  # --time-budget of a solve: sampling stops there
        self.budget_started = self.started  # when the session's budget started (the run began)
        self.prompt_tokens = 0
        self.n_ctx = 0
        self.meter = Throughput(clock)
        self.steps = Throughput(clock)  # decode steps: the longest sequence's tokens (for the time left)
        self.sampling_rate: float | None = None  # frozen once sampling ended
        self.inputs: dict[str, int] = {}
        self.notes: list[str] = []
        self.result: SolveResult | None = None
        self.error: str | None = None
        self.ended_at: float | None = None

    # -- feeding -------------------------------------------------------------------------

    def apply_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.apply(event)

    def apply(self, event: Event) -> None:
        if self.status == "starting":
            self.status = "running"
        if isinstance(event, SampleProgress):
            self._progress(event)
        elif isinstance(event, CandidateSampled):
            row = self.row(event.index)
            c = event.completion
            row.finished, row.finish_reason = True, c.finish_reason
            row.tokens = max(row.tokens, c.completion_tokens)
            self.steps.observe(max(r.tokens for r in self.candidates.values()))
            row.budget_forced = row.budget_forced or c.budget_forced
            if row.splitter is not None:
                row.close()
            elif not row.reasoning and not row.answer:  # an engine that does not stream
                row.reasoning, row.answer = [c.reasoning], [c.answer]
        elif isinstance(event, StageStarted):
            self.stage, self.stage_detail = event.stage, event.detail
            said = event.sampling if event.stage == "sample" else None
            if said is not None:  # the sample stage's budget, after the plan
                self.k, self.max_tokens = said.candidates, said.max_tokens
                self.helpers, self.helper_max_tokens = said.helpers, said.helper_max_tokens
        elif isinstance(event, StageFinished):
            self.stages_done[event.stage] = event.duration_s
            if event.stage == "sample":  # sampling is over: its whole span is the measure, unless it
                # took no measurable time (the replay engine), which would read as 100,000s of tokens/s
                self.sampling_rate = self.meter.rate(min_span=FINAL_MIN_SPAN_S)
        elif isinstance(event, CandidateParsed):
            row = self.row(event.index)
            row.parsed, row.duplicate_of, row.error = event.parsed, event.duplicate_of, event.error
        elif isinstance(event, InputsReady):
            self.inputs = dict(event.counts)
        elif isinstance(event, CandidateTested):
            row = self.row(event.index)
            row.examples, row.inputs_run, row.failures = event.examples, event.inputs_run, event.failures
        elif isinstance(event, ClaimsChecked):
            row = self.row(event.index)
            row.claims, row.r = event.claims, event.r
        elif isinstance(event, StepUnavailable):
            self.notes.append(event.reason)
        elif isinstance(event, ProposalReady):
            self.finish(event.result)

    def _progress(self, event: SampleProgress) -> None:
        row = self.row(event.index)
        row.tokens = max(row.tokens, event.tokens)
        self.meter.observe(self.total_tokens)
        self.steps.observe(max(r.tokens for r in self.candidates.values()))
        row.phase = event.phase
        row.budget_forced = row.budget_forced or event.budget_forced
        if event.text:
            row.feed(event.text, event.phase)

    def row(self, index: int) -> CandidateRow:
        if index not in self.candidates:  # more than asked for: grow the table
            self.candidates[index] = CandidateRow(index)
        return self.candidates[index]

    def finish(self, result: SolveResult) -> None:
        self.result = result
        self.status = "done"
        self.ended_at = self.clock()
        for report in result.candidates:
            row = self.row(report.index)
            row.cluster = report.cluster
            if report.r is not None:
                row.r = report.r
            if row.parsed is None:
                row.parsed, row.duplicate_of, row.error = report.parsed, report.duplicate_of, report.error

    def stop(self, status: RunStatus, error: str | None = None) -> None:
        if self.status in ("done", "cancelled", "failed"):
            return
        self.status, self.error = status, error
        self.ended_at = self.clock()
        for row in self.candidates.values():
            row.stopped = not row.finished

    # -- figures -------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.status in ("starting", "running")

    @property
    def total_tokens(self) -> int:
        return sum(r.tokens for r in self.candidates.values())

    @property
    def sampled(self) -> int:
        return sum(r.finished for r in self.candidates.values())

    def tokens_per_s(self) -> float | None:
        """Aggregate generation rate, from the first token to the latest (None until measurable)."""
        if self.sampling_rate is not None:
            return self.sampling_rate
        return self.meter.rate()

    def _sequences(self) -> tuple[dict[int, int], set[int]] | None:
        """The tokens of each candidate heard from and the finished ones, while sampling."""
        if not self.running or self.stage != "sample" or "sample" in self.stages_done or self.max_tokens <= 0:
            return None
        tokens = {i: r.tokens for i, r in self.candidates.items() if r.phase is not None or r.finished}
        return tokens, {i for i, r in self.candidates.items() if r.finished}

    def sampling_left_s(self) -> float | None:
        """Seconds of sampling left at most, while sampling and once the rate is measurable: every
        open sequence may still use its whole budget (:func:`vibecode.engine.plan.sampling_left_s`)."""
        if (seqs := self._sequences()) is None:
            return None
        tokens, finished = seqs
        left = (tokens_left(tokens, finished, self.k, self.max_tokens)
                + helper_tokens_left(self.helpers, self.helper_max_tokens, tokens))
        left_s = sampling_left_s(left, self.steps.rate(), self.plan_rates)
        return within_budget(left_s, self.time_budget_s, self.clock() - self.budget_started)

    def likely_left_s(self) -> float | None:
        """The likely seconds of sampling left, from this model's recorded completion lengths
        (:func:`vibecode.engine.lengths.likely_left_s`); None where they give no estimate."""
        if (seqs := self._sequences()) is None:
            return None
        tokens, finished = seqs
        helpers = helper_tokens_left(self.helpers, self.helper_max_tokens, tokens)
        likely = likely_left_s(tokens, finished, self.k, self.max_tokens, helpers, self.steps.rate(),
                               self.plan_rates, self.seen)
        return within_budget(likely, self.time_budget_s, self.clock() - self.budget_started)

    @property
    def context_used(self) -> int:
        """Tokens of the batch: the prompt once plus every sequence's (the engine also copies the
        prompt into each sequence's KV stream; engine/llama_context.py)."""
        return self.prompt_tokens + self.total_tokens

    def elapsed(self) -> float:
        return (self.ended_at if self.ended_at is not None else self.clock()) - self.started

    def stage_marks(self) -> list[tuple[str, str]]:
        """(stage, "done" | "active" | "pending") for each pipeline stage after the prompt."""
        marks = []
        for stage in self.stages:
            if stage in self.stages_done:
                marks.append((stage, "done"))
            elif stage == self.stage and self.running:
                marks.append((stage, "active"))
            else:
                marks.append((stage, "pending"))
        return marks
