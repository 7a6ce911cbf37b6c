"""``replay:FILE?tps=R``: the sequences of one request emit their tokens in parallel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.engine.spec import make_engine
from vibecode.errors import EngineError
from vibecode.types import ChatMessage, SamplingParams, SequenceDone, TokenDelta

ASK = [ChatMessage("user", "solve it")]


def _pool(tmp_path: Path) -> Path:
    lines = [{"kind": "candidate", "text": "<think>one two three four</think> five six"},
             {"kind": "candidate", "text": "short"},
             {"kind": "candidate", "text": "stretched answer", "tokens": 12}]
    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_paced_sequences_interleave_and_finish_by_length(tmp_path: Path) -> None:
    engine = make_engine(Settings(), f"replay:{_pool(tmp_path)}?tps=2000").engine
    assert isinstance(engine, ReplayEngine) and engine.tps == 2000
    events = list(engine.stream(ASK, SamplingParams(), 3))
    order = [e.seq for e in events if isinstance(e, TokenDelta)]
    assert order[:3] == [0, 1, 0]  # token 0 of both, before token 1 of the first
    done = [e.seq for e in events if isinstance(e, SequenceDone)]
    assert done == [1, 0, 2]  # the one-token line first, the stretched one last
    texts = {e.seq: e.completion.text for e in events if isinstance(e, SequenceDone)}
    plain = ReplayEngine(_pool(tmp_path)).sample(ASK, SamplingParams(), 3)
    assert [texts[i] for i in range(3)] == [c.text for c in plain]
    assert plain[0].answer == "five six"


def test_a_bad_rate_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match=r"tps=R"):
        ReplayEngine(f"{_pool(tmp_path)}?tps=fast")
    with pytest.raises(EngineError, match=r"tps=R"):
        ReplayEngine(f"{_pool(tmp_path)}?speed=3")
