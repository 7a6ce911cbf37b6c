#!/usr/bin/env python3
"""vibecode's batched sampling against llama.cpp's ``llama-batched-bench`` on the same GGUF file,
cell by cell, with the model's recommended sampling (temperature 1.0, top-p 0.95, top-k off).

    scripts/bench_engine_matrix.py --model /tmp/twin-3b.gguf --cells 8x512:f16,8x512:q8_0,1x512:f16
    scripts/bench_engine_matrix.py --model twin.gguf --k 1,4,8,16 --tokens 512,2048,4096 --kv f16,q8_0

A cell is ``KxTOKENS[:KV][:ours]``: K sequences of TOKENS generated tokens each (EOS ignored),
KV cache ``f16`` (default) or ``q8_0``; ``:ours`` skips the reference for that cell (for the
helper-sequence comparison: ``8x256:f16:ours,11x256:f16:ours``). Without ``--cells`` the cells are
every combination of ``--k``, ``--tokens`` and ``--kv``. Each cell runs vibecode and then
``llama-batched-bench`` back to back, each in its own process (so peak RSS belongs to one run),
and records ``os.getloadavg()`` before each: the machine may be shared, so compare the two sides
of one cell (``vs_reference``), not cells with each other. vibecode's side also reports where its
decode wall went: ``llama_decode``, sampling, and the rest (batch building, text, Python).
Each reference cell also runs a decode-only ceiling through vibecode's own library and context
(``ceiling_tok_s``, ``vs_ceiling``): the same work as llama-batched-bench's S_TG, available when
the binary is not built.

Prints one JSON object: ``{"model", "threads", "cells": [...]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROMPT = "Write a long, detailed story about a lighthouse keeper and a storm."
SLACK = 64  # KV cells beyond prompt + K x tokens (budget forcing, rounding)


def parse_cell(text: str) -> dict[str, Any]:
    parts = text.strip().split(":")
    k, _, tokens = parts[0].partition("x")
    kv = next((p for p in parts[1:] if p in ("f16", "q8_0")), "f16")
    unknown = [p for p in parts[1:] if p not in ("f16", "q8_0", "ours")]
    if not k.isdigit() or not tokens.isdigit() or unknown:
        raise SystemExit(f"Bad cell {text!r}: write KxTOKENS[:f16|q8_0][:ours], e.g. 8x512:q8_0.")
    return {"k": int(k), "tokens": int(tokens), "kv": kv, "reference": "ours" not in parts[1:]}


def ours_worker(model: str, k: int, tokens: int, kv: str, threads: int, n_ctx: int) -> dict[str, Any]:
    """One engine.sample(n=K) after a warm-up, timing llama_decode and the sampler calls."""
    import llama_cpp

    import vibecode.engine.llama as llama
    from vibecode.config import Settings
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage, SamplingParams

    spent = {"decode_s": 0.0, "sample_s": 0.0, "decodes": 0}
    decode = llama_cpp.llama_decode

    def timed_decode(ctx: Any, batch: Any) -> int:
        t = time.perf_counter()
        rc = decode(ctx, batch)
        spent["decode_s"] += time.perf_counter() - t
        spent["decodes"] += 1
        return int(rc)

    draw = llama.ParallelDraws.draw

    def timed_draw(self: Any, work: Any) -> list[int]:
        t = time.perf_counter()
        tokens = draw(self, work)
        spent["sample_s"] += time.perf_counter() - t
        return tokens

    llama_cpp.llama_decode = timed_decode
    llama.ParallelDraws.draw = timed_draw  # type: ignore[method-assign]
    settings = Settings(n_ctx=n_ctx, n_threads=threads, kv_cache_type=kv)
    engine = llama.LlamaCppEngine(resolve_model(model), settings)
    messages = [ChatMessage("user", PROMPT)]
    recommended = {"temperature": 1.0, "top_p": 0.95, "top_k": 0, "ignore_eos": True}
    engine.sample(messages, SamplingParams(max_tokens=4, **recommended), n=k)  # type: ignore[arg-type]
    spent.update(decode_s=0.0, sample_s=0.0, decodes=0)
    params = SamplingParams(max_tokens=tokens, seed=1, **recommended)  # type: ignore[arg-type]
    started = time.monotonic()
    completions = engine.sample(messages, params, n=k)
    wall = time.monotonic() - started
    assert all(c.completion_tokens == tokens for c in completions)
    stats = engine.stats
    rest = stats.decode_s - (spent["decode_s"] - stats.prompt_s) - spent["sample_s"]
    return {
        "tok_s": stats.generated_tokens / stats.decode_s,
        "wall_s": wall,
        "prompt_tokens": stats.prompt_tokens,
        "prompt_s": stats.prompt_s,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "profile": {
            "llama_decode_s": spent["decode_s"] - stats.prompt_s,  # generation decodes only
            "sampling_s": spent["sample_s"],
            "other_s": rest,
            "steps": spent["decodes"],
        },
    }


def ceiling_worker(model: str, k: int, tokens: int, kv: str, threads: int, n_ctx: int) -> dict[str, Any]:
    """Decode only, through the same library and context as the engine: K sequences share the
    prompt, then each step decodes one fixed token per sequence, as llama-batched-bench's text
    generation does. No sampling, no text: the ceiling of what the engine can reach."""
    import vibecode.engine.llama as llama
    from vibecode.config import Settings
    from vibecode.engine.llama_lib import batch_add
    from vibecode.engine.llama_prompt import eval_prefix
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage

    engine = llama.LlamaCppEngine(resolve_model(model), Settings(n_ctx=n_ctx, n_threads=threads,
                                                                  kv_cache_type=kv))
    prompt = engine.prompt_tokens([ChatMessage("user", PROMPT)])
    ll, c = engine._llama, engine._get_context(k, len(prompt) + tokens + SLACK)
    memory = ll.llama_get_memory(c.ctx)

    def run(steps: int) -> float:
        eval_prefix(ll, c, prompt, None)
        for seq in range(1, k + 1):  # each stream gets a copy of the prompt at the first decode
            ll.llama_memory_seq_rm(memory, seq, -1, -1)
            ll.llama_memory_seq_cp(memory, llama.PREFIX_SEQ, seq, -1, -1)
        started = time.perf_counter()
        for step in range(steps):
            c.batch.n_tokens = 0
            for seq in range(1, k + 1):
                batch_add(c.batch, prompt[-1], len(prompt) + step, seq, True)
            if ll.llama_decode(c.ctx, c.batch) != 0:
                raise SystemExit("llama_decode failed")
        return time.perf_counter() - started

    run(4)  # warm-up
    seconds = run(tokens)
    return {"tok_s": k * tokens / seconds, "tg_s": seconds,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}


def reference_binary() -> Path | None:
    found = subprocess.run([str(ROOT / "scripts" / "build_llama_examples.sh")],
                           capture_output=True, text=True, check=False)
    binary = Path(found.stdout.strip() or "/nonexistent") / "llama-batched-bench"
    if found.returncode != 0 or not binary.exists():
        print(f"llama-batched-bench not available: {found.stderr[-300:]}", file=sys.stderr)
        return None
    return binary


def reference_worker(binary: str, model: str, k: int, tokens: int, kv: str, threads: int,
                     n_ctx: int, n_prompt: int) -> dict[str, Any]:
    """llama-batched-bench's S_TG for one cell, with the engine's thread wait policy."""
    from vibecode.engine.llama_lib import set_thread_wait

    # its default KV layout, one stream per sequence, as the engine's; -pps: the prompt is
    # evaluated once and copied to each stream, as the engine does
    cmd = [binary, "-m", model, "-c", str(n_ctx), "-b", "2048", "-ub", "512", "-npp", str(n_prompt),
           "-ntg", str(tokens), "-npl", str(k), "-t", str(threads), "-pps",
           "-ctk", kv, "-ctv", kv, "--output-format", "jsonl"]
    if kv != "f16":
        cmd += ["-fa", "on"]
    env = dict(os.environ)
    set_thread_wait(env)
    started = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    wall = time.monotonic() - started
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not rows:
        raise SystemExit(f"llama-batched-bench failed ({out.returncode}):\n{out.stderr[-1500:]}")
    row = rows[-1]
    return {
        "tok_s": float(row["speed_tg"]),
        "t_tg_s": float(row["t_tg"]),
        "wall_s": wall,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0,
    }


def _spawn(args: list[str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--worker", *args],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"worker {args[0]} failed:\n{out.stderr[-2000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_cell(cell: dict[str, Any], model: str, threads: int, binary: Path | None,
             with_ceiling: bool = True) -> dict[str, Any]:
    k, tokens, kv = cell["k"], cell["tokens"], cell["kv"]
    # One KV stream per sequence on both sides (the engine's layout, llama-batched-bench's
    # default): each holds the prompt and the tokens; the engine adds one for the shared prompt.
    n_ctx = (k + 1) * (256 + tokens + SLACK)
    row: dict[str, Any] = {"k": k, "tokens": tokens, "kv": kv, "n_ctx": n_ctx}
    row["load_before_ours"] = _load()
    ours = _spawn(["ours", model, str(k), str(tokens), kv, str(threads), str(n_ctx)])
    row["ours_tok_s"] = round(ours["tok_s"], 2)
    row["ours_wall_s"] = round(ours["wall_s"], 1)
    row["ours_peak_rss_mb"] = round(ours["peak_rss_mb"], 1)
    row["profile"] = {key: round(v, 2) for key, v in ours["profile"].items()}
    row["prompt_tokens"] = ours["prompt_tokens"]
    if cell["reference"] and with_ceiling:
        row["load_before_ceiling"] = _load()
        ceiling = _spawn(["ceiling", model, str(k), str(tokens), kv, str(threads), str(n_ctx)])
        row["ceiling_tok_s"] = round(ceiling["tok_s"], 2)
        row["ceiling_peak_rss_mb"] = round(ceiling["peak_rss_mb"], 1)
        row["vs_ceiling"] = round(ours["tok_s"] / ceiling["tok_s"], 3)
    if cell["reference"] and binary is not None:
        row["load_before_reference"] = _load()
        ref = _spawn(["reference", str(binary), model, str(k), str(tokens), kv, str(threads),
                      str(n_ctx), str(ours["prompt_tokens"])])
        row["reference_tok_s"] = round(ref["tok_s"], 2)
        row["reference_tg_s"] = round(ref["t_tg_s"], 1)
        row["reference_peak_rss_mb"] = round(ref["peak_rss_mb"], 1)
        row["vs_reference"] = round(ours["tok_s"] / ref["tok_s"], 3)
    row["load_after"] = _load()
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny", help="model id or .gguf path (a shape twin)")
    parser.add_argument("--cells", help="comma-separated cells KxTOKENS[:KV][:ours]; overrides the product")
    parser.add_argument("--k", default="1,4,8,16", help="K values of the product")
    parser.add_argument("--tokens", default="512,2048,4096", help="tokens per sequence of the product")
    parser.add_argument("--kv", default="f16,q8_0", help="KV cache types of the product")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-reference", action="store_true", help="skip llama-batched-bench")
    parser.add_argument("--no-ceiling", action="store_true",
                        help="skip the decode-only ceiling (where llama-batched-bench runs: long cells)")
    parser.add_argument("--json", action="store_true", help="(the output is always JSON)")
    parser.add_argument("--worker", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, *rest = args.worker
        if kind in ("ours", "ceiling"):
            m, k, t, kv, th, ctx = rest
            work = ours_worker if kind == "ours" else ceiling_worker
            print(json.dumps(work(m, int(k), int(t), kv, int(th), int(ctx))))
        else:
            b, m, k, t, kv, th, ctx, npp = rest
            print(json.dumps(reference_worker(b, m, int(k), int(t), kv, int(th), int(ctx), int(npp))))
        return 0
    from vibecode.models import resolve_model

    if args.cells:
        cells = [parse_cell(c) for c in args.cells.split(",")]
    else:
        cells = [parse_cell(f"{k}x{t}:{kv}") for kv in args.kv.split(",")
                 for t in args.tokens.split(",") for k in args.k.split(",")]
    model = str(resolve_model(args.model).path)
    binary = None if args.no_reference else reference_binary()
    rows = []
    for cell in cells:
        rows.append(run_cell(cell, model, args.threads, binary, with_ceiling=not args.no_ceiling))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"model": model, "threads": args.threads, "cells": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
