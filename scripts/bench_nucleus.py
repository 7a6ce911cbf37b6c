#!/usr/bin/env python3
"""Top-p without top-k (VibeThinker's recommended sampling): vibecode's O(V) nucleus sampler
against llama.cpp's native top-p, which sorts the whole vocabulary per token.

    scripts/bench_nucleus.py --model twin-3b.gguf --n 8 --tokens 48 [--native] --json

Runs one ``engine.sample(n=K)`` after a warm-up, temperature 1.0, top-p 0.95, top-k off, EOS
ignored, and prints ``{"sampler", "k", "tokens", "decode_tok_s", "wall_s"}``. ``--native``
forces llama.cpp's own chain for the comparison. Make the twin with scripts/make_shape_twin.py;
the tiny model's 49k vocabulary hides most of the difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="tiny")
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--native", action="store_true", help="llama.cpp's own top-p chain")
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = parser.parse_args()

    import vibecode.engine.llama as llama
    import vibecode.engine.llama_seq as llama_seq
    from vibecode.config import Settings
    from vibecode.engine.llama_context import cells_needed
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage, SamplingParams

    if args.native:
        llama_seq.wants_nucleus = lambda params: False  # where new_seq looks it up
    n_ctx = cells_needed([args.n], 256 + args.tokens)  # a KV stream per sequence; the prompt within 256
    engine = llama.LlamaCppEngine(resolve_model(args.model), Settings(n_ctx=n_ctx, n_threads=args.threads))
    prompt = [ChatMessage("user", "Write a long story about a lighthouse keeper.")]
    params = SamplingParams(temperature=1.0, top_p=0.95, top_k=0, max_tokens=args.tokens, ignore_eos=True, seed=1)
    engine.sample(prompt, SamplingParams(temperature=1.0, top_p=0.95, top_k=0, max_tokens=4, ignore_eos=True), n=args.n)
    started = time.monotonic()
    engine.sample(prompt, params, n=args.n)
    print(json.dumps({"sampler": "native" if args.native else "nucleus", "k": args.n,
                      "tokens": engine.stats.generated_tokens,
                      "decode_tok_s": round(engine.stats.tokens_per_s, 2),
                      "wall_s": round(time.monotonic() - started, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
