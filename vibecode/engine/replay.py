"""Replay: serve recorded completions from JSONL, and record any engine into that format.

Each line is an object ``{"kind": "<purpose>", "text": "<think>...</think> answer"}``; other keys
are kept for tools (a ``correct`` label in benchmark pools, say) and ignored here. Requests take
lines of their purpose in file order: ``candidate`` lines for sampling, ``verdict`` lines for
claim verdicts, and so on. The helpers of a solve take ``oracle`` (the brute-force solution),
``generator`` (the input generator) and ``inputs`` (the edge cases) lines.

A request with a prefill (``SamplingParams.prefill``: the helpers' empty think block for a model
that thinks) is answered as an engine would: a line that starts with the prefill (as
:class:`RecordingEngine` writes it, prefill included) has only the rest counted as generated
tokens; a line that does not (an older recording, a hand-written pool) is served whole.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from vibecode.engine.base import CANDIDATE, Engine, Request, StreamingEngine, make_completion
from vibecode.engine.text import SequenceText
from vibecode.errors import EngineError, ReplayExhausted
from vibecode.types import (
    ChatMessage,
    Completion,
    EngineInfo,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)

_PIECE = re.compile(r"\s*\S+|\s+")


def approx_tokens(text: str) -> int:
    """Word-piece count: the replay engine has no tokenizer, so it reports this estimate."""
    return len(_PIECE.findall(text))


def read_replay_lines(path: Path) -> list[dict[str, Any]]:
    """Parse a replay file; a malformed line is a clear error naming its number."""
    if not path.is_file():
        raise EngineError(f"Replay file {path} does not exist.", "Check the replay:<file> spec.")
    lines: list[dict[str, Any]] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise EngineError(
                f"Line {number} of replay file {path} is not JSON: {exc.msg}."
            ) from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise EngineError(
                f'Line {number} of replay file {path} needs a "text" string.',
                'Each line looks like {"kind": "candidate", "text": "..."}.',
            )
        obj.setdefault("kind", CANDIDATE)
        lines.append(obj)
    return lines


def split_rate(spec: str | Path) -> tuple[Path, float | None]:
    """``FILE?tps=R`` -> (FILE, R); a plain path -> (path, None)."""
    text = str(spec)
    if "?" not in text or Path(text).is_file():
        return Path(text), None
    path, _, query = text.rpartition("?")
    key, _, value = query.partition("=")
    try:
        rate = float(value)
    except ValueError:
        rate = 0.0
    if key != "tps" or not rate > 0:
        raise EngineError(f"Cannot read {query!r} in the replay spec {text}.",
                          "Write replay:FILE?tps=R with R tokens per second per sequence, R > 0.")
    return Path(path), rate


def _line_pieces(line: dict[str, Any], prefill: str) -> tuple[SequenceText, list[str]]:
    """The sequence state a line starts from and the pieces it then generates: a line that begins
    with the request's prefill starts after it, as an engine's sequence would."""
    text: str = line["text"]
    if prefill and text.startswith(prefill):
        return SequenceText(prefill=prefill), _PIECE.findall(text[len(prefill):])
    return SequenceText(), _PIECE.findall(text)


class ReplayEngine(StreamingEngine):
    """Serves replay lines. With ``replay:FILE?tps=R`` the sequences of one request emit their
    tokens in parallel at R tokens/s each, like a batched model; a line's ``"tokens": N`` key
    stretches it to N tokens' time (the text is spread over them)."""

    def __init__(self, path: str | Path, tps: float | None = None) -> None:
        self.path, rate = split_rate(path)
        self.tps = tps if tps is not None else rate
        self._lines = read_replay_lines(self.path)
        self._cursor: dict[str, int] = {}
        self._lock = threading.Lock()

    def _take(self, purpose: str, n: int) -> list[dict[str, Any]]:
        with self._lock:
            pool = [line for line in self._lines if line["kind"] == purpose]
            start = self._cursor.get(purpose, 0)
            if start + n > len(pool):
                left = len(pool) - start
                if purpose == CANDIDATE:
                    raise EngineError(
                        f"Replay file {self.path} has {left} unused candidate line(s); "
                        f"{n} were asked for.",
                        f"Ask for fewer (--n {max(left, 1)}) or record more lines.",
                    )
                raise ReplayExhausted(
                    f"Replay file {self.path} has no {purpose!r} line left for this request."
                )
            self._cursor[purpose] = start + n
            return pool[start : start + n]

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        lines = self._take(purpose, n)
        prompt_tokens = sum(approx_tokens(m.content) for m in messages) + approx_tokens(params.prefill)
        if self.tps:
            yield from self._paced(lines, prompt_tokens, self.tps, params.prefill, cancel)
            return
        for seq, line in enumerate(lines):
            started = time.monotonic()
            state, pieces = _line_pieces(line, params.prefill)
            for piece in pieces:
                if cancel is not None and cancel.is_set():
                    return
                visible = state.feed(piece.encode("utf-8"))
                yield TokenDelta(seq, visible, state.tokens, state.phase)
            state.finish()
            completion = make_completion(
                seq, state, "stop", prompt_tokens, line.get("seed"), time.monotonic() - started
            )
            yield SequenceDone(seq, completion)

    def _paced(self, lines: list[dict[str, Any]], prompt_tokens: int, tps: float, prefill: str,
               cancel: threading.Event | None) -> Iterator[StreamEvent]:
        """All sequences at once, token k of each at k / tps seconds."""
        started = time.monotonic()
        states, pieces = [], []
        for line in lines:
            state, ps = _line_pieces(line, prefill)
            states.append(state)
            pieces.append(ps)
        lengths = [max(len(p), int(line.get("tokens") or 0), 1) for p, line in zip(pieces, lines, strict=True)]
        for tick in range(max(lengths)):
            wait = started + (tick + 1) / tps - time.monotonic()
            if wait > 0 and cancel is not None:
                cancel.wait(wait)
            elif wait > 0:
                time.sleep(wait)
            if cancel is not None and cancel.is_set():
                return
            for seq, (ps, length, state) in enumerate(zip(pieces, lengths, states, strict=True)):
                if tick >= length:
                    continue
                # spread the pieces evenly over the line's length
                lo, hi = tick * len(ps) // length, (tick + 1) * len(ps) // length
                for piece in ps[lo:hi]:
                    visible = state.feed(piece.encode("utf-8"))
                    yield TokenDelta(seq, visible, state.tokens, state.phase)
                if tick == length - 1:
                    state.finish()
                    yield SequenceDone(seq, make_completion(seq, state, "stop", prompt_tokens, lines[seq].get("seed"),
                                                            time.monotonic() - started))

    def count_tokens(self, text: str) -> int:
        return approx_tokens(text)

    def info(self) -> EngineInfo:
        return EngineInfo(
            engine="replay", model=str(self.path), backend="replay", gpu_layers=0, n_ctx=0
        )


class RecordingEngine(StreamingEngine):
    """Wraps any engine and appends every finished completion to a replay file."""

    def __init__(self, inner: Engine, path: str | Path) -> None:
        self.inner = inner
        self.path = Path(path)
        self._lock = threading.Lock()

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        for event in self.inner.stream(messages, params, n, purpose=purpose, cancel=cancel):
            if isinstance(event, SequenceDone):
                self._write(purpose, event.completion)
            yield event

    def stream_batch(
        self, requests: Sequence[Request], *, cancel: threading.Event | None = None
    ) -> Iterator[StreamEvent]:
        """The inner engine's batch (one llama.cpp batch stays one), each completion recorded
        under its request's purpose."""
        for event in self.inner.stream_batch(requests, cancel=cancel):
            if isinstance(event, SequenceDone):
                self._write(requests[event.request].purpose, event.completion)
            yield event

    def _write(self, purpose: str, completion: Completion) -> None:
        record = {"kind": purpose, "text": completion.text, "seed": completion.seed}
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def info(self) -> EngineInfo:
        return self.inner.info()

    def close(self) -> None:
        self.inner.close()
