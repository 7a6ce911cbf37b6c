"""Helpers for the TUI tests: a replay engine that pauses after N stream events, and waiting."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from textual.pilot import Pilot

from vibecode.config import Settings
from vibecode.engine.base import CANDIDATE, StreamingEngine
from vibecode.engine.replay import ReplayEngine
from vibecode.engine.spec import OpenedEngine
from vibecode.tui.state import RunState
from vibecode.types import ChatMessage, EngineInfo, SamplingParams, StreamEvent, TokenDelta

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
GATE_LIMIT_S = 60.0  # a gate never holds longer than this, so a broken test cannot hang


class GatedEngine(StreamingEngine):
    """Serves a replay file, but stops after ``after`` events of the first candidate request:
    it then sends empty heartbeat tokens (which change nothing on screen) until ``release`` is
    set or the caller cancels. Deterministic "mid-sampling" states, and a run to cancel."""

    def __init__(self, path: Path, after: int) -> None:
        self.inner = ReplayEngine(path)
        self.after = after
        self.reached = threading.Event()
        self.release = threading.Event()
        self.stopped_early = threading.Event()  # cancelled or closed before the end
        self.held: TokenDelta | None = None  # the last token event sent before the gate

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        count = 0
        last: TokenDelta | None = None
        finished = False
        try:
            for event in self.inner.stream(messages, params, n, purpose=purpose, cancel=cancel):
                if purpose == CANDIDATE and count == self.after and not self.reached.is_set():
                    self.held = last
                    self.reached.set()
                    held = time.monotonic()
                    while not self.release.wait(0.02):
                        if cancel is not None and cancel.is_set():
                            return
                        if time.monotonic() - held > GATE_LIMIT_S:
                            break
                        if last is not None:
                            yield TokenDelta(last.seq, "", last.tokens, last.phase)
                count += 1
                if isinstance(event, TokenDelta):
                    last = event
                yield event
            finished = not (cancel is not None and cancel.is_set())
        finally:
            if not finished:
                self.stopped_early.set()

    def shown(self, state: RunState) -> bool:
        """Whether ``state`` has folded in every event sent before the gate."""
        held = self.held
        if held is None:
            return False
        row = state.candidates.get(held.seq)
        return row is not None and row.tokens == held.tokens and row.phase == held.phase

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def info(self) -> EngineInfo:
        return self.inner.info()


def fixed_factory(engine: StreamingEngine) -> Callable[[Settings], OpenedEngine]:
    return lambda settings: OpenedEngine(engine, None, None)


async def wait_for(pilot: Pilot[object], predicate: Callable[[], bool], timeout: float = 30.0,
                   what: str = "the condition") -> None:
    """Let the app run until ``predicate()`` holds; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)
    await pilot.pause()
