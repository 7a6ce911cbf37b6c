"""Measure a stream as it goes: time to first token, tokens so far, aggregate tokens/s."""

from __future__ import annotations

import time
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
