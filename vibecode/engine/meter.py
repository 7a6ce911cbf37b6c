"""Measure a stream as it goes: time to first token, tokens so far, aggregate tokens/s; the
live rate that progress lines and the TUI show while it goes; and an engine's request counters."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from vibecode.types import SequenceDone, StreamEvent, TokenDelta


@dataclass
class StreamMeter:
    started: float = field(default_factory=time.monotonic)
    first_token_at: float | None = None
    last_event_at: float | None = None
    tokens: dict[int, int] = field(default_factory=dict)  # per sequence
    done: int = 0

    def __call__(self, event: StreamEvent) -> None:
        now = time.monotonic()
        self.last_event_at = now
        if isinstance(event, TokenDelta):
            if self.first_token_at is None:
                self.first_token_at = now
            self.tokens[event.seq] = event.tokens
        elif isinstance(event, SequenceDone):
            self.done += 1
            self.tokens[event.seq] = event.completion.completion_tokens

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens.values())

    @property
    def ttft_s(self) -> float | None:
        return None if self.first_token_at is None else self.first_token_at - self.started

    @property
    def elapsed_s(self) -> float:
        return (self.last_event_at or time.monotonic()) - self.started

    @property
    def tokens_per_s(self) -> float:
        """Aggregate generation rate over all sequences, from the first token on."""
        if self.first_token_at is None or self.last_event_at is None:
            return 0.0
        span = self.last_event_at - self.first_token_at
        return self.total_tokens / span if span > 0 else 0.0


# A rate over less time than this is noise: the first batch of tokens alone would read as
# tens of thousands of tokens per second.
MIN_SPAN_S = 0.25


class Throughput:
    """Measures from the first token seen. The tokens counted by that first observation took
    no time this meter saw, so they are left out of the rate rather than divided by ~0 s."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or time.monotonic
        self.first: tuple[float, int] | None = None  # (when, running total) at the first token
        self.last: tuple[float, int] | None = None

    def observe(self, total_tokens: int) -> None:
        """Record the running total of tokens generated so far."""
        now = self.clock()
        if self.first is None:
            self.first = (now, total_tokens)
        self.last = (now, total_tokens)

    @property
    def started(self) -> bool:
        return self.first is not None

    def rate(self, min_span: float = MIN_SPAN_S) -> float | None:
        """Tokens per second from the first token to the latest; None until the span is
        measurable. A finished stream's rate may pass ``min_span=0``: its span is all there is."""
        if self.first is None or self.last is None:
            return None
        span = self.last[0] - self.first[0]
        if span <= 0 or span < min_span:
            return None
        return (self.last[1] - self.first[1]) / span


@dataclass
class EngineStats:
    """Counters of the last request (and totals), for benchmarks and tests."""

    prompt_tokens: int = 0
    prompt_tokens_evaluated: int = 0
    prompt_tokens_reused: int = 0
    generated_tokens: int = 0
    ttft_s: float = 0.0
    prompt_s: float = 0.0
    decode_s: float = 0.0
    total_prompt_tokens_evaluated: int = 0

    @property
    def tokens_per_s(self) -> float:
        return self.generated_tokens / self.decode_s if self.decode_s > 0 else 0.0
