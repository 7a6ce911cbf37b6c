"""Sampling for the pipelines: K candidates in waves that fit the context, with a time budget,
as session events; and the optional single model calls (edge cases, verdicts)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Protocol

from vibecode.engine.base import CANDIDATE, Engine, Request
from vibecode.errors import Cancelled, ContextOverflow, EngineError, ModelUnavailable
from vibecode.events import CandidateSampled, Event, SampleProgress, StepUnavailable
from vibecode.types import (
    ChatMessage,
    Completion,
    RequestFailed,
    SamplingParams,
    SequenceDone,
    TokenDelta,
)

# Told when helper request ``h`` (0-based, in the order given) finished: its completion, or None
# and why not; returns the events to report.
HelperDone = Callable[[int, Completion | None, str], Sequence[Event]]


@dataclass
class Budget:
    """A wall-clock budget for one request, and the user's cancel button."""

    seconds: float | None = None
    cancel: threading.Event = dataclasses.field(default_factory=threading.Event)
    started: float = dataclasses.field(default_factory=time.monotonic)

    @property
    def exhausted(self) -> bool:
        over = self.seconds is not None and time.monotonic() - self.started > self.seconds
        return over or self.cancel.is_set()

    def check_cancelled(self) -> None:
        if self.cancel.is_set():
            raise Cancelled("Cancelled.")


class EarlyStop(Protocol):
    """Told of each finished candidate; says why sampling may stop (None: go on)."""

    def add(self, completion: Completion) -> None: ...

    def should_stop(self, force: bool = False) -> str | None: ...


def sample_candidates(
    engine: Engine,
    messages: Sequence[ChatMessage],
    params: SamplingParams,
    n: int,
    budget: Budget,
    early: EarlyStop | None = None,
) -> Generator[Event, None, list[Completion]]:
    """Sample ``n`` candidates, yielding progress; return them in sampling order.

    When the engine says that ``n`` sequences do not fit its context, sample in waves of the
    largest number that does. When the time budget runs out, stop and keep what finished; so
    too when ``early`` says more candidates cannot change the decision.
    """
    stopped: str | None = None
    done: list[Completion] = []
    wave = n
    while len(done) < n and not budget.exhausted:
        size = min(wave, n - len(done))
        offset = len(done)
        seed = None if params.seed is None else params.seed + offset
        wave_params = dataclasses.replace(params, seed=seed)
        finished: dict[int, Completion] = {}
        stop = threading.Event()
        stream = engine.stream(messages, wave_params, size, purpose=CANDIDATE, cancel=stop)
        try:
            for event in stream:
                if budget.exhausted:
                    stop.set()
                if isinstance(event, TokenDelta):
                    yield SampleProgress(offset + event.seq, event.text, event.tokens, event.phase,
                                         event.budget_forced)
                elif isinstance(event, SequenceDone) and event.completion.finish_reason != "cancelled":
                    completion = dataclasses.replace(event.completion, seq=offset + event.seq)
                    finished[event.seq] = completion
                    if early is not None:
                        early.add(completion)
                    yield CandidateSampled(offset + event.seq, completion)
                if early is not None and not stop.is_set() and len(done) + len(finished) < n:
                    stopped = early.should_stop(isinstance(event, SequenceDone))
                    if stopped:
                        stop.set()
        except ContextOverflow as exc:
            largest = int(getattr(exc, "max_n", 0))
            if largest < 1 or largest >= size:
                raise
            wave = largest
            continue
        finally:
            stream.close()  # type: ignore[attr-defined]
        done += [finished[i] for i in sorted(finished)]
        if len(finished) < size or stopped:
            break  # stopped early: keep what finished
    budget.check_cancelled()
    if len(done) < n and not stopped:
        yield StepUnavailable("sample", f"the time budget ran out after {len(done)} of {n} candidates")
    return done


def sample_batch(
    engine: Engine,
    messages: Sequence[ChatMessage],
    params: SamplingParams,
    n: int,
    budget: Budget,
    helpers: Sequence[Request],
    on_helper: HelperDone,
    early: EarlyStop | None = None,
) -> Generator[Event, None, list[Completion]]:
    """Sample ``n`` candidates and the ``helpers`` requests in one ``stream_batch``, yielding
    progress; return the candidates in sampling order. Each helper's one completion (or its
    failure: a ``RequestFailed``, or cancelled by an early stop or the time budget) goes to
    ``on_helper`` as it comes. Raises :class:`ContextOverflow` when the batch does not fit (the
    caller then falls back to separate requests); any other failure of the candidates' request is
    raised as it is."""
    stop = threading.Event()
    requests = [Request(messages, params, n, CANDIDATE), *helpers]
    finished: dict[int, Completion] = {}
    waiting = set(range(len(helpers)))
    stopped: str | None = None
    stream = engine.stream_batch(requests, cancel=stop)
    try:
        for event in stream:
            if budget.exhausted:
                stop.set()
            if event.request > 0:
                h = event.request - 1
                if isinstance(event, (SequenceDone, RequestFailed)) and h in waiting:
                    waiting.discard(h)
                    if isinstance(event, RequestFailed):
                        yield from on_helper(h, None, event.message)
                    elif event.completion.finish_reason == "cancelled":
                        yield from on_helper(h, None, "it was cancelled")
                    else:
                        yield from on_helper(h, event.completion, "")
            elif isinstance(event, RequestFailed):
                raise event.error if isinstance(event.error, EngineError) else EngineError(event.message)
            elif isinstance(event, TokenDelta):
                yield SampleProgress(event.seq, event.text, event.tokens, event.phase, event.budget_forced)
            elif event.completion.finish_reason != "cancelled":
                completion = dataclasses.replace(event.completion, seq=event.seq)
                finished[event.seq] = completion
                if early is not None:
                    early.add(completion)
                yield CandidateSampled(event.seq, completion)
            if early is not None and not stop.is_set() and len(finished) < n:
                stopped = early.should_stop(isinstance(event, (SequenceDone, RequestFailed)))
                if stopped:
                    stop.set()
    finally:
        stream.close()  # type: ignore[attr-defined]
    for h in sorted(waiting):
        yield from on_helper(h, None, "sampling stopped before it finished")
    budget.check_cancelled()
    if len(finished) < n and not stopped:
        yield StepUnavailable("sample", f"the time budget ran out after {len(finished)} of {n} candidates")
    return [finished[i] for i in sorted(finished)]


def ask_model(
    engine: Engine, messages: Sequence[ChatMessage], params: SamplingParams, purpose: str
) -> str | None:
    """One optional model call; None when the engine cannot answer (the step is then skipped)."""
    try:
        [completion] = engine.sample(messages, params, 1, purpose=purpose)
    except ModelUnavailable:
        return None
    except EngineError:
        return None
    return completion.answer
