from __future__ import annotations

import json
from pathlib import Path

import pytest

from vibecode.config import Settings
from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.replay import RecordingEngine, ReplayEngine
from vibecode.engine.spec import make_engine, parse_spec
from vibecode.errors import EngineError, EngineSpecError, ReplayExhausted
from vibecode.types import ChatMessage, SamplingParams

ASK = [ChatMessage("user", "solve it")]
PARAMS = SamplingParams()


def _write(path: Path, lines: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_candidates_come_in_file_order_and_split_reasoning(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "r.jsonl",
        [
            {"kind": "candidate", "text": "<think>first idea</think>answer one"},
            {"kind": "verdict", "text": "yes"},
            {"kind": "candidate", "text": "answer two"},
            {"kind": "candidate", "text": "<think>x</think>answer three"},
        ],
    )
    engine = ReplayEngine(f)
    first = engine.sample(ASK, PARAMS, n=2)
    assert [c.answer for c in first] == ["answer one", "answer two"]
    assert first[0].reasoning == "first idea"
    assert [c.seq for c in first] == [0, 1]
    [third] = engine.sample(ASK, PARAMS, n=1)
    assert third.answer == "answer three"
    [verdict] = engine.sample(ASK, PARAMS, purpose="verdict")
    assert verdict.text == "yes"


def test_too_many_candidates_is_a_clear_error(tmp_path: Path) -> None:
    engine = ReplayEngine(_write(tmp_path / "r.jsonl", [{"kind": "candidate", "text": "a"}]))
    with pytest.raises(EngineError) as info:
        engine.sample(ASK, PARAMS, n=3)
    assert not isinstance(info.value, ReplayExhausted)
    assert "1 unused candidate line(s); 3 were asked for" in info.value.message


def test_other_purposes_without_lines_raise_replay_exhausted(tmp_path: Path) -> None:
    engine = ReplayEngine(_write(tmp_path / "r.jsonl", [{"kind": "candidate", "text": "a"}]))
    with pytest.raises(ReplayExhausted):
        engine.sample(ASK, PARAMS, purpose="verdict")


def test_malformed_line_names_its_number(tmp_path: Path) -> None:
    f = tmp_path / "r.jsonl"
    f.write_text('{"kind": "candidate", "text": "a"}\nnot json\n')
    with pytest.raises(EngineError, match="Line 2"):
        ReplayEngine(f)


def test_recording_a_real_engine_replays_the_same_texts(
    tmp_path: Path, tiny_engine: LlamaCppEngine
) -> None:
    out = tmp_path / "rec.jsonl"
    recorder = RecordingEngine(tiny_engine, out)
    live = recorder.sample(
        [ChatMessage("user", "Name three colours.")],
        SamplingParams(temperature=1.0, max_tokens=16, seed=5),
        n=3,
    )
    replayed = ReplayEngine(out).sample(ASK, PARAMS, n=3)
    assert [c.text for c in replayed] == [c.text for c in live]
    assert [json.loads(line)["kind"] for line in out.read_text().splitlines()] == ["candidate"] * 3


def test_engine_specs() -> None:
    assert parse_spec("tiny").target == "tiny"
    assert parse_spec("llama:/x/m.gguf").target == "/x/m.gguf"
    assert parse_spec("llama:", model="vibethinker-3b").target == "vibethinker-3b"
    assert parse_spec(None, model="m").kind == "llama"
    assert parse_spec("openai:http://localhost:8080").kind == "openai"
    for bad in ("foo:bar", "openai:", "replay:", "gpt4"):
        with pytest.raises(EngineSpecError):
            parse_spec(bad)


def test_make_engine_from_settings_records_when_asked(tmp_path: Path) -> None:
    f = _write(tmp_path / "r.jsonl", [{"kind": "candidate", "text": "hello"}])
    opened = make_engine(Settings(engine=f"replay:{f}", record=str(tmp_path / "out.jsonl")))
    assert isinstance(opened.engine, RecordingEngine)
    opened.engine.sample(ASK, PARAMS)
    assert json.loads((tmp_path / "out.jsonl").read_text())["text"] == "hello"
