#!/usr/bin/env python3
"""Batched sampling vs K sequential high-level calls vs llama.cpp's own llama-batched-bench.

    scripts/bench_sampling.py --model tiny --n 1,4,8,16 --tokens 256 --json

Prints a JSON list with one object per K: ``k``, ``batched_tok_s`` (aggregate generation
tokens/s of one ``engine.sample(n=K)``), ``sequential_tok_s`` (aggregate tokens/s of K
sequential ``Llama.create_completion`` calls, same model, threads and token counts, EOS
ignored), ``ratio`` (batched / sequential), ``reference_tok_s`` (``llama-batched-bench``'s S_TG
at the same K, when scripts/build_llama_examples.sh has built it), ``ttft_s`` and ``peak_rss_mb``
(peak RSS of the process that ran the batched request). Each measurement runs in its own
process so that peak RSS belongs to one K. Both sides sample with llama.cpp's usual chain
(top-k 40, top-p 0.95, temperature 0.8); llama-batched-bench does not sample at all. (Without
top-k, top-p sorts the whole vocabulary: about 0.5 ms per token for a 49k vocabulary here.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROMPT = "Write a long, detailed story about a lighthouse keeper and a storm."
WARMUP = "Say hello."


class _Row(TypedDict):
    k: int
    batched_tok_s: float
    sequential_tok_s: float
    ratio: float
    reference_tok_s: float | None
    ttft_s: float
    peak_rss_mb: float
    prompt_tokens: int


class Row(_Row, total=False):
    vs_reference: float  # only where the reference ran at this K


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def batched_worker(model: str, k: int, tokens: int, threads: int, n_ctx: int) -> dict[str, float]:
    from vibecode.config import Settings
    from vibecode.engine.llama import LlamaCppEngine
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage, SamplingParams

    engine = LlamaCppEngine(resolve_model(model), Settings(n_ctx=n_ctx, n_threads=threads))
    engine.sample([ChatMessage("user", WARMUP)], SamplingParams(max_tokens=8, ignore_eos=True), n=k)
    params = SamplingParams(temperature=0.8, top_k=40, top_p=0.95, max_tokens=tokens, ignore_eos=True, seed=1)
    completions = engine.sample([ChatMessage("user", PROMPT)], params, n=k)
    assert all(c.completion_tokens == tokens for c in completions)
    stats = engine.stats
    return {
        "tok_s": stats.generated_tokens / stats.decode_s,
        "ttft_s": stats.ttft_s,
        "prompt_tokens": stats.prompt_tokens,
        "peak_rss_mb": _peak_rss_mb(),
    }


def sequential_worker(model: str, k: int, tokens: int, threads: int, n_ctx: int) -> dict[str, float]:
    from vibecode.engine.llama_lib import set_thread_wait

    set_thread_wait(os.environ)  # as the engine does, for a fair comparison
    import llama_cpp

    from vibecode.config import Settings
    from vibecode.engine.llama import LlamaCppEngine
    from vibecode.models import resolve_model
    from vibecode.types import ChatMessage

    resolved = resolve_model(model)
    ours = LlamaCppEngine(resolved, Settings(n_ctx=1024, n_threads=1))
    prompt = ours.prompt_tokens([ChatMessage("user", PROMPT)])
    eog = ours._eog_tokens()
    ours.close()
    llm = llama_cpp.Llama(
        str(resolved.path), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
        n_gpu_layers=-1 if llama_cpp.llama_supports_gpu_offload() else 0, verbose=False,
    )
    bias = {t: float("-inf") for t in eog}
    llm.create_completion(WARMUP, max_tokens=8, logit_bias=bias)
    generated = 0
    started = time.perf_counter()
    for seed in range(k):
        out = llm.create_completion(
            prompt, max_tokens=tokens, temperature=0.8, top_k=40, top_p=0.95, seed=seed + 1,
            logit_bias=bias,
        )
        assert not isinstance(out, Iterator)  # stream=False: one response
        generated += out["usage"]["completion_tokens"]
    elapsed = time.perf_counter() - started
    return {"tok_s": generated / elapsed, "generated": generated}


def reference(
    model_path: str, ks: list[int], tokens: int, threads: int, n_prompt: int, n_ctx: int
) -> dict[int, float]:
    """llama-batched-bench's S_TG per K (empty when it has not been built)."""
    build = ROOT / "scripts" / "build_llama_examples.sh"
    found = subprocess.run([str(build)], capture_output=True, text=True, check=False)
    binary = Path(found.stdout.strip()) / "llama-batched-bench"
    if found.returncode != 0 or not binary.exists():
        print(f"reference not available: {found.stderr[-300:]}", file=sys.stderr)
        return {}
    cmd = [
        str(binary), "-m", model_path, "-c", str(n_ctx), "-b", "2048",
        "-ub", "512", "-npp", str(n_prompt), "-ntg", str(tokens), "-npl", ",".join(map(str, ks)),
        "-t", str(threads), "-pps", "--output-format", "jsonl",  # a KV stream per sequence, as the engine
    ]
    from vibecode.engine.llama_lib import set_thread_wait

    env = dict(os.environ)
    set_thread_wait(env)  # the engine's wait policy, for a fair comparison
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    result: dict[int, float] = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            result[int(row["pl"])] = float(row["speed_tg"])
    return result


def _spawn(kind: str, args: argparse.Namespace, k: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--worker", kind, "--k", str(k), "--model", args.model,
           "--tokens", str(args.tokens), "--threads", str(args.threads), "--n-ctx", str(args.n_ctx)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"{kind} worker for K={k} failed:\n{out.stderr[-2000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="tiny", help="model id or .gguf path")
    parser.add_argument("--n", default="1,4,8,16", help="comma-separated K values")
    parser.add_argument("--tokens", type=int, default=256, help="tokens per sequence")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--no-reference", action="store_true", help="skip llama-batched-bench")
    parser.add_argument("--n-ctx", type=int, help="context size for every run (default: fits the largest K)")
    parser.add_argument("--worker", choices=["batched", "sequential"], help=argparse.SUPPRESS)
    parser.add_argument("--k", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        work = batched_worker if args.worker == "batched" else sequential_worker
        print(json.dumps(work(args.model, args.k, args.tokens, args.threads, args.n_ctx)))
        return 0
    from vibecode.models import resolve_model

    ks = [int(k) for k in args.n.split(",")]
    # One context size for every K, as a user's settings would be.
    args.n_ctx = args.n_ctx or (max(ks) + 1) * (args.tokens + 576)  # a KV stream per sequence (and the prompt's)
    rows: list[Row] = []
    for k in ks:
        batched = _spawn("batched", args, k)
        sequential = _spawn("sequential", args, k)
        rows.append({
            "k": k,
            "batched_tok_s": round(batched["tok_s"], 1),
            "sequential_tok_s": round(sequential["tok_s"], 1),
            "ratio": round(batched["tok_s"] / sequential["tok_s"], 2),
            "reference_tok_s": None,
            "ttft_s": round(batched["ttft_s"], 3),
            "peak_rss_mb": round(batched["peak_rss_mb"], 1),
            "prompt_tokens": int(batched["prompt_tokens"]),
        })
        if not args.json:
            print(rows[-1], file=sys.stderr)
    if not args.no_reference:
        ref = reference(str(resolve_model(args.model).path), ks, args.tokens, args.threads,
                        rows[0]["prompt_tokens"], args.n_ctx)
        for row in rows:
            tg = ref.get(int(row["k"]))
            row["reference_tok_s"] = round(tg, 1) if tg else None
            if tg:
                row["vs_reference"] = round(float(row["batched_tok_s"]) / tg, 2)
    print(json.dumps(rows, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
