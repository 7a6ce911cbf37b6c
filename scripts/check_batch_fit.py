#!/usr/bin/env python3
"""Whether solve's default batch fits the engine's KV cache: K candidates of ``max_tokens`` and
the three helper requests at their budgets (``vibecode/solve/helper_budgets.py``), with a
problem statement as the shared prompt. It admits the batch and cancels it at its first token,
so it decodes nothing worth timing; it prints JSON: the settings, the trained context, and either
the KV cells the batch took or the engine's refusal.

    scripts/check_batch_fit.py --model /tmp/twin-3b.gguf            # the shape twin, defaults
    scripts/check_batch_fit.py --model /tmp/twin-3b.gguf --n-ctx 32768   # the old default

Before ``ce77fd4`` the cache held at most min(n_ctx, trained context) cells, and K=8 x 4,096
tokens (32,928 cells before any prompt) never fit a model trained on 32,768 tokens.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vibecode.config import Settings
from vibecode.engine.base import Request
from vibecode.engine.llama import LlamaCppEngine
from vibecode.errors import Cancelled, ContextOverflow
from vibecode.models import resolve_model
from vibecode.solve.helper_budgets import EDGE_CASES, GENERATOR, ORACLE, helper_budget
from vibecode.types import ChatMessage, SamplingParams, TokenDelta

STATEMENT = ("Given an integer array coins of different denominations and an integer amount, return "
             "the fewest number of coins needed to make up that amount, or -1. ") * 8


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny", help="model id or .gguf path")
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=4096)
    parser.add_argument("--n-ctx", type=int, help="the setting (default: vibecode's)")
    args = parser.parse_args()
    settings = Settings(n_threads=2) if args.n_ctx is None else Settings(n_threads=2, n_ctx=args.n_ctx)
    engine = LlamaCppEngine(resolve_model(args.model), settings)
    messages = [ChatMessage("user", STATEMENT)]
    candidates = SamplingParams(max_tokens=args.max_tokens, temperature=1.0, top_p=0.95, top_k=0)
    helpers = [Request(messages, SamplingParams(max_tokens=helper_budget(role, args.n, args.max_tokens)), 1, role)
               for role in (ORACLE, GENERATOR, EDGE_CASES)]
    cancel = threading.Event()
    out: dict[str, object] = {"model": args.model, "n": args.n, "max_tokens": args.max_tokens,
                              "n_ctx_setting": settings.n_ctx, "n_ctx_train": engine.n_ctx_train,
                              "helper_tokens": sum(r.params.max_tokens for r in helpers)}
    try:
        for event in engine.stream_batch([Request(messages, candidates, args.n), *helpers], cancel=cancel):
            if isinstance(event, TokenDelta):
                cancel.set()
        out["fits"] = True
    except ContextOverflow as exc:
        out["fits"], out["refused"] = False, exc.message
    except Cancelled:
        out["fits"] = True
    if out["fits"]:
        out["kv_cells"] = int(engine.info().extra["kv_cells"])
    engine.close()
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
