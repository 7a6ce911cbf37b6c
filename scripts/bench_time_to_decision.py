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

The replay's clock stops while the streaming probe's runs are in the sandbox (``ReplayClock``):
otherwise each second of sandbox time during sampling would let --speedup seconds of decoding go
by, a distortion the real rate does not have. Those seconds then count once, on top of decoding
(an upper bound: really they overlap it). ``--replay-runs-on`` keeps the old clock. With
``--verbose`` each pool also has a ``breakdown``: its events in simulated seconds (each candidate
finished, each probe run done, why sampling went on, the stop) and the seconds from the end of
sampling to the decision by stage (verify, claims, differential, stress, score).

    python scripts/bench_time_to_decision.py --pools pools.jsonl [--limit N] [--seed S]

Prints one JSON object: per mode the median time, accuracy (the proposal's pool label) and the
precision of "verified"; the ratio of medians; and per pool the figures with --verbose.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vibecode.bench.pools import read_pools  # noqa: E402
from vibecode.clr.execute import CandidateRunner  # noqa: E402
from vibecode.config import Settings  # noqa: E402
from vibecode.engine import replay as replay_module  # noqa: E402
from vibecode.engine.base import CANDIDATE  # noqa: E402
from vibecode.engine.replay import ReplayEngine  # noqa: E402
from vibecode.engine.sampling import Budget  # noqa: E402
from vibecode.events import CandidateSampled, ProposalReady, StageFinished, StageStarted  # noqa: E402
from vibecode.problems.statement import parse_problem  # noqa: E402
from vibecode.sandbox import make_sandbox  # noqa: E402
from vibecode.session import Session  # noqa: E402
from vibecode.solve import sample_stage as sample_stage_module  # noqa: E402
from vibecode.solve.pipeline import SolveContext, solve  # noqa: E402
from vibecode.solve.streaming import Probe  # noqa: E402
from vibecode.types import ChatMessage, SamplingParams, SolveResult, StreamEvent  # noqa: E402


class ReplayClock:
    """The replay's clock (``vibecode.engine.replay`` reads it as its ``time``): real time, except
    that it stands still while a probe run is in the sandbox (``paused``). So the sandbox's time
    during sampling counts once, as at the simulated rate, rather than the speedup times over (at
    10 tokens/s a 0.4 s run lets 4 tokens decode, not 400). Counting it on top of decoding, rather
    than overlapping, is an upper bound of the wall it costs."""

    def __init__(self) -> None:
        self.enabled = True
        self._lock = threading.Lock()
        self._running = 0
        self._since = 0.0
        self.pauses: list[tuple[float, float]] = []  # real (start, end) of each pause

    def paused_before(self, t: float) -> float:
        with self._lock:
            done = sum(max(0.0, min(b, t) - a) for a, b in self.pauses if a < t)
            return done + (max(0.0, t - self._since) if self._running else 0.0)

    def monotonic(self) -> float:
        now = time.monotonic()
        return now - self.paused_before(now)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    def pause(self) -> None:
        with self._lock:
            if self.enabled and not self._running:
                self._since = time.monotonic()
            self._running += self.enabled

    def resume(self) -> None:
        with self._lock:
            if self.enabled and self._running:
                self._running -= 1
                if not self._running:
                    self.pauses.append((self._since, time.monotonic()))

    def reset(self) -> None:
        with self._lock:
            self._running, self.pauses = 0, []


CLOCK = ReplayClock()
replay_module.time = CLOCK  # type: ignore[assignment]


class TimedReplay(ReplayEngine):
    """The replay engine, recording when each request was decoding (by purpose)."""

    def __init__(self, path: Path, tps: float) -> None:
        super().__init__(path, tps=tps)
        self.spans: list[tuple[str, float, float]] = []
        self._spans_lock = threading.Lock()

    def stream(self, messages: Sequence[ChatMessage], params: SamplingParams, n: int = 1, *,
               purpose: str = CANDIDATE, cancel: threading.Event | None = None) -> Iterator[StreamEvent]:
        started = CLOCK.monotonic()
        try:
            yield from super().stream(messages, params, n, purpose=purpose, cancel=cancel)
        finally:
            with self._spans_lock:
                self.spans.append((purpose, started, CLOCK.monotonic()))

    def busy_s(self, helpers_only: bool = False, until: float = float("inf")) -> float:
        """How long at least one request (a helper one, with ``helpers_only``) was decoding (before
        ``until``, a time of the replay's clock)."""
        spans = sorted((a, min(b, until)) for p, a, b in self.spans if (not helpers_only or p != CANDIDATE) and a < until)
        total, end = 0.0, float("-inf")
        for a, b in spans:
            if b > end:
                total += b - max(a, end)
                end = b
        return total


PROBES: list[Probe] = []  # the probes of the current solve


class TracedProbe(Probe):
    """The streaming probe, kept where the bench can read its trace afterwards."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        PROBES.append(self)
        self.runner = PausingRunner(self.runner)  # type: ignore[assignment]

    def submit(self, job: Callable[[], object]) -> None:
        super().submit(lambda: _paused(job))


def _paused(job: Callable[[], Any]) -> Any:
    CLOCK.pause()
    try:
        return job()
    finally:
        CLOCK.resume()


class PausingRunner:
    """A candidate runner whose runs stop the replay's clock (``ReplayClock``)."""

    def __init__(self, inner: CandidateRunner) -> None:
        self.inner = inner

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return _paused(lambda: self.inner.run(*args, **kwargs))


sample_stage_module.Probe = TracedProbe  # type: ignore[misc]


def _lines(path: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip():
            obj = json.loads(raw)
            out.setdefault(obj["task_id"], []).append(obj)
    return out


def _run(session: Session, runner: CandidateRunner, replay: Path, prompt: str, n: int, tps: float,
         until: str, streaming: bool, speedup: float) -> tuple[SolveResult, float, TimedReplay, dict[str, Any]]:
    engine = TimedReplay(replay, tps=tps)
    ctx = SolveContext(engine=engine, runner=runner, params=session.params(), helper_params=session.helper_params(),
                       budget=Budget(None), until=until, streaming=streaming)
    PROBES.clear()
    CLOCK.reset()
    started = time.monotonic()
    result = None
    marks: list[tuple[float, str]] = []
    for event in solve(ctx, parse_problem(prompt), n):
        if isinstance(event, ProposalReady):
            result = event.result
        elif isinstance(event, CandidateSampled):
            marks.append((time.monotonic(), f"candidate {event.index} sampled"))
        elif isinstance(event, (StageStarted, StageFinished)):
            marks.append((time.monotonic(), f"{event.stage} {'starts' if isinstance(event, StageStarted) else 'ends'}"))
    took = time.monotonic() - started
    assert result is not None
    return result, took, engine, _breakdown(engine, started, speedup, marks, result)


def _breakdown(engine: TimedReplay, started: float, speedup: float, marks: list[tuple[float, str]],
               result: SolveResult) -> dict[str, Any]:
    """Where one solve's time went, in simulated seconds from its start: the pipeline's events,
    the probe's trace (each candidate finished, each run done, why sampling went on, the stop),
    and the seconds from the end of sampling to the ProposalReady by stage."""

    def sim(t: float) -> float:
        return round(t - started + (speedup - 1) * engine.busy_s(until=t - CLOCK.paused_before(t)), 1)

    probe = PROBES[-1] if PROBES else None
    trace = sorted([*marks, *getattr(probe, "trace", [])])
    sample_end = next((t for t, what in marks if what == "sample ends"), started)
    stop = next((t for t, what in trace if what.startswith("stop:")), None)
    return {
        "stop_sim_s": sim(stop) if stop is not None else None,
        "sampling_sim_s": sim(sample_end),
        "after_sampling_s": round(time.monotonic() - sample_end, 2),
        "after_sampling_by_stage_s": {k: v for k, v in result.timing.items() if k not in ("sample", "total")},
        "went_on_because": getattr(probe, "waiting", None) if stop is None else None,
        "trace": [[sim(t), what] for t, what in trace],
    }


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
        "median_sampling_sim_s": round(statistics.median(r[mode]["sampling_sim_s"] for r in rows), 1),
        "median_after_sampling_s": round(statistics.median(r[mode]["after_sampling_s"] for r in rows), 2),
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
    ap.add_argument("--verbose", action="store_true", help="per pool: the figures and where the time went")
    ap.add_argument("--replay-runs-on", action="store_true",
                    help="let the replay decode on while the probe's sandbox runs (the old clock: the "
                         "sandbox's time during sampling then counts --speedup times over)")
    args = ap.parse_args()
    CLOCK.enabled = not args.replay_runs_on
    pools = read_pools(args.pools)
    lines = _lines(args.pools)
    rng = random.Random(args.seed)
    tps = args.rate * args.speedup
    sandbox = make_sandbox("local", Settings())
    session = Session(None, sandbox, Settings())  # type: ignore[arg-type]
    runner = CandidateRunner(sandbox)
    rows: list[dict[str, Any]] = []
    load = os.getloadavg()[0]
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
                result, took, engine, parts = _run(session, runner, replay, task.prompt, len(cands), tps, until,
                                                   streaming, args.speedup)
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
                    "sampling_sim_s": parts["sampling_sim_s"],
                    "after_sampling_s": parts["after_sampling_s"],
                }
                if args.verbose:
                    row[mode]["breakdown"] = parts
            rows.append(row)
    base, fast = _summary(rows, "baseline"), _summary(rows, "streaming")
    bare = _summary(rows, "baseline_candidates_only")
    out: dict[str, Any] = {
        "pools": len(rows),
        "rate_tokens_per_s": args.rate,
        "speedup": args.speedup,
        "tokens_per_answer": [args.min_tokens, args.max_tokens],
        "until": args.until,
        "replay_clock": "runs on during sandbox runs" if args.replay_runs_on else "stops during the probe's sandbox runs",
        "load_at_start": round(load, 2),
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
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
