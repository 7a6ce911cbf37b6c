"""Run the pipeline over many problems: concurrently where the engine allows, resumable, one
JSONL record per problem (:mod:`vibecode.bench.record`), progress through a callback.

The pipeline gets only the problem's prompt. Correctness labels come afterwards, from the hidden
HumanEval tests run in the sandbox (``labels="hidden"``) or from a pool's stored ``correct``
field (``labels="pool"``).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vibecode.bench.dataset import HumanEvalTask
from vibecode.bench.engines import BenchEngines
from vibecode.bench.hidden import DEFAULT_TIMEOUT_S, HiddenResult, run_hidden
from vibecode.bench.record import append_record, build_record, read_records
from vibecode.config import Settings
from vibecode.errors import Cancelled, UsageError, VibecodeError
from vibecode.events import ProposalReady, StageStarted
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import Sandbox
from vibecode.session import Session
from vibecode.types import SolveResult

RESULTS = "results.jsonl"
# (sandbox, task, codes by candidate index, timeout) -> hidden outcome by index
HiddenRunner = Callable[[Sandbox, HumanEvalTask, Mapping[int, str], float], Mapping[int, HiddenResult]]
META = "meta.json"


@dataclass(frozen=True)
class ProblemStarted:
    task_id: str


@dataclass(frozen=True)
class ProblemStage:
    task_id: str
    stage: str  # a pipeline stage, or "hidden" while the hidden tests run


@dataclass(frozen=True)
class ProblemDone:
    task_id: str
    record: dict[str, Any]
    done: int
    total: int


BenchEvent = ProblemStarted | ProblemStage | ProblemDone


@dataclass
class RunConfig:
    out: Path
    n: int
    workers: int = 2
    resume: bool = False
    use_model_checks: bool = True
    hidden_timeout_s: float = DEFAULT_TIMEOUT_S
    # task_id -> the stored label of each candidate in order ("pool" labels); None: hidden tests.
    pool_labels: Mapping[str, Sequence[bool]] | None = None
    # task_id -> candidates to ask for, where it differs from ``n`` (pools of different sizes).
    task_n: Mapping[str, int] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    # how the hidden tests run; None: HumanEval's (:func:`vibecode.bench.hidden.run_hidden`).
    hidden: HiddenRunner | None = None


@dataclass
class RunOutcome:
    records: list[dict[str, Any]]  # all of the run, resumed ones included, in task order
    new: int  # problems solved in this call
    wall_s: float  # this call's wall time
    meta: dict[str, Any]


def _repair(path: Path) -> None:
    """Drop a torn last line (a write the interruption cut short) before appending."""
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")


def prepare_out(cfg: RunConfig, task_ids: Sequence[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Check ``--out`` for a run to resume; return the records kept and the run's meta data."""
    cfg.out.mkdir(parents=True, exist_ok=True)
    results, meta_path = cfg.out / RESULTS, cfg.out / META
    meta = {**cfg.meta, "n": cfg.n, "labels": "pool" if cfg.pool_labels is not None else "hidden",
            "model_checks": cfg.use_model_checks}
    has_results = results.is_file() and results.stat().st_size > 0
    if not cfg.resume:
        if has_results:
            raise UsageError(f"{results} already holds results.",
                             "Pass --resume to continue that run, or choose another --out.")
        results.write_text("", encoding="utf-8")
        meta["wall_s"] = 0.0
        return [], meta
    old: dict[str, Any] = {}
    if meta_path.is_file():
        try:
            old = json.loads(meta_path.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
    for key in ("engine", "n", "labels"):
        if key in old and old[key] != meta.get(key):
            raise UsageError(f"Cannot resume: the run in {cfg.out} used {key} {old[key]!r}, not {meta.get(key)!r}.",
                             "Resume with the same settings, or choose another --out.")
    meta["wall_s"] = float(old.get("wall_s", 0.0))
    if not has_results:
        results.write_text("", encoding="utf-8")
        return [], meta
    _repair(results)
    wanted = set(task_ids)
    kept = [r for r in read_records(results) if r["task_id"] in wanted]
    return kept, meta


def _humaneval_hidden(sandbox: Sandbox, task: HumanEvalTask, codes: Mapping[int, str], timeout_s: float
                      ) -> Mapping[int, HiddenResult]:
    return run_hidden(sandbox, task, codes, timeout_s=timeout_s)


def _labels_hidden(sandbox: Sandbox, task: HumanEvalTask, result: SolveResult, timeout_s: float,
                   hidden: HiddenRunner | None = None) -> dict[int, tuple[bool, str]]:
    codes = {c.index: c.code or "" for c in result.candidates if c.parsed and c.duplicate_of is None}
    ran = (hidden or _humaneval_hidden)(sandbox, task, codes, timeout_s)
    labels: dict[int, tuple[bool, str]] = {}
    for c in result.candidates:
        if not c.parsed:
            labels[c.index] = (False, f"not run: {c.error or 'no code'}")
        else:
            h = ran[c.duplicate_of if c.duplicate_of is not None else c.index]
            labels[c.index] = (h.passed, h.detail)
    return labels


def _labels_pool(stored: Sequence[bool], result: SolveResult) -> dict[int, tuple[bool, str]]:
    return {c.index: (bool(stored[c.index]), "pool label") if c.index < len(stored) else (False, "no label")
            for c in result.candidates}


class _Runner:
    def __init__(self, engines: BenchEngines, sandbox: Sandbox, settings: Settings, cfg: RunConfig) -> None:
        self.engines, self.sandbox, self.settings, self.cfg = engines, sandbox, settings, cfg
        self.events: queue.Queue[BenchEvent | tuple[str, dict[str, Any]]] = queue.Queue()
        self.sessions: dict[str, Session] = {}
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def solve_one(self, task: HumanEvalTask) -> dict[str, Any]:
        if self.stop.is_set():
            raise Cancelled("Cancelled.")
        started = time.monotonic()
        n = self.cfg.task_n.get(task.task_id, self.cfg.n) if self.cfg.task_n else self.cfg.n
        self.events.put(ProblemStarted(task.task_id))
        engine = self.engines.for_task(task.task_id)
        session = Session(engine, self.sandbox, self.settings, self.engines.manifest)
        with self.lock:
            self.sessions[task.task_id] = session
        try:
            problem = parse_problem(task.prompt)
            result = None
            for event in session.solve(problem, n, use_model_checks=self.cfg.use_model_checks):
                if isinstance(event, StageStarted):
                    self.events.put(ProblemStage(task.task_id, event.stage))
                elif isinstance(event, ProposalReady):
                    result = event.result
                if self.stop.is_set():
                    session.cancel()
            if result is None:
                raise Cancelled("Cancelled.")
            hidden_started = time.monotonic()
            if self.cfg.pool_labels is not None:
                labels = _labels_pool(self.cfg.pool_labels.get(task.task_id, ()), result)
                source = "pool"
            else:
                self.events.put(ProblemStage(task.task_id, "hidden"))
                labels = _labels_hidden(self.sandbox, task, result, self.cfg.hidden_timeout_s, self.cfg.hidden)
                source = "hidden"
            timing = {**result.timing, "hidden": round(time.monotonic() - hidden_started, 3),
                      "engine": round(engine.engine_s, 3), "wall": round(time.monotonic() - started, 3)}
            return build_record(task.task_id, result, labels, n=n, label_source=source,
                                completions=engine.completions, timing=timing)
        finally:
            with self.lock:
                self.sessions.pop(task.task_id, None)

    def cancel_all(self) -> None:
        self.stop.set()
        with self.lock:
            for s in self.sessions.values():
                s.cancel()


def error_record(task: HumanEvalTask, n: int, message: str, source: str) -> dict[str, Any]:
    """A problem the pipeline could not run (a prompt it cannot parse, an engine error): it
    counts as failed and wrong."""
    return {"version": 1, "task_id": task.task_id, "entry_point": task.entry_point, "examples": 0, "n": n,
            "k": n, "labels": source, "status": "failed", "reliability": 0.0, "raw_reliability": 0.0,
            "calibrated": False, "reason": message, "best": None, "passed": False, "clusters": [],
            "candidates": [], "completions": [], "timing": {}, "tokens": 0, "notes": [], "error": message}


def run_bench(
    tasks: Sequence[HumanEvalTask],
    engines: BenchEngines,
    sandbox: Sandbox,
    settings: Settings,
    cfg: RunConfig,
    on_event: Callable[[BenchEvent], None] | None = None,
) -> RunOutcome:
    """Solve every task not already in ``cfg.out``; append each record as it completes."""
    kept, meta = prepare_out(cfg, [t.task_id for t in tasks])
    done_ids = {r["task_id"] for r in kept}
    todo = [t for t in tasks if t.task_id not in done_ids]
    meta.update(tasks=len(tasks), workers=max(1, min(cfg.workers, engines.workers)),
                machine=f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at start")
    (cfg.out / META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    results_path = cfg.out / RESULTS
    runner = _Runner(engines, sandbox, settings, cfg)
    records = {r["task_id"]: r for r in kept}
    started = time.monotonic()
    new = 0
    source = "pool" if cfg.pool_labels is not None else "hidden"
    pool = ThreadPoolExecutor(max_workers=meta["workers"], thread_name_prefix="bench")
    try:
        futures: dict[Future[dict[str, Any]], HumanEvalTask] = {pool.submit(runner.solve_one, t): t for t in todo}
        pending = set(futures)
        while pending:
            while True:
                try:
                    event = runner.events.get_nowait()
                except queue.Empty:
                    break
                if on_event is not None and not isinstance(event, tuple):
                    on_event(event)
            finished = [f for f in pending if f.done()]
            if not finished:
                time.sleep(0.05)
                continue
            for f in finished:
                pending.discard(f)
                task = futures[f]
                try:
                    record = f.result()
                except Cancelled:
                    continue
                except VibecodeError as exc:
                    record = error_record(task, cfg.n, exc.message, source)
                except Exception as exc:  # a bug in the pipeline: recorded, counted wrong, run goes on
                    record = error_record(task, cfg.n, f"internal error: {type(exc).__name__}: {exc}", source)
                append_record(results_path, record)
                records[task.task_id] = record
                new += 1
                if on_event is not None:
                    on_event(ProblemDone(task.task_id, record, len(records), len(tasks)))
    except BaseException:
        runner.cancel_all()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        wall = time.monotonic() - started
        meta["wall_s"] = round(float(meta.get("wall_s", 0.0)) + wall, 3)
        (cfg.out / META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    pool.shutdown(wait=True)
    ordered = [records[t.task_id] for t in tasks if t.task_id in records]
    return RunOutcome(ordered, new, wall, meta)
