#!/usr/bin/env python3
"""What the helper requests cost inside the candidates' batch: ``stream_batch`` of K candidates
alone against K candidates plus the three helper requests of a solve (the brute-force oracle,
the input generator, the edge cases), all in one llama.cpp batch.

    scripts/bench_helpers_batch.py --model /tmp/twin-3b.gguf --k 8 --tokens 256 --threads 2

The prompts are the real ones of ``vibecode solve`` for a bundled example (vibecode.solve.prompts,
the four requests solve's batch sends), so they share what the pipeline's prompts share. Sampling is the model's
recommended one (temperature 1.0, top-p 0.95, top-k off) with EOS ignored, so every sequence
runs to its budget: candidates ``--tokens``, helpers ``--helper-tokens`` (default: half of it,
the ratio of the pipeline's helper budget, session.HELPER_MAX_TOKENS = 2048, to the VibeThinker
manifests' max_tokens = 4096). The machine may be shared: the runs interleave (alone, with,
alone, with, ...) and each records the load averages before and after it.

Prints one JSON object: the runs, the median walls and their ratio (``with / alone``).
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
from vibecode.solve.prompts import (  # noqa: E402
    edge_case_batch_messages,
    generator_messages,
    oracle_messages,
    solve_messages,
)
from vibecode.types import RequestFailed, SamplingParams, SequenceDone  # noqa: E402

RECOMMENDED: dict[str, Any] = {"temperature": 1.0, "top_p": 0.95, "top_k": 0, "ignore_eos": True}


def requests(example: Path, k: int, tokens: int, helper_tokens: int, helpers: bool) -> list[Request]:
    problem = parse_problem(example.read_text(encoding="utf-8"))
    cand = SamplingParams(max_tokens=tokens, seed=1, **RECOMMENDED)
    helper = SamplingParams(max_tokens=helper_tokens, seed=101, **RECOMMENDED)
    batch = [Request(solve_messages(problem), cand, k)]
    if helpers:
        batch += [Request(oracle_messages(problem), helper, 1, "oracle"),
                  Request(generator_messages(problem), helper, 1, "generator"),
                  Request(edge_case_batch_messages(problem), helper, 1, "inputs")]
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
            "prompt_tokens": stats.prompt_tokens, "prompt_tokens_evaluated": stats.prompt_tokens_evaluated,
            "prompt_s": round(stats.prompt_s, 2), "decode_s": round(stats.decode_s, 2),
            "load_before": load_before, "load_after": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny", help="model id or .gguf path (a shape twin)")
    parser.add_argument("--k", type=int, default=8, help="candidates")
    parser.add_argument("--tokens", type=int, default=256, help="tokens per candidate")
    parser.add_argument("--helper-tokens", type=int, help="tokens per helper (default: tokens / 2)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (alone, with)")
    parser.add_argument("--example", type=Path, default=ROOT / "examples" / "coin_change.md")
    args = parser.parse_args()
    helper_tokens = args.helper_tokens or max(1, args.tokens // 2)
    n_ctx = 2048 + args.k * (args.tokens + 64) + 3 * (helper_tokens + 64)
    engine = LlamaCppEngine(resolve_model(args.model), Settings(n_ctx=n_ctx, n_threads=args.threads))
    alone = requests(args.example, args.k, args.tokens, helper_tokens, helpers=False)
    both = requests(args.example, args.k, args.tokens, helper_tokens, helpers=True)
    warm = requests(args.example, args.k, 4, 4, helpers=True)
    run(engine, warm)  # the context at its size, the pages of the weights in memory
    runs: list[dict[str, Any]] = []
    for _ in range(args.rounds):
        for name, batch in (("alone", alone), ("with_helpers", both)):
            runs.append({"mode": name, **run(engine, batch)})
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    walls = {m: statistics.median(r["wall_s"] for r in runs if r["mode"] == m)
             for m in ("alone", "with_helpers")}
    engine.close()
    print(json.dumps({
        "model": str(resolve_model(args.model).path), "threads": args.threads, "k": args.k,
        "candidate_tokens": args.tokens, "helper_tokens": helper_tokens, "helpers": 3,
        "sampling": "temperature 1.0, top-p 0.95, top-k off, EOS ignored",
        "runs": runs, "median_wall_alone_s": walls["alone"],
        "median_wall_with_helpers_s": walls["with_helpers"],
        "ratio": round(walls["with_helpers"] / walls["alone"], 3),
        "pair_ratios": [round(runs[i + 1]["wall_s"] / runs[i]["wall_s"], 3)
                        for i in range(0, len(runs) - 1, 2)],
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
