#!/usr/bin/env python3
"""Where does batched greedy decoding drift from single-sequence greedy decoding?

    scripts/greedy_drift.py --model tiny --tokens 256 --json

At temperature 0 the K sequences of one request are identical to each other, but llama.cpp's
kernels depend on the batch size, so a K-sequence run can drift from a 1-sequence run after a
while. For each prompt and K this prints the first token position at which the batched text
differs from the single-sequence text (null: no difference within --tokens), and whether the K
sequences agreed with each other. Positions are counted on the retokenized texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROMPTS = (
    "Write a long story about a dragon who learns to cook.",
    "List the prime numbers below 100 and explain why each is prime.",
    "Explain step by step how merge sort works, with an example.",
)


def main() -> int:
    from vibecode.config import Settings
    from vibecode.engine.llama import LlamaCppEngine
    from vibecode.engine.llama_context import cells_needed
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage, SamplingParams

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny")
    parser.add_argument("--tokens", type=int, default=256)
    parser.add_argument("--n", default="2,8,16")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ks = [int(k) for k in args.n.split(",")]
    engine = LlamaCppEngine(resolve_model(args.model), Settings(n_ctx=cells_needed([max(ks)], 1024 + args.tokens)))
    params = SamplingParams(temperature=0, max_tokens=args.tokens, ignore_eos=True)
    rows = []
    for prompt in PROMPTS:
        messages = [ChatMessage("user", prompt)]
        [single] = engine.sample(messages, params, n=1)
        reference = engine.tokenize(single.text, special=False)
        for k in ks:
            batch = engine.sample(messages, params, n=k)
            tokens = engine.tokenize(batch[0].text, special=False)
            drift = next((i for i, (a, b) in enumerate(zip(reference, tokens, strict=False)) if a != b), None)
            rows.append({"prompt": prompt[:40], "k": k, "first_divergence": drift,
                         "sequences_identical": all(c.text == batch[0].text for c in batch)})
    print(json.dumps(rows, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
