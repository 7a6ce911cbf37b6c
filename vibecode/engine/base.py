"""The Engine protocol and what every engine shares.

An engine turns a chat into ``n`` completions. ``stream`` is the primitive: it yields
:class:`TokenDelta` events tagged with the sequence number and one :class:`SequenceDone` per
sequence. ``sample`` collects a stream into completions ordered by sequence number.

``stream_batch`` runs several requests (different prompts, parameters and purposes: the K
candidates and the helper requests of a solve) at once, and tags each event with the index of
its request. An engine that decodes sequences in one batch (llama.cpp) overrides it so that all
requests share one batch and their common prompt prefix; the default here runs each request's
``stream`` on its own thread and merges the events, which is what a remote server or a paced
replay needs.
"""

from __future__ import annotations

import dataclasses
import queue
import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from vibecode.engine.text import SequenceText, split_thinking
from vibecode.errors import Cancelled, EngineError
from vibecode.types import (
    ChatMessage,
    Completion,
    EngineInfo,
    FinishReason,
    RequestFailed,
    SamplingParams,
    SequenceDone,
    StreamEvent,
)

# What a request is for. Sampling candidates is "candidate"; other purposes ("verdict",
# "retry", "inputs", ...) are optional model calls that callers may find unanswerable.
CANDIDATE = "candidate"

EventCallback = Callable[[StreamEvent], None]


@dataclass(frozen=True)
class Request:
    """One request of a batch: ``n`` completions of ``messages`` for ``purpose``."""

    messages: Sequence[ChatMessage]
    params: SamplingParams
    n: int = 1
    purpose: str = CANDIDATE


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

    def stream_batch(
        self, requests: Sequence[Request], *, cancel: threading.Event | None = None
    ) -> Iterator[StreamEvent]: ...

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

    def stream_batch(
        self, requests: Sequence[Request], *, cancel: threading.Event | None = None
    ) -> Iterator[StreamEvent]:
        """Each request's ``stream`` on its own thread, events merged as they come, each tagged
        with its request's index. A request that fails with an :class:`EngineError` ends in one
        :class:`RequestFailed`; the others go on. Leaving the iterator early cancels them all."""
        return merged_streams(self, requests, cancel)

    def close(self) -> None:
        return None


def merged_streams(
    engine: Engine, requests: Sequence[Request], cancel: threading.Event | None = None
) -> Iterator[StreamEvent]:
    """``stream_batch`` for an engine that serves requests one ``stream`` at a time."""
    stop = threading.Event()
    events: queue.Queue[StreamEvent | BaseException | None] = queue.Queue()

    def pump(index: int, request: Request) -> None:
        try:
            for event in engine.stream(request.messages, request.params, request.n,
                                       purpose=request.purpose, cancel=stop):
                events.put(dataclasses.replace(event, request=index))
                if stop.is_set():
                    break
        except EngineError as exc:
            events.put(RequestFailed(index, exc.message, exc))
        except BaseException as exc:  # a bug, not an answer: raised in the consumer's thread
            events.put(exc)
        finally:
            events.put(None)

    threads = [threading.Thread(target=pump, args=(i, r), daemon=True, name=f"request-{i}")
               for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            try:
                event = events.get(timeout=0.05)
            except queue.Empty:
                if cancel is not None and cancel.is_set():
                    stop.set()
                continue
            if cancel is not None and cancel.is_set():
                stop.set()
            if event is None:
                running -= 1
            elif isinstance(event, BaseException):
                raise event
            else:
                yield event
    finally:
        stop.set()
        for thread in threads:
            thread.join()


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
