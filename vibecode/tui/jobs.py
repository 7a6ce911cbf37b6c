"""What the TUI's worker threads do: open the engine, drive a Session, pull a model.

These functions block and run in Textual thread workers; they never touch a widget. They report
through an ``emit`` callback with the plain updates defined here, which the app wraps into Textual
messages. Nothing here imports textual, so the same code is testable without an app.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from vibecode.config import Settings
from vibecode.engine import lengths
from vibecode.engine.plan import load_rates, model_key
from vibecode.engine.spec import OpenedEngine, make_engine
from vibecode.errors import Cancelled, VibecodeError
from vibecode.events import Event, ProposalReady, SampleProgress
from vibecode.sandbox import Sandbox, make_sandbox
from vibecode.session import Session
from vibecode.types import (
    ChatMessage,
    Completion,
    EngineInfo,
    FixResult,
    MathProblem,
    Problem,
    SequenceDone,
    SolveResult,
    StreamEvent,
)

log = logging.getLogger(__name__)

EngineFactory = Callable[[Settings], OpenedEngine]
BATCH_S = 0.1  # token events are sent to the UI at most this often (10 updates per second)
BACKGROUND_NICE = 5  # how much a worker thread (and the engine threads it starts) yields to the UI


def yield_to_the_ui() -> None:
    """Lower this worker thread's scheduling priority, so that the model's threads (which inherit
    it where the engine starts them from this thread) never crowd out the UI's event loop. Linux
    gives each thread its own nice value; elsewhere this does nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        current = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, max(current, BACKGROUND_NICE)))
    except (OSError, AttributeError):
        return


@dataclass(frozen=True)
class Task:
    """A request from the start screen: a code problem or a math question, as text."""

    kind: Literal["code", "math"]
    text: str
    source: Path | None = None  # the file it came from


# -- updates sent to the UI ----------------------------------------------------------------


@dataclass(frozen=True)
class EngineReady:
    info: EngineInfo
    notice: str | None


@dataclass(frozen=True)
class RunStarted:
    title: str
    mode: str
    prompt_tokens: int
    max_tokens: int
    info: EngineInfo
    plan_rates: Mapping[int, float] = field(default_factory=dict)  # cached tokens/s per K (for the ETA)
    seen: tuple[float, ...] = ()  # recorded completion lengths, fractions of a budget (the likely ETA)


def cached_rates(info: EngineInfo) -> dict[int, float]:
    """This model's measured tokens/s per K on this machine (engine/plan.py's cache)."""
    return load_rates(model_key(info.model, info.backend))


def cached_lengths(info: EngineInfo) -> tuple[float, ...]:
    """How long this model's completions ran on this machine (engine/lengths.py's cache)."""
    return tuple(lengths.load(model_key(info.model, info.backend)))


@dataclass(frozen=True)
class RunEvents:
    events: tuple[Event, ...]


@dataclass(frozen=True)
class RunEnded:
    result: SolveResult | None = None
    cancelled: bool = False
    error: VibecodeError | None = None
    crash: str | None = None  # an unexpected exception, in one line


@dataclass(frozen=True)
class FixEnded:
    """The end of a fix run (:mod:`vibecode.tui.fix.jobs`): the result, or why there is none."""

    result: FixResult | None = None
    cancelled: bool = False
    error: VibecodeError | None = None
    crash: str | None = None


@dataclass(frozen=True)
class AskEvents:
    events: tuple[StreamEvent, ...]


@dataclass(frozen=True)
class AskEnded:
    completion: Completion | None = None
    cancelled: bool = False
    error: VibecodeError | None = None
    crash: str | None = None


@dataclass(frozen=True)
class PullProgress:
    done: int
    total: int | None


@dataclass(frozen=True)
class PullEnded:
    path: Path | None = None
    error: VibecodeError | None = None
    crash: str | None = None


Update = (EngineReady | RunStarted | RunEvents | RunEnded | FixEnded | AskEvents | AskEnded | PullProgress
          | PullEnded)
Emit = Callable[[Update], None]


# -- holders -------------------------------------------------------------------------------


def engine_key(settings: Settings) -> tuple[object, ...]:
    return (settings.engine, settings.model, settings.n_ctx, settings.n_gpu_layers, settings.n_threads,
            settings.record)


def tui_engine_settings(settings: Settings, cpus: int | None = None) -> Settings:
    """The settings the TUI opens its engine with: unless ``n_threads`` is set, llama.cpp decodes
    on all cores but ``tui_reserved_cores``, so that the event loop keeps a core and keys are
    answered while the model samples (scripts/bench_tui.py measures it under load)."""
    if settings.n_threads is not None or settings.tui_reserved_cores <= 0:
        return settings
    cores = cpus if cpus is not None else (os.cpu_count() or 1)
    return settings.with_overrides(n_threads=max(1, cores - settings.tui_reserved_cores))


class EngineHolder:
    """Opens the engine once and keeps it for the runs that follow, until the settings name
    another one. Thread-safe: workers call :meth:`get`."""

    def __init__(self, factory: EngineFactory = make_engine) -> None:
        self.factory = factory
        self._lock = threading.Lock()
        self._key: tuple[object, ...] | None = None
        self._opened: OpenedEngine | None = None

    def get(self, settings: Settings) -> OpenedEngine:
        key = engine_key(settings)
        with self._lock:
            if self._opened is None or self._key != key:
                self._close_locked()
                self._opened = self.factory(tui_engine_settings(settings))
                self._key = key
            return self._opened

    def close(self) -> None:
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        if self._opened is not None:
            try:
                self._opened.engine.close()
            finally:
                self._opened, self._key = None, None


class SandboxHolder:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[object, ...] | None = None
        self._sandbox: Sandbox | None = None

    def get(self, settings: Settings) -> Sandbox:
        key = (settings.sandbox, settings.docker_image, settings.sandbox_dir)
        with self._lock:
            if self._sandbox is None or self._key != key:
                self._sandbox = make_sandbox(settings.sandbox, settings)
                self._key = key
            return self._sandbox


# -- runs ----------------------------------------------------------------------------------


class Run:
    """One request in flight: its session (once made) and the user's cancel button."""

    def __init__(self, task: Task | None, n: int) -> None:
        self.task = task
        self.n = n
        self.cancel_requested = threading.Event()
        self.session: Session | None = None
        self.finished = threading.Event()

    def cancel(self) -> None:
        """Ask the run to stop (any thread): the engine stops at its next token."""
        self.cancel_requested.set()
        session = self.session
        if session is not None:
            session.cancel()

    @property
    def cancelled(self) -> bool:
        return self.cancel_requested.is_set()


class Batcher:
    """Collects events and sends them in batches: token events at most every ``interval``
    seconds, anything else at once (after the tokens before it)."""

    def __init__(self, send: Callable[[tuple[Event, ...]], None], interval: float = BATCH_S) -> None:
        self.send = send
        self.interval = interval
        self.buffer: list[Event] = []
        self.last = time.monotonic()

    def add(self, event: Event) -> None:
        self.buffer.append(event)
        if not isinstance(event, SampleProgress) or time.monotonic() - self.last >= self.interval:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            batch, self.buffer = tuple(self.buffer), []
            self.send(batch)
        self.last = time.monotonic()


def open_engine(engines: EngineHolder, settings: Settings, emit: Emit) -> OpenedEngine | None:
    """Open (or reuse) the engine and report it; an error is reported, not raised."""
    yield_to_the_ui()
    try:
        opened = engines.get(settings)
        emit(EngineReady(opened.engine.info(), opened.notice))
        return opened
    except VibecodeError as exc:
        emit(RunEnded(error=exc))
    except Exception as exc:  # a bug must not take the app down
        log.exception("opening the engine failed")
        emit(RunEnded(crash=one_line(exc)))
    return None


def solve(run: Run, settings: Settings, engines: EngineHolder, sandboxes: SandboxHolder, emit: Emit) -> None:
    """Parse the task, run the session and send its events; always ends with :class:`RunEnded`."""
    from vibecode.problems.math import parse_math
    from vibecode.problems.statement import parse_problem
    from vibecode.solve.prompts import math_messages, solve_messages

    task = run.task
    assert task is not None
    yield_to_the_ui()
    try:
        problem: Problem | None = None
        math: MathProblem | None = None
        if task.kind == "code":
            problem = parse_problem(task.text)
            messages, title = solve_messages(problem), problem.title
        else:
            math = parse_math(task.text)
            messages, title = math_messages(math), math.title
        opened = engines.get(settings)
        info = opened.engine.info()
        emit(EngineReady(info, opened.notice))
        sandbox = sandboxes.get(settings) if problem is not None else None
        session = Session(opened.engine, sandbox, settings, opened.manifest)
        run.session = session
        prompt = opened.engine.count_tokens("\n".join(m.content for m in messages))
        emit(RunStarted(title, task.kind, prompt, session.params().max_tokens, info, cached_rates(info),
                        cached_lengths(info)))
        if problem is not None:
            events = session.solve(problem, run.n)
        else:
            assert math is not None
            events = session.solve_math(math, run.n)
        last = drive(run, events, emit)
        result = last.result if isinstance(last, ProposalReady) else None
        emit(RunEnded(cancelled=True) if run.cancelled else RunEnded(result=result))
    except Cancelled:
        emit(RunEnded(cancelled=True))
    except VibecodeError as exc:
        emit(RunEnded(cancelled=True) if run.cancelled else RunEnded(error=exc))
    except Exception as exc:
        log.exception("the run failed")
        emit(RunEnded(crash=one_line(exc)))
    finally:
        run.finished.set()


def drive(run: Run, events: Iterator[Event], emit: Emit) -> Event | None:
    """Send a session's events in batches until they end or the run is cancelled; the last
    event (the result, when the session finished)."""
    batcher = Batcher(lambda batch: emit(RunEvents(batch)))
    last: Event | None = None
    try:
        for event in events:
            if run.cancelled:
                run.cancel()  # the session clears its flag when it starts: set it again
                break
            batcher.add(event)
            last = event
    finally:
        batcher.flush()
        close = getattr(events, "close", None)
        if close is not None:
            close()
    return last


def ask(run: Run, messages: Sequence[ChatMessage], settings: Settings, engines: EngineHolder, emit: Emit) -> None:
    """Stream a free question's answer; always ends with :class:`AskEnded`."""
    yield_to_the_ui()
    try:
        opened = engines.get(settings)
        emit(EngineReady(opened.engine.info(), opened.notice))
        session = Session(opened.engine, None, settings, opened.manifest)
        run.session = session
        done: Completion | None = None
        buffer: list[StreamEvent] = []
        last = time.monotonic()
        stream = session.ask(messages, 1)
        try:
            for event in stream:
                if run.cancelled:
                    run.cancel()
                    break
                buffer.append(event)
                if isinstance(event, SequenceDone):
                    done = event.completion
                if isinstance(event, SequenceDone) or time.monotonic() - last >= BATCH_S:
                    emit(AskEvents(tuple(buffer)))
                    buffer, last = [], time.monotonic()
        finally:
            if buffer:
                emit(AskEvents(tuple(buffer)))
            stream.close()  # type: ignore[attr-defined]
        cancelled = run.cancelled or (done is not None and done.finish_reason == "cancelled")
        emit(AskEnded(completion=done, cancelled=cancelled))
    except Cancelled:
        emit(AskEnded(cancelled=True))
    except VibecodeError as exc:
        emit(AskEnded(error=exc))
    except Exception as exc:
        log.exception("the question failed")
        emit(AskEnded(crash=one_line(exc)))
    finally:
        run.finished.set()


def pull(ref: str, emit: Emit, interval: float = 0.1) -> None:
    """Download a registry model (or hf:// file) with progress; ends with :class:`PullEnded`."""
    from vibecode.models import pull as hub_pull

    yield_to_the_ui()
    last = [0.0]

    def progress(done: int, total: int | None) -> None:
        now = time.monotonic()
        if now - last[0] >= interval or (total is not None and done >= total):
            last[0] = now
            emit(PullProgress(done, total))

    try:
        result = hub_pull(ref, progress=progress)
        emit(PullProgress(result.size_bytes, result.size_bytes))
        emit(PullEnded(path=result.path))
    except VibecodeError as exc:
        emit(PullEnded(error=exc))
    except Exception as exc:
        log.exception("the download failed")
        emit(PullEnded(crash=one_line(exc)))


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
