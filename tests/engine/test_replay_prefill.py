"""The replay contract with a prefill (the solve helpers' empty think block): a recorded line that
starts with the prefill counts only the rest as generated; an older line is served whole; a
recording made through RecordingEngine replays to the same completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.replay import RecordingEngine, ReplayEngine, approx_tokens
from vibecode.types import ChatMessage, SamplingParams

NO_THINK = "<think>\n\n</think>\n\n"
ANSWER = "```python\ndef f(x):\n    return x\n```"
ASK = [ChatMessage("user", "Write f.")]


def _pool(tmp_path: Path, *texts: str) -> Path:
    path = tmp_path / "pool.jsonl"
    path.write_text("".join(json.dumps({"kind": "oracle", "text": t}) + "\n" for t in texts), encoding="utf-8")
    return path


@pytest.mark.parametrize("tps", [None, 5000.0])
def test_a_line_recorded_with_the_prefill_counts_only_what_follows_it(tmp_path: Path, tps: float | None) -> None:
    engine = ReplayEngine(_pool(tmp_path, NO_THINK + ANSWER), tps)
    [c] = engine.sample(ASK, SamplingParams(prefill=NO_THINK), purpose="oracle")
    assert c.text == NO_THINK + ANSWER and c.reasoning == "" and c.answer == ANSWER
    assert c.completion_tokens == approx_tokens(ANSWER)
    assert c.prompt_tokens == approx_tokens("Write f.") + approx_tokens(NO_THINK)


def test_an_older_line_that_thought_freely_is_served_whole(tmp_path: Path) -> None:
    line = "<think>\nenumerate all\n</think>\n\n" + ANSWER
    engine = ReplayEngine(_pool(tmp_path, line))
    [c] = engine.sample(ASK, SamplingParams(prefill=NO_THINK), purpose="oracle")
    assert c.text == line and c.reasoning == "enumerate all" and c.answer == ANSWER
    assert c.completion_tokens == approx_tokens(line)


def test_a_recording_of_the_tiny_model_with_the_prefill_replays_to_the_same_completion(
        tmp_path: Path, tiny_engine: LlamaCppEngine) -> None:
    path = tmp_path / "rec.jsonl"
    params = SamplingParams(temperature=0.7, top_k=40, seed=5, max_tokens=10, ignore_eos=True, prefill=NO_THINK)
    [live] = RecordingEngine(tiny_engine, path).sample(ASK, params, purpose="oracle")
    [line] = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert line["kind"] == "oracle" and line["text"].startswith(NO_THINK)
    [again] = ReplayEngine(path).sample(ASK, params, purpose="oracle")
    assert (again.text, again.reasoning, again.answer) == (live.text, live.reasoning, live.answer)
    assert again.reasoning == "" and live.completion_tokens == 10
