"""An engine that opens its model on first use.

``vibecode fix`` and ``vibecode precommit`` need a model only when tests fail; loading one takes
seconds (and may fail: no model installed). :class:`DeferredEngine` stands in for the engine
until a request needs it, so that a passing run never pays for, or trips over, the model.
An error from opening is raised again on every later use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence

from vibecode.engine.base import CANDIDATE, EventCallback, Request
from vibecode.engine.spec import OpenedEngine
from vibecode.errors import VibecodeError
from vibecode.types import ChatMessage, Completion, EngineInfo, SamplingParams, StreamEvent


class DeferredEngine:
    def __init__(self, opener: Callable[[], OpenedEngine]) -> None:
        self._opener = opener
        self._opened: OpenedEngine | None = None
        self._error: VibecodeError | None = None
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self._opened is not None

    def opened(self) -> OpenedEngine:
        """Open the engine (once); raise the opening error again if it failed."""
        with self._lock:
            if self._opened is not None:
                return self._opened
            if self._error is not None:
                raise self._error
            try:
                self._opened = self._opener()
            except VibecodeError as exc:
                self._error = exc
                raise
            return self._opened

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        return self.opened().engine.stream(messages, params, n, purpose=purpose, cancel=cancel)

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
        return self.opened().engine.sample(messages, params, n, purpose=purpose, cancel=cancel, on_event=on_event)

    def stream_batch(
        self, requests: Sequence[Request], *, cancel: threading.Event | None = None
    ) -> Iterator[StreamEvent]:
        return self.opened().engine.stream_batch(requests, cancel=cancel)

    @property
    def tps(self) -> float | None:
        """The opened engine's pace (a paced replay's tokens/s), so that it is timed as one."""
        return getattr(self.opened().engine, "tps", None)

    def count_tokens(self, text: str) -> int:
        return self.opened().engine.count_tokens(text)

    def info(self) -> EngineInfo:
        return self.opened().engine.info()

    def close(self) -> None:
        if self._opened is not None:
            self._opened.engine.close()
