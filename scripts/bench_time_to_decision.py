#!/usr/bin/env python3
"""Time to a decision: early stop + streaming verification against sample-everything-then-verify.

On HumanEval replay pools (``scripts/make_mutant_pools.py``), each candidate line gets a length
drawn uniformly from [--min-tokens, --max-tokens]; the pool's helper lines (``oracle``,
``generator``) keep their own ``tokens`` (400-1,200 from make_mutant_pools) or get one from
[--helper-min-tokens, --helper-max-tokens]. Lines are replayed with ``replay:FILE?tps=R``: all
sequences of a request decode in parallel at R tokens/s each. Each pool is solved twice through
the real pipeline and the real local sandbox:

- ``baseline``: ``--until all`` without streaming: sample every candidate, then ask the helpers
  one request after the other, then verify (the order before issue 18);
- ``streaming``: ``--until confident`` (or --until): the helpers in the candidates' batch, each
  candidate verified as it finishes, early stop.

Simulating 10 tokens/s in real time would take 150-400 s per sequence, so the rate is
``--rate`` (10) times ``--speedup`` (100): token times shrink by the speedup, sandbox times do
not. Times are reported as measured (``*_s``) and with the model's part scaled back to the
simulated rate (``*_sim_s``: measured + (speedup - 1) x the time during which at least one
request was decoding). ``baseline_candidates_only`` is the baseline without its helper requests
(measured minus their scaled time): sample the K candidates, verify, no oracle asked; the ratio
against it is reported too.

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
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.bench.pools import read_pools  # noqa: E402
from vibecode.clr.execute import CandidateRunner  # noqa: E402
from vibecode.config import Settings  # noqa: E402
from vibecode.engine.base import CANDIDATE  # noqa: E402
from vibecode.engine.replay import ReplayEngine  # noqa: E402
from vibecode.engine.sampling import Budget  # noqa: E402
from vibecode.events import ProposalReady  # noqa: E402
from vibecode.problems.statement import parse_problem  # noqa: E402
from vibecode.sandbox import make_sandbox  # noqa: E402
from vibecode.session import Session  # noqa: E402
from vibecode.solve.pipeline import SolveContext, solve  # noqa: E402
from vibecode.types import ChatMessage, SamplingParams, SolveResult, StreamEvent  # noqa: E402


class TimedReplay(ReplayEngine):
    """The replay engine, recording when each request was decoding (by purpose)."""

    def __init__(self, path: Path, tps: float) -> None:
        super().__init__(path, tps=tps)
        self.spans: list[tuple[str, float, float]] = []
        self._spans_lock = threading.Lock()

    def stream(self, messages: Sequence[ChatMessage], params: SamplingParams, n: int = 1, *,
               purpose: str = CANDIDATE, cancel: threading.Event | None = None) -> Iterator[StreamEvent]:
        started = time.monotonic()
        try:
            yield from super().stream(messages, params, n, purpose=purpose, cancel=cancel)
        finally:
            with self._spans_lock:
                self.spans.append((purpose, started, time.monotonic()))

    def busy_s(self, helpers_only: bool = False) -> float:
        """How long at least one request (a helper one, with ``helpers_only``) was decoding."""
        spans = sorted((a, b) for p, a, b in self.spans if not helpers_only or p != CANDIDATE)
        total, end = 0.0, float("-inf")
        for a, b in spans:
            if b > end:
                total += b - max(a, end)
                end = b
        return total


def _lines(path: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip():
            obj = json.loads(raw)
            out.setdefault(obj["task_id"], []).append(obj)
    return out


def _run(session: Session, runner: CandidateRunner, replay: Path, prompt: str, n: int, tps: float,
         until: str, streaming: bool) -> tuple[SolveResult, float, TimedReplay]:
    engine = TimedReplay(replay, tps=tps)
    ctx = SolveContext(engine=engine, runner=runner, params=session.params(), helper_params=session.helper_params(),
                       budget=Budget(None), until=until, streaming=streaming)
    started = time.monotonic()
    result = None
    for event in solve(ctx, parse_problem(prompt), n):
        if isinstance(event, ProposalReady):
            result = event.result
    assert result is not None
    return result, time.monotonic() - started, engine


def auroc(scores: list[float], labels: list[bool]) -> float | None:
    """The probability that a correct proposal has a higher reliability than a wrong one."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def _summary(rows: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    if mode == "baseline_candidates_only":
        return {"median_time_sim_s": round(statistics.median(r["baseline"]["candidates_only_sim_s"] for r in rows), 1)}
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
        "stopped_early": sum(r[mode]["sampled"] < r["k"] for r in rows),
        "oracle_usable": sum(str(r[mode]["oracle"]).startswith("a brute-force oracle passes") for r in rows),
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
    ap.add_argument("--helper-min-tokens", type=int, default=400)
    ap.add_argument("--helper-max-tokens", type=int, default=1200)
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
            cands = [dict(x, tokens=rng.randint(args.min_tokens, args.max_tokens))
                     for x in lines[task.task_id] if x.get("kind", CANDIDATE) == CANDIDATE]
            helpers = [dict(x, tokens=x.get("tokens") or rng.randint(args.helper_min_tokens, args.helper_max_tokens))
                       for x in lines[task.task_id] if x.get("kind", CANDIDATE) != CANDIDATE]
            replay = Path(tmp) / "pool.jsonl"
            replay.write_text("".join(json.dumps(c) + "\n" for c in [*cands, *helpers]), encoding="utf-8")
            labels = pools.labels[task.task_id]
            row: dict[str, Any] = {"task_id": task.task_id, "k": len(cands)}
            for mode, until, streaming in (("baseline", "all", False), ("streaming", args.until, True)):
                result, took, engine = _run(session, runner, replay, task.prompt, len(cands), tps, until, streaming)
                best = result.best
                sim = took + (args.speedup - 1) * engine.busy_s()
                row[mode] = {
                    "time_s": round(took, 3),
                    "time_sim_s": round(sim, 1),
                    "candidates_only_sim_s": round(sim - args.speedup * engine.busy_s(helpers_only=True), 1),
                    "oracle": result.decision.oracle,
                    "status": result.status,
                    "correct": bool(best is not None and best.index < len(labels) and labels[best.index]),
                    "reliability": round(result.decision.reliability, 4),
                    "sampled": result.sampling.get("sampled", len(result.candidates)),
                    "stopped": result.sampling.get("stopped"),
                }
            rows.append(row)
    base, fast = _summary(rows, "baseline"), _summary(rows, "streaming")
    bare = _summary(rows, "baseline_candidates_only")
    out: dict[str, Any] = {
        "pools": len(rows),
        "rate_tokens_per_s": args.rate,
        "speedup": args.speedup,
        "tokens_per_answer": [args.min_tokens, args.max_tokens],
        "until": args.until,
        "baseline": base,
        "streaming": fast,
        "ratio_median_time": round(fast["median_time_s"] / base["median_time_s"], 3),
        "baseline_candidates_only": bare,
        "ratio_median_time_sim": round(fast["median_time_sim_s"] / base["median_time_sim_s"], 3),
        "ratio_median_time_sim_vs_candidates_only": round(fast["median_time_sim_s"] / bare["median_time_sim_s"], 3),
        "verified_precision_delta_points": (round(100 * (fast["verified_precision"] - base["verified_precision"]), 2)
                                            if fast["verified_precision"] is not None
                                            and base["verified_precision"] is not None else None),
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
