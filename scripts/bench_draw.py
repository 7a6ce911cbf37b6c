#!/usr/bin/env python3
"""One top-p draw (temperature 1.0, top-p 0.95, top-k off) on a model's real logits: vibecode's
binned draw against the gathered draw it replaced, and K draws spread over threads against K in
a row. Paired: the two sides alternate draw by draw, so load on the machine hits both alike.

    scripts/bench_draw.py --model /tmp/twin-3b.gguf --rounds 40 --k 8 --threads 2

Prints ``{"vocab", "kept", "gathered_ms", "binned_ms", "speedup", "serial_step_ms",
"parallel_step_ms", "parallel_speedup", "load"}`` (per draw, and per step of K draws).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="tiny")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    import numpy as np

    import vibecode.engine.llama as llama
    from vibecode.config import Settings
    from vibecode.engine.llama_context import cells_needed
    from vibecode.engine.nucleus import NucleusSampler, ParallelDraws, nucleus
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage, SamplingParams

    params = SamplingParams(temperature=1.0, top_p=0.95, top_k=0, max_tokens=3, ignore_eos=True)
    rows: list[np.ndarray] = []
    sample = NucleusSampler.sample

    def keep(self: NucleusSampler, raw: object) -> int:
        rows.append(np.array(raw, dtype=np.float32))
        return sample(self, raw)

    NucleusSampler.sample = keep  # type: ignore[method-assign]
    engine = llama.LlamaCppEngine(resolve_model(args.model), Settings(n_ctx=cells_needed([2], 256 + params.max_tokens), n_threads=args.threads))
    engine.sample([ChatMessage("user", "Write a story.")], params, n=2)
    engine.close()
    NucleusSampler.sample = sample  # type: ignore[method-assign]

    binned, gathered = NucleusSampler(params, 1), NucleusSampler(params, 1)
    t_binned = t_gathered = 0.0
    for _ in range(args.rounds):
        for x in rows:
            t = time.perf_counter()
            binned.sample(x)
            t_binned += time.perf_counter() - t
            t = time.perf_counter()
            gathered._sample_min_p(x)  # min-p 0 keeps every token: the gathered draw
            t_gathered += time.perf_counter() - t
    draws = args.rounds * len(rows)
    step = [(NucleusSampler(params, i), rows[i % len(rows)]) for i in range(args.k)]
    pool = ParallelDraws(args.threads)
    t_serial = t_parallel = 0.0
    for _ in range(args.rounds):
        t = time.perf_counter()
        [s.sample(x) for s, x in step]
        t_serial += time.perf_counter() - t
        t = time.perf_counter()
        pool.draw(step)
        t_parallel += time.perf_counter() - t
    pool.close()
    print(json.dumps({
        "vocab": len(rows[0]), "kept": len(nucleus(rows[0], 0.95)),
        "gathered_ms": round(t_gathered / draws * 1000, 2), "binned_ms": round(t_binned / draws * 1000, 2),
        "speedup": round(t_gathered / t_binned, 2),
        "serial_step_ms": round(t_serial / args.rounds * 1000, 1),
        "parallel_step_ms": round(t_parallel / args.rounds * 1000, 1),
        "parallel_speedup": round(t_serial / t_parallel, 2),
        "load": [round(x, 2) for x in os.getloadavg()],
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
