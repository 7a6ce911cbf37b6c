#!/usr/bin/env python3
"""Time to a decision: early stop + streaming verification against sample-everything-then-verify.

On HumanEval replay pools (``scripts/make_mutant_pools.py``), each candidate line gets a length
drawn uniformly from [--min-tokens, --max-tokens] and is replayed with ``replay:FILE?tps=R``: all
sequences of the request decode in parallel at R tokens/s each. Each pool is solved twice
through the real pipeline and the real local sandbox:

- ``baseline``: ``--until all`` without streaming: sample every candidate, then verify;
- ``streaming``: ``--until confident`` (or --until) with streaming verification.

Simulating 10 tokens/s in real time would take 150-400 s per sequence, so the rate is
``--rate`` (10) times ``--speedup`` (100): token times shrink by the speedup, sandbox times do
not, which makes the measured ratio conservative (at a true 10 tokens/s sampling dominates even
more). Times are reported as measured (``*_s``) and with the sampling part scaled back to the
simulated rate (``*_sim_s``: measured + (speedup - 1) x sampling stage time).

    python scripts/bench_time_to_decision.py --pools pools.jsonl [--limit N] [--seed S]

Prints one JSON object: per mode the median time, accuracy (the proposal's pool label) and the
precision of "verified"; the ratio of medians; and per pool the figures with --verbose.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.bench.pools import read_pools  # noqa: E402
from vibecode.clr.execute import CandidateRunner  # noqa: E402
from vibecode.config import Settings  # noqa: E402
from vibecode.engine.replay import ReplayEngine  # noqa: E402
from vibecode.engine.sampling import Budget  # noqa: E402
from vibecode.events import ProposalReady  # noqa: E402
from vibecode.problems.statement import parse_problem  # noqa: E402
from vibecode.sandbox import make_sandbox  # noqa: E402
from vibecode.session import Session  # noqa: E402
from vibecode.solve.pipeline import SolveContext, solve  # noqa: E402
from vibecode.types import SolveResult  # noqa: E402


def _lines(path: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip():
            obj = json.loads(raw)
            out.setdefault(obj["task_id"], []).append(obj)
    return out


def _run(session: Session, runner: CandidateRunner, replay: Path, prompt: str, n: int, tps: float,
         until: str, streaming: bool) -> tuple[SolveResult, float]:
    engine = ReplayEngine(replay, tps=tps)
    ctx = SolveContext(engine=engine, runner=runner, params=session.params(), helper_params=session.helper_params(),
                       budget=Budget(None), until=until, streaming=streaming)
    started = time.monotonic()
    result = None
    for event in solve(ctx, parse_problem(prompt), n):
        if isinstance(event, ProposalReady):
            result = event.result
    assert result is not None
    return result, time.monotonic() - started


def auroc(scores: list[float], labels: list[bool]) -> float | None:
    """The probability that a correct proposal has a higher reliability than a wrong one."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def _summary(rows: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    times = [r[mode]["time_s"] for r in rows]
    sims = [r[mode]["time_sim_s"] for r in rows]
    verified = [r[mode] for r in rows if r[mode]["status"] == "verified"]
    return {
        "median_time_s": round(statistics.median(times), 3),
        "median_time_sim_s": round(statistics.median(sims), 1),
        "accuracy": round(sum(r[mode]["correct"] for r in rows) / len(rows), 4),
        "verified": len(verified),
        "verified_precision": round(sum(v["correct"] for v in verified) / len(verified), 4) if verified else None,
        "mean_sampled": round(statistics.mean(r[mode]["sampled"] for r in rows), 2),
        "auroc": auroc([r[mode]["reliability"] for r in rows], [r[mode]["correct"] for r in rows]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rate", type=float, default=10.0, help="simulated tokens/s per sequence")
    ap.add_argument("--speedup", type=float, default=100.0, help="replay this many times faster than --rate")
    ap.add_argument("--min-tokens", type=int, default=1500)
    ap.add_argument("--max-tokens", type=int, default=4000)
    ap.add_argument("--until", default="confident", choices=["confident", "first-verified"])
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    pools = read_pools(args.pools)
    lines = _lines(args.pools)
    rng = random.Random(args.seed)
    tps = args.rate * args.speedup
    sandbox = make_sandbox("local", Settings())
    session = Session(None, sandbox, Settings())  # type: ignore[arg-type]
    runner = CandidateRunner(sandbox)
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ttd-") as tmp:
        for task in pools.tasks[: args.limit]:
            cands = [dict(x, tokens=rng.randint(args.min_tokens, args.max_tokens)) for x in lines[task.task_id]]
            replay = Path(tmp) / "pool.jsonl"
            replay.write_text("".join(json.dumps(c) + "\n" for c in cands), encoding="utf-8")
            labels = pools.labels[task.task_id]
            row: dict[str, Any] = {"task_id": task.task_id, "k": len(cands)}
            for mode, until, streaming in (("baseline", "all", False), ("streaming", args.until, True)):
                result, took = _run(session, runner, replay, task.prompt, len(cands), tps, until, streaming)
                best = result.best
                sample_s = result.timing.get("sample", 0.0)
                row[mode] = {
                    "time_s": round(took, 3),
                    "time_sim_s": round(took + (args.speedup - 1) * sample_s, 1),
                    "status": result.status,
                    "correct": bool(best is not None and best.index < len(labels) and labels[best.index]),
                    "reliability": round(result.decision.reliability, 4),
                    "sampled": result.sampling.get("sampled", len(result.candidates)),
                    "stopped": result.sampling.get("stopped"),
                }
            rows.append(row)
    base, fast = _summary(rows, "baseline"), _summary(rows, "streaming")
    out: dict[str, Any] = {
        "pools": len(rows),
        "rate_tokens_per_s": args.rate,
        "speedup": args.speedup,
        "tokens_per_answer": [args.min_tokens, args.max_tokens],
        "until": args.until,
        "baseline": base,
        "streaming": fast,
        "ratio_median_time": round(fast["median_time_s"] / base["median_time_s"], 3),
        "ratio_median_time_sim": round(fast["median_time_sim_s"] / base["median_time_sim_s"], 3),
        "accuracy_delta_points": round(100 * (fast["accuracy"] - base["accuracy"]), 2),
        "wall_s": round(time.monotonic() - started, 1),
    }
    if args.verbose:
        out["per_pool"] = rows
    runner.close()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
