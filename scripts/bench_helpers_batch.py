#!/usr/bin/env python3
"""What the helper requests cost inside the candidates' batch: ``stream_batch`` of K candidates
alone against K candidates plus the three helper requests of a solve (the brute-force oracle,
the input generator, the edge cases), all in one llama.cpp batch.

    scripts/bench_helpers_batch.py --model /tmp/twin-3b.gguf --k 8 --tokens 256 --threads 2
    scripts/bench_helpers_batch.py --model /tmp/twin-3b.gguf --k 8 --tokens 512 --threads 2

The prompts, budgets and prefix are the pipeline's own, imported, not restated: the prompts of
``vibecode solve`` for a bundled example (vibecode.solve.prompts), each helper's budget from
vibecode.solve.helper_budgets for K candidates of ``--tokens``, and the empty think block a model
that thinks gets (``--no-prefill`` drops it, for a model that does not). Sampling is the model's
recommended one (temperature 1.0, top-p 0.95, top-k off) with EOS ignored, so every sequence runs
to its budget: the worst case, since a real helper stops when its answer is done. The machine may
be shared: the runs interleave (alone, with, alone, with, ...) and each records the load averages
before and after it.

Prints one JSON object: the budgets, the runs (wall, tokens generated per request, prompt tokens
evaluated, load), the median walls and their ratio (``with / alone``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vibecode.config import Settings  # noqa: E402
from vibecode.engine.base import Request  # noqa: E402
from vibecode.engine.llama import LlamaCppEngine  # noqa: E402
from vibecode.models import resolve_model  # noqa: E402
from vibecode.problems.statement import parse_problem  # noqa: E402
from vibecode.solve.helper_budgets import (  # noqa: E402
    EDGE_CASES,
    GENERATOR,
    NO_THINK,
    ORACLE,
    helper_request_params,
)
from vibecode.solve.prompts import (  # noqa: E402
    edge_case_batch_messages,
    generator_messages,
    oracle_messages,
    solve_messages,
)
from vibecode.types import RequestFailed, SamplingParams, SequenceDone  # noqa: E402

RECOMMENDED: dict[str, Any] = {"temperature": 1.0, "top_p": 0.95, "top_k": 0, "ignore_eos": True}


def requests(example: Path, k: int, tokens: int, prefill: str, helpers: bool) -> list[Request]:
    problem = parse_problem(example.read_text(encoding="utf-8"))
    cand = SamplingParams(max_tokens=tokens, seed=1, **RECOMMENDED)
    base = SamplingParams(seed=101, **RECOMMENDED)
    batch = [Request(solve_messages(problem), cand, k)]
    if helpers:
        prompts = {ORACLE: oracle_messages(problem), GENERATOR: generator_messages(problem),
                   EDGE_CASES: edge_case_batch_messages(problem)}
        batch += [Request(messages, helper_request_params(role, base, cand, k, prefill), 1, role)
                  for role, messages in prompts.items()]
    return batch


def run(engine: LlamaCppEngine, batch: list[Request]) -> dict[str, Any]:
    load_before = [round(x, 2) for x in os.getloadavg()]
    started = time.monotonic()
    tokens: dict[int, int] = {}
    for event in engine.stream_batch(batch):
        if isinstance(event, RequestFailed):
            raise SystemExit(f"request {event.request} failed: {event.message}")
        if isinstance(event, SequenceDone):
            tokens[event.request] = tokens.get(event.request, 0) + event.completion.completion_tokens
    wall = time.monotonic() - started
    expected = {i: r.n * r.params.max_tokens for i, r in enumerate(batch)}
    if tokens != expected:
        raise SystemExit(f"sequences stopped short of their budgets: {tokens} != {expected}")
    stats = engine.stats
    return {"wall_s": round(wall, 2), "generated_tokens": stats.generated_tokens,
            "tokens_per_request": {batch[i].purpose: n for i, n in sorted(tokens.items())},
            "prompt_tokens": stats.prompt_tokens, "prompt_tokens_evaluated": stats.prompt_tokens_evaluated,
            "prompt_s": round(stats.prompt_s, 2), "decode_s": round(stats.decode_s, 2),
            "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()]}


def projected_ratio(runs: list[dict[str, Any]], k: int, tokens: int, prefill: str, example: Path) -> float:
    """An estimate, not a measurement: the wall ratio at ``tokens`` per candidate by the token
    arithmetic of the compute-bound CPU batch, from this run's measured rates (alone: decode
    tokens/s, prompt tokens/s) and the extra prompt tokens the helpers' suffixes cost here."""
    alone = [r for r in runs if r["mode"] == "alone"]
    both = [r for r in runs if r["mode"] == "with_helpers"]
    decode = statistics.median(r["generated_tokens"] / r["decode_s"] for r in alone)
    prompt = statistics.median(r["prompt_tokens_evaluated"] / max(r["prompt_s"], 1e-9) for r in alone)
    extra_prompt = statistics.median(r["prompt_tokens_evaluated"] for r in both) - alone[0]["prompt_tokens_evaluated"]
    batch = requests(example, k, tokens, prefill, helpers=True)
    helper_tokens = sum(r.params.max_tokens for r in batch[1:])
    base = k * tokens / decode + alone[0]["prompt_tokens_evaluated"] / prompt
    return round(1 + (helper_tokens / decode + extra_prompt / prompt) / base, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny", help="model id or .gguf path (a shape twin)")
    parser.add_argument("--k", type=int, default=8, help="candidates")
    parser.add_argument("--tokens", type=int, default=256, help="tokens per candidate")
    parser.add_argument("--no-prefill", action="store_true", help="no empty think block before the helpers")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (alone, with)")
    parser.add_argument("--example", type=Path, default=ROOT / "examples" / "coin_change.md")
    parser.add_argument("--project", type=int, nargs="*", default=[1024, 4096],
                        help="candidate budgets to project the ratio to (an estimate from this run's rates)")
    args = parser.parse_args()
    prefill = "" if args.no_prefill else NO_THINK
    alone = requests(args.example, args.k, args.tokens, prefill, helpers=False)
    both = requests(args.example, args.k, args.tokens, prefill, helpers=True)
    budgets = {r.purpose: r.params.max_tokens for r in both[1:]}
    n_ctx = 2048 + args.k * (args.tokens + 64) + sum(b + 64 for b in budgets.values())
    engine = LlamaCppEngine(resolve_model(args.model), Settings(n_ctx=n_ctx, n_threads=args.threads))
    run(engine, requests(args.example, args.k, 4, prefill, helpers=True)[:1])  # the context, the weights' pages
    runs: list[dict[str, Any]] = []
    for _ in range(args.rounds):
        for name, batch in (("alone", alone), ("with_helpers", both)):
            runs.append({"mode": name, **run(engine, batch)})
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    walls = {m: statistics.median(r["wall_s"] for r in runs if r["mode"] == m)
             for m in ("alone", "with_helpers")}
    engine.close()
    candidate_tokens = args.k * args.tokens
    print(json.dumps({
        "model": str(resolve_model(args.model).path), "threads": args.threads, "k": args.k,
        "candidate_tokens": args.tokens, "helper_budgets": budgets, "helper_prefill": prefill,
        "helper_token_share": round(sum(budgets.values()) / candidate_tokens, 4),
        "sampling": "temperature 1.0, top-p 0.95, top-k off, EOS ignored",
        "runs": runs, "median_wall_alone_s": walls["alone"],
        "median_wall_with_helpers_s": walls["with_helpers"],
        "ratio": round(walls["with_helpers"] / walls["alone"], 3),
        "pair_ratios": [round(runs[i + 1]["wall_s"] / runs[i]["wall_s"], 3)
                        for i in range(0, len(runs) - 1, 2)],
        "projected_ratio_estimate": {str(t): projected_ratio(runs, args.k, t, prefill, args.example)
                                     for t in args.project},
    }, indent=2))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
