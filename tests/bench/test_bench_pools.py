"""Mutants by ast transforms, labelled pools from HumanEval (real hidden tests in the real sandbox),
the pool generator script, and pool files."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from vibecode.bench.dataset import load_humaneval, select_tasks
from vibecode.bench.mutants import mutants, rename_locals, strip_docstring
from vibecode.bench.poolgen import make_pools
from vibecode.bench.pools import read_pools
from vibecode.clr.claims import extract_claims
from vibecode.clr.execute import CandidateRunner
from vibecode.config import Settings
from vibecode.engine.text import split_thinking
from vibecode.errors import UsageError
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import make_sandbox

REPO = Path(__file__).resolve().parents[2]

CODE = '''
from typing import List

def count_small(xs: List[int], limit: int) -> int:
    """How many values are below limit."""
    total = 0
    for i in range(len(xs)):
        if xs[i] < limit and not xs[i] == 99:
            total += 1
        else:
            total = total
    return total
'''


def test_mutants_cover_the_operators_and_compile() -> None:
    found = mutants(CODE, "count_small")
    kinds = Counter(m.kind for m in found)
    assert {"compare", "arith", "range", "index", "branch", "logic", "boundary"} <= set(kinds)
    texts = [m.code for m in found]
    assert len(texts) == len(set(texts)) and ast.unparse(ast.parse(CODE)) not in texts
    for m in found:
        compile(m.code, "<mutant>", "exec")
        assert "List[int]" in m.code  # annotations are never mutated
    described = {m.description for m in found}
    assert "line 8: < -> <=" in described and "line 7: range stop +1" in described
    one = next(m for m in found if m.description == "line 8: < -> <=")
    assert "xs[i] <= limit" in one.code
    with pytest.raises(ValueError):
        mutants(CODE, "missing")


def test_strip_docstring_and_rename_keep_behaviour() -> None:
    bare = strip_docstring(CODE, "count_small")
    renamed = rename_locals(CODE, "count_small")
    assert "How many" not in bare and "total_" in renamed and "xs_" not in renamed
    for code in (bare, renamed):
        scope: dict[str, object] = {}
        exec(code, scope)
        assert scope["count_small"]([1, 5, 99, 2, 12], 10) == 3  # type: ignore[operator]


def test_pools_are_labelled_by_the_hidden_tests() -> None:
    tasks = select_tasks(load_humaneval(), ["0", "2", "12"])
    sandbox = make_sandbox("local", Settings())
    runner = CandidateRunner(sandbox)
    lines, facts = [], []
    for task in tasks:
        got, fact = make_pools(task, sandbox, runner, seed=3, count=2, max_label=6)
        lines += got
        facts.append(fact)
    again, _ = make_pools(tasks[0], sandbox, runner, seed=3, count=2, max_label=6)
    assert again == [x for x in lines if x["task_id"].startswith("HumanEval/0@")]  # same seed, same pool
    assert {x["task_id"] for x in lines} == {f"HumanEval/{n}@{i}" for n in (0, 2, 12) for i in (0, 1)}
    assert all(isinstance(x["correct"], bool) and x["kind"] == "candidate" for x in lines)
    assert all(4 <= sum(x["task_id"] == pid for x in lines) <= 10 for pid in {x["task_id"] for x in lines})
    # The canonical solution is correct; mutants labelled wrong failed the hidden tests.
    assert all(x["correct"] for x in lines if x["mutation"] in ("canonical", "canonical, renamed"))
    assert any(not x["correct"] and not x["mutation"].startswith("cut short") for x in lines)
    assert all(f["labelled"] <= 6 and f["mutants"] >= f["labelled"] for f in facts)
    # The reasoning carries io claims the pipeline can extract.
    problems = {t.task_id: parse_problem(t.prompt) for t in tasks}
    claims = 0
    for x in lines:
        reasoning, _ = split_thinking(x["text"])
        claims += sum(c.kind == "io" for c in extract_claims(reasoning, problems[x["task_id"].split("@")[0]]))
    assert claims >= len(lines)
    assert {x["claims"] for x in lines if not x["correct"]} & {"intent", "traced", "silent"}


def test_pool_script_and_pool_file(tmp_path: Path) -> None:
    out = tmp_path / "pools.jsonl"
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "make_mutant_pools.py"), "--out", str(out),
                           "--ids", "2", "4", "--max-label", "4"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["problems"] == 2 and report["pools"] == 2 and report["candidates"] >= 8
    pools = read_pools(out)
    assert [t.task_id for t in pools.tasks] == ["HumanEval/2", "HumanEval/4"]
    assert sum(len(v) for v in pools.labels.values()) == report["candidates"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"task_id": "HumanEval/2", "kind": "candidate", "text": "x"}) + "\n")
    with pytest.raises(UsageError, match="correct"):
        read_pools(bad)
    bad.write_text(json.dumps({"task_id": "Mine/1", "text": "x", "correct": True}) + "\n")
    with pytest.raises(UsageError, match="prompt"):
        read_pools(bad)
