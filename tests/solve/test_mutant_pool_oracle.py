"""The helper lines make_mutant_pools.py gives each pool (issue 18): an oracle drawn like a
candidate and a generator written from the examples, whose inputs run in the real sandbox."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from vibecode.bench.dataset import load_humaneval
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.oracle import run_generator
from vibecode.config import Settings
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_mutant_pools.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_mutant_pools", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_each_pool_gets_an_oracle_drawn_from_its_candidates_and_a_generator() -> None:
    task = next(t for t in load_humaneval() if t.task_id == "HumanEval/0")
    fence = "`" * 3
    lines: list[dict[str, object]] = [
        {"task_id": f"HumanEval/0@{p}", "kind": "candidate", "correct": i == 0,
         "text": f"<think>idea {i}</think>\n\n{fence}python\ndef has_close_elements(numbers, threshold):\n"
                 f"    return {i == 0}  # variant {i}\n{fence}\n"}
        for p in range(2) for i in range(3)]
    extra = _script().helper_lines(task, lines, random.Random(0), 400, 1200)
    assert [x["kind"] for x in extra] == ["oracle", "generator", "oracle", "generator"]
    for oracle in (x for x in extra if x["kind"] == "oracle"):
        drawn = [c for c in lines if c["task_id"] == oracle["task_id"]
                 and str(c["text"]).split("</think>")[-1].strip() in str(oracle["text"])]
        assert len(drawn) == 1 and drawn[0]["correct"] == oracle["correct"]  # labelled like its candidate
        assert 400 <= int(str(oracle["tokens"])) <= 1200
    problem = parse_problem(task.prompt)
    generated = run_generator(CandidateRunner(make_sandbox("local", Settings())), problem, str(extra[1]["text"]))
    assert generated.inputs and not generated.notes
    assert all(set(x) == {"numbers", "threshold"} and isinstance(x["numbers"], list) for x in generated.inputs)
