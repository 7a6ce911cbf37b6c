"""``vibecode bench leetcode``: the pipeline on LeetCode statements, scored by the package's
test cases run as hidden tests in the sandbox (:mod:`vibecode.bench.leetcode_hidden`).

With ``pools``, each problem's candidates come from replay pools (tests/data/leetcode_pools/),
each pool served in ``orders`` candidate orders; the labels still come from the hidden tests.
Problems the bench cannot run faithfully are counted and named by kind (``skipped``).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from vibecode.bench.api import BenchResult
from vibecode.bench.dataset import HumanEvalTask, base_id
from vibecode.bench.engines import open_bench_engines
from vibecode.bench.evidence import evidence_markdown
from vibecode.bench.hidden import HiddenResult
from vibecode.bench.leetcode import PREFIX, select
from vibecode.bench.leetcode_hidden import run_leetcode_hidden
from vibecode.bench.leetcode_pools import pool_figures, read_pool_set, seal, write_replay
from vibecode.bench.report import write_outputs
from vibecode.bench.runner import BenchEvent, RunConfig, run_bench
from vibecode.config import Settings
from vibecode.errors import UsageError
from vibecode.sandbox import Sandbox, make_sandbox

TITLE = "vibecode bench leetcode"
POOL_WORDS = {
    "largest_cluster_correct": "largest behaviour cluster correct",
    "wrong_majority_oracle": "wrong answers the majority, with an oracle line",
    "wrong_majority_no_oracle": "wrong answers the majority, no oracle line",
    "other": "other pools (ties, no correct candidate)",
}


TARGETS = (  # (figure, where in the summary, target, at least)
    ("verified precision", ("verified_precision",), 0.99),
    ("AUROC of reliability, right vs wrong picks", ("auroc",), 0.9),
    ("correct picks, largest behaviour cluster correct (every order)",
     ("meta", "pools", "largest_cluster_correct", "share"), 1.0),
    ("correct picks, wrong majority with an oracle line", ("meta", "pools", "wrong_majority_oracle", "share"), 1.0),
)


def targets(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each figure of issue 14's "Done when" beside its target; ``met`` None where it cannot be
    computed (no such pools, no verified pick)."""
    out = []
    for name, path, goal in TARGETS:
        value: Any = summary
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        out.append({"figure": name, "value": value, "target": goal,
                    "met": None if value is None else float(value) >= goal})
    return out


def list_problems(*, ids: Sequence[str] | None = None, difficulty: Sequence[str] | None = None,
                  part: str = "dev", limit: int | None = None) -> dict[str, Any]:
    """``--list``: the problems chosen and the skipped ones by kind, without solving anything."""
    chosen = select(ids=ids, difficulty=difficulty, part=part, limit=limit)
    return {"part": part, "problems": [t.task_id for t in chosen.tasks],
            "skipped": {k: {"count": len(v), "problems": v} for k, v in chosen.skipped.items()}}


def leetcode_markdown(summary: Mapping[str, Any]) -> str:
    """The LeetCode part of summary.md: problems skipped by kind, and the pool figures."""
    meta = summary.get("meta", {})
    lines = ["## LeetCode problems skipped, by kind", ""]
    skipped = meta.get("skipped") or {}
    if not skipped:
        lines.append("None.")
    for kind, row in skipped.items():
        names = ", ".join(row["problems"][:12]) + (", ..." if row["count"] > 12 else "")
        lines.append(f"- {kind}: {row['count']} ({names})")
    pools = meta.get("pools")
    if pools:
        lines += ["", f"## Pools ({meta.get('orders', 1)} candidate orders each)", "",
                  "| pool mode | runs | pools | correct picks | pools correct in every order | AUROC |",
                  "|---|---|---|---|---|---|"]
        for mode, row in pools.items():
            share = "n/a" if row["share"] is None else f"{100 * row['share']:.1f}%"
            area = "n/a" if row.get("auroc") is None else f"{row['auroc']:.3f}"
            lines.append(f"| {POOL_WORDS.get(mode, mode)} | {row['records']} | {row['pools']} | "
                         f"{row['correct_picks']} ({share}) | {row['pools_correct_in_every_order']} | {area} |")
        if meta.get("sealed"):
            lines += ["", f"Wrong picks: {sum(row['wrong_sealed'] for row in pools.values())}, sealed (a "
                      "held-out part: which pools they are is not shown; --unsealed shows them once the "
                      "part may be examined)."]
        wrong: dict[str, list[str]] = {}
        for row in pools.values():
            for t in row.get("wrong", []):
                pool, _, order = t.partition("~")
                wrong.setdefault(pool.removeprefix(PREFIX), []).append(order or "o0")
        if wrong:
            lines += ["", "Wrong picks, by pool (o0 is the stored order, o1 reversed, o2... shuffled): "
                      + "; ".join(f"{p} ({', '.join(o)})" for p, o in wrong.items())]
    if summary.get("evidence"):
        lines += ["", evidence_markdown(summary["evidence"]).rstrip()]
    lines += ["", "## Targets (issue 14)", "", "| figure | value | target | met |", "|---|---|---|---|"]
    for t in targets(summary):
        value = "n/a" if t["value"] is None else f"{t['value']:.3f}"
        met = "n/a" if t["met"] is None else ("yes" if t["met"] else "no")
        lines.append(f"| {t['figure']} | {value} | >= {t['target']} | {met} |")
    return "\n".join(lines) + "\n"


def _hidden(sandbox: Sandbox, task: HumanEvalTask, codes: Mapping[int, str], timeout_s: float
            ) -> Mapping[int, HiddenResult]:
    return run_leetcode_hidden(sandbox, task, codes, timeout_s=timeout_s)


def run_leetcode(
    settings: Settings,
    cfg: RunConfig,
    *,
    n: int | None = None,
    ids: Sequence[str] | None = None,
    difficulty: Sequence[str] | None = None,
    part: str = "dev",
    limit: int | None = None,
    pools: Path | None = None,
    orders: int = 1,
    on_event: Callable[[BenchEvent], None] | None = None,
    plot: bool = True,
    sealed: bool = False,
) -> BenchResult:
    """Solve the chosen problems (or serve their pools) and score the proposals by the hidden
    tests. ``sealed``: the summary counts the wrong picks of each pool mode but does not name
    their pools (results.jsonl still holds every record, for ``bench rescore``)."""
    if orders < 1:
        raise UsageError(f"--orders must be at least 1, got {orders}.")
    if orders > 1 and pools is None:
        raise UsageError("--orders needs --pools (a model's candidates have one order).")
    cfg.hidden = _hidden
    tmp: Path | None = None
    oracle: set[str] = set()
    try:
        if pools is not None:
            pool_set = read_pool_set(pools)
            chosen = select(ids=ids or [s.removeprefix(PREFIX) for s in pool_set.slugs],
                            difficulty=difficulty, part=part, limit=limit)
            by_slug = {t.task_id: t for t in chosen.tasks}
            pool_ids = [p for p in pool_set.lines if base_id(p) in by_slug]
            if not pool_ids:
                raise UsageError(f"No pool in {pools} matches the chosen problems (part {part}).",
                                 "Try --part all, or other --ids.")
            tmp = Path(tempfile.mkdtemp(prefix="vibecode-lc-pools-"))
            run_ids = write_replay(pool_set, pool_ids, orders, tmp / "pools.jsonl")
            tasks = [dataclasses.replace(by_slug[base_id(r)], task_id=r) for r in run_ids]
            settings = settings.with_overrides(engine=f"replay:{tmp / 'pools.jsonl'}")
            cfg.meta.setdefault("engine", f"replay:{pools}")
            cfg.meta["orders"] = orders
            oracle = pool_set.oracle
        else:
            chosen = select(ids=ids, difficulty=difficulty, part=part, limit=limit)
            tasks = chosen.tasks
        if not tasks:
            raise UsageError("No LeetCode problem to run: every chosen one is skipped "
                             f"({', '.join(f'{k}: {len(v)}' for k, v in chosen.skipped.items()) or 'none chosen'}).")
        cfg.meta["part"] = part
        cfg.meta["skipped"] = {k: {"count": len(v), "problems": v} for k, v in chosen.skipped.items()}
        engines = open_bench_engines(settings, cfg.workers)
        try:
            if pools is None and engines.task_ids is not None:
                # a replay file with task ids (a results.jsonl of an earlier run): its problems,
                # each under its stored id, verified again from scratch
                by_slug = {t.task_id: t for t in tasks}
                tasks = [dataclasses.replace(by_slug[base_id(i)], task_id=i) for i in engines.task_ids
                         if base_id(i) in by_slug]
                if not tasks:
                    raise UsageError("The replay file holds none of the chosen LeetCode problems.",
                                     "Choose them with --ids or --part all.")
            if pools is not None or engines.task_ids is not None:
                cfg.task_n = dict(engines.candidates)
                cfg.n = n or max(engines.candidates.values())
            else:
                cfg.n = n or settings.n
            cfg.meta.setdefault("engine", engines.spec)
            sandbox = make_sandbox(settings.sandbox, settings)
            outcome = run_bench(tasks, engines, sandbox, settings, cfg, on_event)
        finally:
            engines.close()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    meta = dict(outcome.meta)
    if pools is not None:
        figures = pool_figures(outcome.records, oracle)
        meta["pools"] = seal(figures) if sealed else figures
        meta["sealed"] = sealed
    summary = write_outputs(outcome.records, cfg.out, meta, TITLE, plot)
    summary["targets"] = targets(summary)
    (cfg.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    with (cfg.out / "summary.md").open("a", encoding="utf-8") as fh:
        fh.write("\n" + leetcode_markdown(summary))
    return BenchResult(cfg.out, summary, outcome.new, engines.notice)
