"""Selectors on stored records, HumanEval loading and selection, engines per problem."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from vibecode.bench.dataset import load_humaneval, select_tasks, with_pool_ids
from vibecode.bench.engines import ProblemEngine, open_bench_engines, replay_lines_by_task
from vibecode.bench.hidden import run_hidden
from vibecode.bench.rescore import rescore_record
from vibecode.bench.selectors import choose
from vibecode.bench.summary import task_half
from vibecode.clr.score import Calibration
from vibecode.config import Settings
from vibecode.engine.base import StreamingEngine
from vibecode.errors import UsageError
from vibecode.sandbox import make_sandbox
from vibecode.types import (
    ChatMessage,
    EngineInfo,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)


def cand(index: int, behaviour: tuple[str, ...], examples: int, passed: bool, failed_claims: int = 0) -> dict[str, Any]:
    claims = [{"text": "f(1) == 2", "kind": "io", "method": "execution", "verdict": "failed", "detail": ""}] * failed_claims
    return {"index": index, "parsed": True, "examples_passed": examples, "behaviour": list(behaviour),
            "claims": claims, "passed": passed, "text": "", "code": "", "duplicate_of": None}


def record() -> dict[str, Any]:
    """Three copies of a wrong program that fails the example, two right ones, one right program
    whose claim failed, and one that did not parse."""
    wrong = ("ok:1", "ok:5")
    right = ("ok:2", "ok:7")
    cands = [cand(0, wrong, 0, False), cand(1, right, 1, True, failed_claims=1), cand(2, wrong, 0, False),
             cand(3, right, 1, True), cand(4, wrong, 0, False), cand(5, right, 1, True)]
    cands.append({"index": 6, "parsed": False, "passed": False, "behaviour": [], "claims": [], "examples_passed": 0})
    return {"task_id": "HumanEval/3", "examples": 1, "k": 7, "n": 7, "candidates": cands, "status": "?", "best": None}


def test_selectors_on_a_record() -> None:
    rec = record()
    majority = choose(rec, "majority")
    assert majority.best == 0 and not majority.passed  # the largest cluster is the wrong one
    first = choose(rec, "examples_only")
    assert first.best == 1 and first.passed
    clr = choose(rec, "clr")
    # best r in the right cluster; issue 14: the wrong cluster also passes the example and answers
    # the other input differently, so the evidence is contested (was "verified")
    assert clr.best == 3 and clr.passed and clr.status == "plausible"
    assert choose(rec, "no_claims").best == 1
    cal = Calibration((0.0, 1.0), (0.5, 0.6))
    again = rescore_record(rec, cal)
    assert again["best"] == 3 and again["passed"] and again["calibrated"]
    assert again["reliability"] == pytest.approx(cal(again["raw_reliability"]), abs=1e-6)
    assert again["candidates"][0]["cluster"] == 1 and again["candidates"][6]["cluster"] is None
    with pytest.raises(ValueError):
        choose(rec, "oracle")


def test_dataset_selection_and_halves() -> None:
    tasks = load_humaneval()
    assert len(tasks) == 164 and tasks[17].task_id == "HumanEval/17" and tasks[17].number == 17
    assert "def check(candidate)" in tasks[0].test and tasks[0].canonical_code.startswith(tasks[0].prompt)
    assert [t.task_id for t in select_tasks(tasks, ["5,HumanEval/3", "5"])] == ["HumanEval/5", "HumanEval/3"]
    assert len(select_tasks(tasks, limit=3)) == 3
    with pytest.raises(UsageError, match="Unknown"):
        select_tasks(tasks, ["999"])
    with pytest.raises(UsageError):
        select_tasks(tasks, limit=0)
    pools = with_pool_ids(tasks, ["HumanEval/10@0", "HumanEval/4@10", "HumanEval/4@2"])
    assert [p.task_id for p in pools] == ["HumanEval/4@2", "HumanEval/4@10", "HumanEval/10@0"]
    assert pools[0].number == 4 and pools[0].prompt == tasks[4].prompt
    assert [t.task_id for t in select_tasks(pools, ["4"])] == ["HumanEval/4@2", "HumanEval/4@10"]
    assert task_half("HumanEval/4@1") == task_half("HumanEval/4") == 0 and task_half("HumanEval/7") == 1


def test_hidden_tests_run_in_the_sandbox() -> None:
    task = load_humaneval()[2]  # truncate_number
    sandbox = make_sandbox("local", Settings())
    codes = {
        0: task.prompt + task.canonical_solution,
        1: "def truncate_number(number):\n    return 0.5\n",
        2: "import sys\nsys.exit(0)\n",  # exits before the tests: not a pass
        3: "def truncate_number(number):\n    while True:\n        pass\n",
    }
    got = run_hidden(sandbox, task, codes, timeout_s=3)
    assert got[0].passed and got[0].detail == "passed"
    assert not got[1].passed and "AssertionError" in got[1].detail
    assert not got[2].passed and not got[3].passed and got[3].detail == "timeout"


class Slow(StreamingEngine):
    """Counts how many streams run at once."""

    def __init__(self) -> None:
        self.active = 0
        self.peak = 0
        self.guard = threading.Lock()

    def stream(self, messages: Sequence[ChatMessage], params: SamplingParams, n: int = 1, *,
               purpose: str = "candidate", cancel: threading.Event | None = None) -> Iterator[StreamEvent]:
        from vibecode.engine.base import make_completion
        from vibecode.engine.text import SequenceText

        with self.guard:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            state = SequenceText()
            for piece in ("<think>a</think>", " answer"):
                time.sleep(0.05)
                yield TokenDelta(0, state.feed(piece.encode()), state.tokens, state.phase)
            state.finish()
            yield SequenceDone(0, make_completion(0, state, "stop", 1, None, 0.1))
        finally:
            with self.guard:
                self.active -= 1

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def info(self) -> EngineInfo:
        return EngineInfo("slow", "slow", "CPU", 0, 0)


def test_problem_engines_share_one_context_one_at_a_time() -> None:
    inner = Slow()
    lock = threading.Lock()
    engines = [ProblemEngine(inner, lock) for _ in range(3)]
    params = SamplingParams()
    threads = [threading.Thread(target=e.sample, args=([ChatMessage("user", "x")], params, 1),
                                kwargs={"purpose": "verdict"}) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert inner.peak == 1  # serialized
    assert all(e.completions == [{"kind": "verdict", "text": "<think>a</think> answer"}] for e in engines)
    assert all(e.engine_s >= 0.09 for e in engines)
    free = Slow()
    unlocked = [ProblemEngine(free) for _ in range(3)]
    threads = [threading.Thread(target=e.sample, args=([ChatMessage("user", "x")], params, 1)) for e in unlocked]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert free.peak > 1 and all(e.completions == [] for e in unlocked)  # candidates are stored elsewhere


def test_replay_files_split_by_problem(tmp_path: Path) -> None:
    pool = tmp_path / "p.jsonl"
    lines = [{"task_id": "HumanEval/1", "text": "a"}, {"task_id": "HumanEval/0", "text": "b"},
             {"task_id": "HumanEval/1", "kind": "verdict", "text": "c"}]
    pool.write_text("".join(json.dumps(x) + "\n" for x in lines))
    groups = replay_lines_by_task(pool)
    assert groups == {"HumanEval/1": [{"kind": "candidate", "text": "a"}, {"kind": "verdict", "text": "c"}],
                      "HumanEval/0": [{"kind": "candidate", "text": "b"}]}
    engines = open_bench_engines(Settings(engine=f"replay:{pool}"), workers=3)
    try:
        assert engines.workers == 3 and engines.candidates == {"HumanEval/1": 1, "HumanEval/0": 1}
        [c] = engines.for_task("HumanEval/0").sample([ChatMessage("user", "x")], SamplingParams(), 1)
        assert c.text == "b"
    finally:
        engines.close()
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"kind": "candidate", "text": "a"}) + "\n")
    assert replay_lines_by_task(plain) is None
    shared = open_bench_engines(Settings(engine=f"replay:{plain}"), workers=3)
    assert shared.workers == 1  # one file served in order: one problem at a time
    shared.close()
    pool.write_text(pool.read_text() + json.dumps({"kind": "candidate", "text": "x"}) + "\n")
    with pytest.raises(UsageError, match="mixes"):
        replay_lines_by_task(pool)
