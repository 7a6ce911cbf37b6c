"""The Engine protocol and what every engine shares.

An engine turns a chat into ``n`` completions. ``stream`` is the primitive: it yields
:class:`TokenDelta` events tagged with the sequence number and one :class:`SequenceDone` per
sequence. ``sample`` collects a stream into completions ordered by sequence number.
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from vibecode.engine.text import SequenceText, split_thinking
from vibecode.errors import Cancelled, EngineError
from vibecode.types import (
    ChatMessage,
    Completion,
    EngineInfo,
    FinishReason,
    SamplingParams,
    SequenceDone,
    StreamEvent,
)

# What a request is for. Sampling candidates is "candidate"; other purposes ("verdict",
# "retry", "inputs", ...) are optional model calls that callers may find unanswerable.
CANDIDATE = "candidate"

EventCallback = Callable[[StreamEvent], None]


@runtime_checkable
class Engine(Protocol):
    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]: ...

    def sample(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
        on_event: EventCallback | None = None,
    ) -> list[Completion]: ...

    def count_tokens(self, text: str) -> int: ...

    def info(self) -> EngineInfo: ...

    def close(self) -> None: ...


class StreamingEngine(ABC):
    """Base for engines: ``sample`` in terms of ``stream``."""

    @abstractmethod
    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]: ...

    @abstractmethod
    def count_tokens(self, text: str) -> int: ...

    @abstractmethod
    def info(self) -> EngineInfo: ...

    def sample(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
        on_event: EventCallback | None = None,
    ) -> list[Completion]:
        events = self.stream(messages, params, n, purpose=purpose, cancel=cancel)
        completions = collect(events, on_event)
        if cancel is not None and cancel.is_set():
            raise Cancelled("Cancelled.")
        return completions

    def close(self) -> None:
        return None


def collect(
    events: Iterable[StreamEvent], on_event: EventCallback | None = None
) -> list[Completion]:
    """Drain a stream; return the completions ordered by sequence number."""
    done: dict[int, Completion] = {}
    for event in events:
        if on_event is not None:
            on_event(event)
        if isinstance(event, SequenceDone):
            done[event.seq] = event.completion
    return [done[k] for k in sorted(done)]


def sequence_seeds(params: SamplingParams, n: int) -> list[int]:
    """One seed per sequence: ``seed + i`` when a seed is given, random otherwise."""
    if n < 1:
        raise EngineError(f"Asked for {n} completions; n must be at least 1.")
    base = params.seed if params.seed is not None else random.SystemRandom().randrange(2**31)
    return [(base + i) % 2**32 for i in range(n)]


def make_completion(
    seq: int,
    state: SequenceText,
    finish_reason: FinishReason,
    prompt_tokens: int,
    seed: int | None,
    duration_s: float,
    logprob: float | None = None,
) -> Completion:
    reasoning, answer = split_thinking(state.text)
    return Completion(
        text=state.text,
        reasoning=reasoning,
        answer=answer,
        finish_reason=finish_reason,
        prompt_tokens=prompt_tokens,
        completion_tokens=state.tokens,
        reasoning_tokens=state.think_tokens,
        logprob=logprob,
        seed=seed,
        budget_forced=state.budget_forced,
        seq=seq,
        duration_s=duration_s,
    )
