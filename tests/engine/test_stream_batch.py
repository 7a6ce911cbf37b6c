"""``Engine.stream_batch``: several requests at once, each event tagged with its request.

These use the replay engine, whose batch is the default one (each request's stream on its own
thread); the llama.cpp engine's single-batch version has its own tests in test_llama.py.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from vibecode.engine.base import Request, collect
from vibecode.engine.replay import RecordingEngine, ReplayEngine
from vibecode.types import ChatMessage, RequestFailed, SamplingParams, SequenceDone, TokenDelta

MESSAGES = (ChatMessage("user", "solve it"),)
PARAMS = SamplingParams(max_tokens=64)
LONG = "word " * 5000  # over 100,000 ticks of 1 ms: a piece every 20 ticks, 100 s in all


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _pool(tmp_path: Path) -> Path:
    return _write(tmp_path / "r.jsonl", [
        {"kind": "candidate", "text": "one two three"},
        {"kind": "oracle", "text": "brute force"},
        {"kind": "candidate", "text": "four five"},
    ])


def test_each_event_carries_its_request_and_local_sequence(tmp_path: Path) -> None:
    engine = ReplayEngine(_pool(tmp_path))
    requests = [Request(MESSAGES, PARAMS, 2), Request(MESSAGES, PARAMS, 1, purpose="oracle")]
    events = list(engine.stream_batch(requests))
    done = {(e.request, e.seq): e.completion.text for e in events if isinstance(e, SequenceDone)}
    assert done == {(0, 0): "one two three", (0, 1): "four five", (1, 0): "brute force"}
    assert {e.request for e in events if isinstance(e, TokenDelta)} == {0, 1}


def test_paced_requests_decode_side_by_side(tmp_path: Path) -> None:
    """At a paced rate the requests run in parallel: the short oracle (
    2 ticks, 10 ms) finishes before the long candidate (2 s), although it is the second request."""
    engine = ReplayEngine(_write(tmp_path / "r.jsonl", [
        {"kind": "candidate", "text": "long", "tokens": 400},
        {"kind": "oracle", "text": "short", "tokens": 2},
    ]), tps=200.0)
    order = [e.request for e in engine.stream_batch(
        [Request(MESSAGES, PARAMS, 1), Request(MESSAGES, PARAMS, 1, purpose="oracle")])
        if isinstance(e, SequenceDone)]
    assert order == [1, 0]


def test_a_request_the_engine_cannot_answer_fails_alone(tmp_path: Path) -> None:
    engine = ReplayEngine(_pool(tmp_path))
    requests = [Request(MESSAGES, PARAMS, 2), Request(MESSAGES, PARAMS, 1, purpose="generator")]
    events = list(engine.stream_batch(requests))
    [failed] = [e for e in events if isinstance(e, RequestFailed)]
    assert failed.request == 1 and "generator" in failed.message and failed.error is not None
    assert sorted(e.seq for e in events if isinstance(e, SequenceDone) and e.request == 0) == [0, 1]


def test_leaving_the_batch_early_stops_every_request(tmp_path: Path) -> None:
    engine = ReplayEngine(_write(tmp_path / "r.jsonl", [
        {"kind": "candidate", "text": LONG, "tokens": 100000},
        {"kind": "oracle", "text": LONG, "tokens": 100000},
    ]), tps=1000.0)
    stream = engine.stream_batch([Request(MESSAGES, PARAMS, 1), Request(MESSAGES, PARAMS, 1, purpose="oracle")])
    next(stream)
    stream.close()  # joins the request threads; it would hang for 100 s if they ran on
    assert not [t for t in threading.enumerate() if t.name.startswith("request-")]


def test_cancel_ends_the_batch(tmp_path: Path) -> None:
    engine = ReplayEngine(_write(tmp_path / "r.jsonl", [
        {"kind": "candidate", "text": LONG, "tokens": 100000}]), tps=1000.0)
    cancel = threading.Event()
    seen = 0
    for _ in engine.stream_batch([Request(MESSAGES, PARAMS, 1)], cancel=cancel):
        seen += 1
        cancel.set()
    assert seen >= 1
    assert not [t for t in threading.enumerate() if t.name.startswith("request-")]


def test_recording_a_batch_writes_each_completion_under_its_purpose(tmp_path: Path) -> None:
    out = tmp_path / "rec.jsonl"
    engine = RecordingEngine(ReplayEngine(_pool(tmp_path)), out)
    collect(engine.stream_batch([Request(MESSAGES, PARAMS, 2), Request(MESSAGES, PARAMS, 1, purpose="oracle")]))
    kinds = sorted((r["kind"], r["text"]) for r in map(json.loads, out.read_text().splitlines()))
    assert kinds == [("candidate", "four five"), ("candidate", "one two three"), ("oracle", "brute force")]
