"""The LeetCode pools in tests/data/leetcode_pools: their shape (both pool modes, oracle and
generator lines, labels on every candidate), and, in the real sandbox, that every generator
returns the keyword arguments of the rendered signature (spelled as vibecode reads them: case
and underscores aside, ``words_dict`` for ``wordsDict``) and that the oracle agrees with a correct
candidate on the generated inputs (the replay contract B's oracle reads). Every part: dev and the
six held-out parts."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from vibecode.bench.leetcode import select
from vibecode.config import Settings
from vibecode.sandbox import Limits, make_sandbox
from vibecode.types import FileChange, Patch

POOLS = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools"

CHECK = r'''
import copy, json, random, sys

def code(text):
    return text.split("```python\n", 1)[1].rsplit("```", 1)[0]

def canon(v, kind):
    v = list(v) if isinstance(v, tuple) else v
    if kind == "sorted":
        return sorted(map(repr, v))
    if kind == "nested":
        return sorted(repr(sorted(map(repr, g))) for g in v)
    if kind == "float":  # toss_strange_coins: two correct float sums differ in the last bits
        return round(v, 7)
    return v

def call(ns, entry, kw):
    if entry != "__init__":
        return getattr(ns["Solution"](), entry)(**kw)
    ops, args = kw["operations"], kw["arguments"]  # a design class: run the sequence on one object
    obj = ns[ops[0]](*args[0])
    # operation names as LeetCode writes them (addWord) call the starter's methods (add_word)
    methods = {m.replace("_", "").lower(): m for m in dir(obj) if not m.startswith("__")}
    return [None] + [getattr(obj, methods.get(op.replace("_", "").lower(), op))(*a) for op, a in zip(ops[1:], args[1:])]

bad = []
for job in json.load(open("jobs.json")):
    gen, oracle, right = {}, {}, {}
    exec(code(job["generator"]), gen)
    exec(code(job["oracle"]), oracle)
    exec(code(job["correct"]), right)
    rng = random.Random(0)
    for _ in range(25):
        kw = gen["generate_input"](rng)
        if [k.replace("_", "").lower() for k in kw] != [k.replace("_", "").lower() for k in job["params"]]:
            bad.append([job["pool"], "generator names", list(kw)])
            break
        a = call(oracle, job["entry"], copy.deepcopy(kw))
        b = call(right, job["entry"], copy.deepcopy(kw))
        if canon(a, job["kind"]) != canon(b, job["kind"]):
            bad.append([job["pool"], "oracle disagrees", repr(kw)])
            break
print(json.dumps(bad))
'''


def _lines(part: str) -> list[dict[str, object]]:
    return [json.loads(x) for x in (POOLS / f"{part}.jsonl").read_text().splitlines() if x.strip()]


PARTS = {"dev": 164, "held-out": 25, "held-out-2": 25, "held-out-3": 24, "held-out-4": 25, "held-out-5": 25,
         "held-out-6": 24, "held-out-7": 24, "held-out-8": 25, "held-out-9": 25, "held-out-10": 24,
         "held-out-11": 25}  # problems


@pytest.mark.parametrize("part", list(PARTS))
def test_pools_have_both_modes_and_labels(part: str) -> None:
    lines = _lines(part)
    pools: dict[str, list[dict[str, object]]] = {}
    for x in lines:
        pools.setdefault(str(x["task_id"]), []).append(x)
    slugs = {p.split("@")[0] for p in pools}
    assert len(slugs) == PARTS[part]
    for slug in slugs:
        agree, wm = pools[f"{slug}@agree"], pools[f"{slug}@wrong-majority"]
        assert sum(bool(x.get("correct")) for x in agree) >= 2  # two correct styles agree
        cands = [x for x in wm if x["kind"] == "candidate"]
        assert sum(not x["correct"] for x in cands) > sum(bool(x["correct"]) for x in cands) >= 1
        assert [x["kind"] for x in wm if x["kind"] != "candidate"] == ["oracle", "generator"]
    for x in lines:
        if x["kind"] == "candidate":
            assert isinstance(x["correct"], bool) and str(x["hidden"]).startswith(("passed", "failed", "timeout"))
            assert x["correct"] == (x["hidden"] == "passed")  # the label is the hidden-test outcome


def test_generators_and_oracles_fit_the_problems_in_the_sandbox() -> None:
    tasks = {t.task_id: t for t in select(part="all").tasks}
    jobs = []
    for part in PARTS:
        lines = _lines(part)
        for pool in sorted({str(x["task_id"]) for x in lines if x["kind"] == "oracle"}):
            task = tasks[pool.split("@")[0]]
            mine = [x for x in lines if x["task_id"] == pool]
            sig = next(ln for ln in task.prompt.splitlines() if ln.strip().startswith("def "))
            params = re.findall(r"(\w+):", sig.split("(", 1)[1].split(")")[0])
            if task.entry_point == "__init__":  # a design class: the generator gives the sequence
                params = ["operations", "arguments"]
            jobs.append({"pool": pool, "entry": task.entry_point, "params": params,
                         "kind": json.loads(task.test)["compare"],
                         "generator": next(x["text"] for x in mine if x["kind"] == "generator"),
                         "oracle": next(x["text"] for x in mine if x["kind"] == "oracle"),
                         "correct": next(x["text"] for x in mine if x["kind"] == "candidate" and x["correct"])})
    assert len(jobs) == sum(PARTS.values())  # one wrong-majority pool (with its oracle) per problem
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    empty = Path(tempfile.mkdtemp(prefix="vibecode-pool-check-"))
    try:
        patch = Patch((FileChange("check.py", None, CHECK), FileChange("jobs.json", None, json.dumps(jobs))))
        with sandbox.prepare(empty, patch) as ws:
            run = sandbox.run(ws, (sandbox.python, "-I", "check.py"), Limits(wall_s=600))  # about 100 s on a busy 2-core machine
    finally:
        empty.rmdir()
    assert run.exit_code == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == []
