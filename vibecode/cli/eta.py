"""The remaining sampling time, followed from a session's events for the CLI's progress.

The arithmetic is :func:`vibecode.engine.plan.sampling_left_s`; this only keeps what it needs:
the tokens of each sequence, the finished ones, the sample stage's budget (its
:class:`~vibecode.events.SampleBudget`: K x max_tokens after the plan, and the helper sequences
of the batch) and the run's measured decode steps a second. Where this model's earlier
completions say how long one runs (:mod:`vibecode.engine.lengths`), the likely time is shown
beside the bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vibecode.engine.lengths import likely_left_s
from vibecode.engine.meter import Throughput
from vibecode.engine.plan import (
    helper_tokens_left,
    left_text,
    sampling_left_s,
    tokens_left,
    within_budget,
)
from vibecode.events import CandidateSampled, Event, SampleProgress, StageFinished, StageStarted

ETA_FIELD = "sampling_left_s"  # the field --progress / --json-events add to sampling events
LIKELY_FIELD = "sampling_likely_left_s"  # beside it: the likely time (null where no estimate)


# Asked when sampling starts (the model is open by then): max_tokens, the cached per-K rates and
# the recorded completion lengths (fractions of a budget), or None when there is no time to show
# (a replay engine that samples in no time).
BudgetSource = Callable[[], tuple[int, Mapping[int, float], Sequence[float]] | None]


class SamplingEta:
    def __init__(self, k: int, max_tokens: int | None, rates: Mapping[int, float] | None = None,
                 clock: Callable[[], float] | None = None, budget: BudgetSource | None = None,
                 time_budget_s: float | None = None, seen: Sequence[float] = ()) -> None:
        self.k = k
        self.time_budget_s = time_budget_s  # --time-budget: sampling stops when it runs out
        self.clock = clock or time.monotonic
        self.started = self.clock()
        self.max_tokens = max_tokens
        self.rates = dict(rates or {})
        self.budget = budget
        self.seen = list(seen)  # this model's recorded completion lengths, as fractions of a budget
        self.tokens: dict[int, int] = {}
        self.finished: set[int] = set()
        self.helpers, self.helper_max_tokens = 0, 0  # the batch's helper sequences and their budget
        self.steps = Throughput(clock)  # decode steps: the longest sequence's tokens
        self.sampling = False

    def observe(self, event: Event) -> None:
        if isinstance(event, StageStarted) and event.stage == "sample":
            if self.budget is not None:
                asked = self.budget()
                if asked is None:
                    self.max_tokens, self.rates, self.seen = None, {}, []
                else:
                    self.max_tokens, self.rates, self.seen = asked[0], dict(asked[1]), list(asked[2])
            said = event.sampling
            if said is not None:
                self.k, self.helpers, self.helper_max_tokens = said.candidates, said.helpers, said.helper_max_tokens
                if self.max_tokens is not None:  # None: nothing to time (a free replay)
                    self.max_tokens = said.max_tokens
            self.sampling = True
        elif isinstance(event, StageFinished) and event.stage == "sample":
            self.sampling = False
        elif isinstance(event, SampleProgress):
            self.sampling = True
            self.tokens[event.index] = max(self.tokens.get(event.index, 0), event.tokens)
            self.steps.observe(max(self.tokens.values()))
        elif isinstance(event, CandidateSampled):
            self.finished.add(event.index)
            self.tokens[event.index] = max(self.tokens.get(event.index, 0), event.completion.completion_tokens)
            self.steps.observe(max(self.tokens.values()))

    def left_s(self) -> float | None:
        """Seconds of sampling left at most; None when not sampling or not yet measurable."""
        if not self.sampling or not self.max_tokens:
            return None
        left = tokens_left(self.tokens, self.finished, self.k, self.max_tokens)
        left += helper_tokens_left(self.helpers, self.helper_max_tokens, self.tokens)
        return within_budget(sampling_left_s(left, self.steps.rate(), self.rates), self.time_budget_s,
                             self.clock() - self.started)

    def likely_s(self) -> float | None:
        """The likely seconds of sampling left, from the recorded completion lengths; None where
        they give no estimate below the bound (see :mod:`vibecode.engine.lengths`)."""
        if not self.sampling or not self.max_tokens:
            return None
        helpers = helper_tokens_left(self.helpers, self.helper_max_tokens, self.tokens)
        likely = likely_left_s(self.tokens, self.finished, self.k, self.max_tokens, helpers,
                               self.steps.rate(), self.rates, self.seen)
        return within_budget(likely, self.time_budget_s, self.clock() - self.started)

    def text(self) -> str:
        """"up to 6 min of sampling left" (or "about 2 min (up to 6 min) ..."), or "" while there
        is nothing to say."""
        left = self.left_s()
        return "" if left is None else left_text(left, self.likely_s())

    def annotate(self, event: Event, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` (an event's JSON) with the remaining seconds added to sampling events."""
        self.observe(event)
        if isinstance(event, (SampleProgress, CandidateSampled)):
            left, likely = self.left_s(), self.likely_s()
            return {**body, ETA_FIELD: None if left is None else round(left, 1),
                    LIKELY_FIELD: None if likely is None else round(likely, 1)}
        return body
