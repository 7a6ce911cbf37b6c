"""Candidate pools with known correctness: the replay format plus ``task_id`` and ``correct``.

One line per candidate, ``{"task_id": "HumanEval/0", "kind": "candidate", "text": "...",
"correct": true}``, in the order the replay engine serves them; other keys (``mutation``,
``claims``) are notes for people. A problem that is not in HumanEval needs a ``prompt`` on one
of its lines (the HumanEval-style signature and docstring the pipeline sees). Several pools of
one problem carry ids ``HumanEval/17@0``, ``HumanEval/17@1``, ...
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

from vibecode.bench.dataset import HumanEvalTask, base_id, load_humaneval
from vibecode.errors import UsageError


@dataclass(frozen=True)
class Pools:
    tasks: list[HumanEvalTask]  # in file order
    labels: dict[str, list[bool]]  # task_id -> the label of each candidate line, in order


def read_pools(path: Path) -> Pools:
    if not path.is_file():
        raise UsageError(f"The pool file {path} does not exist.",
                         "Make one with: python scripts/make_mutant_pools.py --out pools.jsonl")
    labels: dict[str, list[bool]] = {}
    prompts: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"Line {number} of {path} is not JSON: {exc.msg}.") from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("task_id"), str) or not isinstance(obj.get("text"), str):
            raise UsageError(f'Line {number} of {path} needs "task_id" and "text".',
                             'Pool lines look like {"task_id": "HumanEval/0", "kind": "candidate", '
                             '"text": "...", "correct": true}.')
        if isinstance(obj.get("prompt"), str):
            prompts[obj["task_id"]] = obj["prompt"]
        if obj.get("kind", "candidate") != "candidate":
            continue
        if not isinstance(obj.get("correct"), bool):
            raise UsageError(f'Line {number} of {path} needs "correct": true or false.')
        labels.setdefault(obj["task_id"], []).append(obj["correct"])
    if not labels:
        raise UsageError(f"The pool file {path} holds no candidates.")
    known = {t.task_id: t for t in load_humaneval()} if set(labels) - set(prompts) else {}
    tasks = []
    for task_id in labels:
        base = known.get(base_id(task_id))
        if task_id in prompts:
            tasks.append(HumanEvalTask(task_id, prompts[task_id], base.entry_point if base else "", "", ""))
        elif base is not None:
            tasks.append(dataclasses.replace(base, task_id=task_id))
        else:
            raise UsageError(f"Pool problem {task_id} is not in HumanEval and has no \"prompt\".")
    return Pools(tasks, labels)
