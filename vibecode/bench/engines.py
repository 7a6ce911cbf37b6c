"""Engines for a benchmark run: one per problem, so that problems can run side by side.

- ``replay:<file>`` whose lines carry a ``task_id`` (a pool from ``make_mutant_pools.py``), or a
  benchmark ``results.jsonl`` (its stored candidates and model calls): each problem gets a replay
  engine of its own lines, and problems run concurrently.
- ``replay:<file>`` without task ids: one engine that serves lines in file order, so problems run
  one at a time, in order.
- ``llama:...``: one model context. Problems share it under a lock (sampling is serialized);
  verification and hidden tests of one problem overlap the sampling of the next.
- ``openai:...``: a server; requests may overlap.

Each problem's engine is a :class:`ProblemEngine`: it forwards to the real one, keeps the
answers of the optional model calls (edge cases, verdicts) as replay lines, and measures the
time spent inside the engine (for tokens/s).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vibecode.config import Settings
from vibecode.engine.base import CANDIDATE, Engine, StreamingEngine
from vibecode.engine.spec import make_engine, parse_spec
from vibecode.errors import EngineError, UsageError
from vibecode.models import Manifest
from vibecode.types import ChatMessage, EngineInfo, SamplingParams, SequenceDone, StreamEvent


class ProblemEngine(StreamingEngine):
    def __init__(self, inner: Engine, lock: threading.Lock | None = None) -> None:
        self.inner = inner
        self.lock = lock
        self.completions: list[dict[str, Any]] = []  # non-candidate calls, as replay lines
        self.engine_s = 0.0

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        with self.lock if self.lock is not None else contextlib.nullcontext():
            started = time.monotonic()
            try:
                for event in self.inner.stream(messages, params, n, purpose=purpose, cancel=cancel):
                    if isinstance(event, SequenceDone) and purpose != CANDIDATE:
                        self.completions.append({"kind": purpose, "text": event.completion.text})
                    yield event
            finally:
                self.engine_s += time.monotonic() - started

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def info(self) -> EngineInfo:
        return self.inner.info()


@dataclass
class BenchEngines:
    spec: str
    workers: int  # problems that may run at once
    manifest: Manifest | None = None
    notice: str | None = None
    task_ids: list[str] | None = None  # the problems a per-problem replay file holds
    candidates: dict[str, int] = field(default_factory=dict)  # task_id -> its candidate lines
    _shared: Engine | None = None
    _lock: threading.Lock | None = None
    _files: dict[str, Path] = field(default_factory=dict)
    _tmp: Path | None = None

    def for_task(self, task_id: str) -> ProblemEngine:
        if self._shared is not None:
            return ProblemEngine(self._shared, self._lock)
        from vibecode.engine.replay import ReplayEngine

        path = self._files.get(task_id)
        if path is None:
            raise EngineError(f"The replay file has no candidates for {task_id}.")
        return ProblemEngine(ReplayEngine(path))

    def close(self) -> None:
        if self._shared is not None:
            self._shared.close()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)


def replay_lines_by_task(path: Path) -> dict[str, list[dict[str, Any]]] | None:
    """Replay lines grouped by ``task_id``; None when the file's lines carry none.

    Accepts pool lines (``{"task_id", "kind", "text", ...}``) and benchmark records (their
    candidates in index order, then their other model calls).
    """
    if not path.is_file():
        raise UsageError(f"Replay file {path} does not exist.")
    groups: dict[str, list[dict[str, Any]]] = {}
    without = 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"Line {number} of replay file {path} is not JSON: {exc.msg}.") from exc
        if not isinstance(obj, dict):
            raise UsageError(f"Line {number} of replay file {path} is not a JSON object.")
        task = obj.get("task_id")
        if not isinstance(task, str):
            without += 1
            continue
        if isinstance(obj.get("candidates"), list):
            cands = sorted(obj["candidates"], key=lambda c: c["index"])
            lines = [{"kind": CANDIDATE, "text": c["text"]} for c in cands]
            groups.setdefault(task, []).extend(lines + list(obj.get("completions", [])))
        elif isinstance(obj.get("text"), str):
            groups.setdefault(task, []).append({"kind": obj.get("kind", CANDIDATE), "text": obj["text"]})
        else:
            raise UsageError(f'Line {number} of replay file {path} has neither "text" nor "candidates".')
    if groups and without:
        raise UsageError(f"Replay file {path} mixes lines with and without a task_id.")
    return groups or None


def open_bench_engines(settings: Settings, workers: int) -> BenchEngines:
    spec = parse_spec(settings.engine, settings.model)
    if spec.kind == "replay":
        path = Path(spec.target or "")
        groups = replay_lines_by_task(path)
        if groups is None:
            opened = make_engine(settings)
            return BenchEngines(str(settings.engine), 1, _shared=opened.engine, _lock=threading.Lock())
        tmp = Path(tempfile.mkdtemp(prefix="vibecode-bench-replay-"))
        files = {}
        for n, (task, lines) in enumerate(groups.items()):
            files[task] = tmp / f"{n}.jsonl"
            files[task].write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        counts = {task: sum(x["kind"] == CANDIDATE for x in lines) for task, lines in groups.items()}
        return BenchEngines(str(settings.engine), workers, task_ids=list(groups), candidates=counts,
                            _files=files, _tmp=tmp)
    opened = make_engine(settings)
    lock = threading.Lock() if spec.kind == "llama" else None
    # One context: two problems at once is enough to overlap one's sampling with another's checks.
    n = min(workers, 2) if spec.kind == "llama" else workers
    return BenchEngines(settings.engine or f"llama:{settings.model or 'default'}", n, opened.manifest,
                        opened.notice, _shared=opened.engine, _lock=lock)
