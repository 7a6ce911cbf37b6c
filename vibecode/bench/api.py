"""The benchmark operations the CLI calls: run HumanEval, run stored pools, re-score, calibrate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.bench.calibration import calibration_json, fit_map, write_map
from vibecode.bench.dataset import HumanEvalTask, load_humaneval, select_tasks, with_pool_ids
from vibecode.bench.engines import open_bench_engines
from vibecode.bench.pools import read_pools
from vibecode.bench.record import append_record, read_records
from vibecode.bench.report import write_outputs
from vibecode.bench.rescore import changed, rescore_record
from vibecode.bench.runner import RESULTS, BenchEvent, RunConfig, run_bench
from vibecode.bench.summary import calibration_pairs, holdout_check
from vibecode.clr.score import Calibration
from vibecode.config import Settings
from vibecode.errors import UsageError
from vibecode.sandbox import make_sandbox


@dataclass
class BenchResult:
    out: Path
    summary: dict[str, Any]
    new: int  # problems solved in this call (the rest were resumed)
    notice: str | None = None


def run_humaneval(
    settings: Settings,
    cfg: RunConfig,
    *,
    n: int | None = None,
    ids: Sequence[str] | None = None,
    limit: int | None = None,
    on_event: Callable[[BenchEvent], None] | None = None,
    plot: bool = True,
) -> BenchResult:
    """``vibecode bench humaneval``: the pipeline on HumanEval prompts, scored by the hidden tests.

    ``n``: candidates per problem; None: ``settings.n``, or for a replay file of several
    problems, as many as it holds for each.
    """
    cfg.n = n or settings.n
    engines = open_bench_engines(settings, cfg.workers)
    try:
        tasks = load_humaneval()
        if engines.task_ids is not None:  # a replay file of some problems (or pools): those
            tasks = with_pool_ids(tasks, engines.task_ids)
            if n is None:  # as many candidates as the file holds for each problem
                cfg.task_n = dict(engines.candidates)
                cfg.n = max(engines.candidates.values())
        tasks = select_tasks(tasks, ids, limit)
        cfg.meta.setdefault("engine", engines.spec)
        sandbox = make_sandbox(settings.sandbox, settings)
        outcome = run_bench(tasks, engines, sandbox, settings, cfg, on_event)
    finally:
        engines.close()
    summary = write_outputs(outcome.records, cfg.out, outcome.meta, "vibecode bench humaneval", plot)
    return BenchResult(cfg.out, summary, outcome.new, engines.notice)


def run_pools(
    pools_path: Path,
    settings: Settings,
    cfg: RunConfig,
    *,
    ids: Sequence[str] | None = None,
    limit: int | None = None,
    on_event: Callable[[BenchEvent], None] | None = None,
    plot: bool = True,
) -> BenchResult:
    """``vibecode bench replay POOLS``: the selector on stored pools, scored by their labels."""
    pools = read_pools(pools_path)
    tasks: list[HumanEvalTask] = select_tasks(pools.tasks, ids, limit) if ids or limit else pools.tasks
    cfg.pool_labels = pools.labels
    cfg.task_n = {t: len(v) for t, v in pools.labels.items()}
    cfg.n = max(cfg.task_n.values())
    cfg.meta.setdefault("engine", f"replay:{pools_path}")
    settings = settings.with_overrides(engine=f"replay:{pools_path}")
    engines = open_bench_engines(settings, cfg.workers)
    try:
        sandbox = make_sandbox(settings.sandbox, settings)
        outcome = run_bench(tasks, engines, sandbox, settings, cfg, on_event)
    finally:
        engines.close()
    summary = write_outputs(outcome.records, cfg.out, outcome.meta, "vibecode bench replay", plot)
    return BenchResult(cfg.out, summary, outcome.new)


def rescore_file(results: Path, out: Path, calibration: Calibration | None, plot: bool = True
                 ) -> tuple[dict[str, Any], int]:
    """``vibecode bench rescore``: decide again from stored evidence; returns (summary, changed)."""
    records = read_records(results)
    if not records:
        raise UsageError(f"{results} holds no records.")
    new = [rescore_record(r, calibration) for r in records]
    out.mkdir(parents=True, exist_ok=True)
    target = out / RESULTS
    if target.resolve() == results.resolve():
        raise UsageError("Re-scoring would overwrite its own input.", "Choose another --out.")
    target.write_text("", encoding="utf-8")
    for r in new:
        append_record(target, r)
    meta = {"rescored_from": str(results), "calibrated": calibration is not None}
    summary = write_outputs(new, out, meta, "vibecode bench rescore", plot)
    return summary, changed(records, new)


def calibrate_file(results: Sequence[Path], target: Path, model: str | None) -> dict[str, Any]:
    """``vibecode bench calibrate``: fit the isotonic map on every record, write it to ``target``;
    also report the held-out check (fit on even-numbered problems, measure on the odd ones)."""
    records = [r for path in results for r in read_records(path)]
    xs, ys = calibration_pairs(records)
    cal = fit_map(xs, ys)
    data = calibration_json(cal, xs, ys, ", ".join(str(p) for p in results), model)
    write_map(target, data)
    return {"path": str(target), "points": len(xs), "map": {"x": list(cal.x), "y": list(cal.y)},
            "holdout": holdout_check(records)}
