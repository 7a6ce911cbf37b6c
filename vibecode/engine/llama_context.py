"""The llama.cpp context of :class:`vibecode.engine.llama.LlamaCppEngine`: its KV cache layout,
how it is created, and whether a batch of requests fits in it.

The cache is split into **one stream per sequence** (llama.cpp's ``kv_unified = false``), each of
the same number of cells: stream 0 holds the last shared prompt prefix (``PREFIX_SEQ``, a cache
between batches), streams 1..capacity generate. A sequence's attention then reads its own cells
only. In one unified cache every sequence's attention walks every cell of the batch, masked,
which at K = 8 costs more the longer the answers grow (llama-batched-bench on the 3B shape twin,
8 x 768 tokens: 15.8 tok/s unified, 19.3 tok/s in streams; README, Performance). Streams cost
memory instead: every stream is as long as the batch's longest sequence (prompt and budget),
the helpers' included, and a prompt is copied into each stream (``llama_memory_seq_cp`` between
streams copies the whole stream, at the next decode).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vibecode.engine.llama_lib import kv_type
from vibecode.errors import ContextOverflow, EngineError

PREFIX_SEQ = 0  # the sequence (and stream) that holds the last evaluated shared prompt prefix
N_BATCH = 512  # tokens per llama_decode call (n_batch = n_ubatch)
STREAM_ROUND = 256  # a stream's cells are rounded up to a multiple of this (as llama.cpp pads them)


@dataclass
class LlamaContext:
    ctx: Any
    batch: Any
    streams: int  # PREFIX_SEQ's and one per generation sequence (ids 1..streams - 1)
    per_stream: int  # KV cells of each stream: the longest sequence (prompt and budget) it holds
    cached: list[int] = field(default_factory=list)  # tokens held by PREFIX_SEQ

    @property
    def capacity(self) -> int:
        """Generation sequences (ids 1..capacity)."""
        return self.streams - 1

    @property
    def n_ctx(self) -> int:
        """KV cells in all."""
        return self.streams * self.per_stream


def stream_cells(longest: int) -> int:
    """The cells of a stream that holds sequences of up to ``longest`` tokens."""
    return -(-max(longest, 1) // STREAM_ROUND) * STREAM_ROUND


def create_context(ll: Any, model: Any, streams: int, per_stream: int, n_threads: int,
                   kv_cache_type: str) -> LlamaContext:
    """A context of ``streams`` KV streams (PREFIX_SEQ's and ``streams - 1`` generation
    sequences), ``per_stream`` cells each."""
    params = ll.llama_context_default_params()
    params.n_ctx = streams * per_stream
    params.n_batch = N_BATCH
    params.n_ubatch = N_BATCH
    params.n_seq_max = streams
    params.kv_unified = False
    params.n_threads = n_threads
    params.n_threads_batch = n_threads
    params.no_perf = True
    params.type_k = params.type_v = kv_type(ll, kv_cache_type)
    if params.type_v != ll.GGML_TYPE_F16:
        params.flash_attn_type = ll.LLAMA_FLASH_ATTN_TYPE_ENABLED  # a quantized V cache needs it
    ctx = ll.llama_init_from_model(model, params)
    if not ctx:
        raise EngineError(
            f"llama.cpp could not create a context of {streams} x {per_stream} KV cells.",
            "Lower n_ctx or --max-tokens, or free memory.",
        )
    batch = ll.llama_batch_init(N_BATCH, 0, 1)  # one sequence per token: streams share no cells
    return LlamaContext(ctx=ctx, batch=batch, streams=streams,
                        per_stream=int(ll.llama_n_ctx_seq(ctx)))


def free_context(ll: Any, c: LlamaContext) -> None:
    ll.llama_batch_free(c.batch)
    ll.llama_free(c.ctx)


def cells_needed(counts: list[int], longest: int) -> int:
    """The KV cells a batch needs: a stream for PREFIX_SEQ and one per sequence (``counts``: the
    sequences of each request), each of ``stream_cells(longest)``."""
    return (1 + sum(counts)) * stream_cells(longest)


def check_fits(counts: list[int], max_tokens: list[int], n_ctx: int, n_ctx_train: int,
               cap: int | None = None, longest: int = 0) -> None:
    """Raise ContextOverflow unless a batch of ``counts`` sequences whose longest (``longest``:
    its prompt and budget) stays within the trained context fits in ``n_ctx`` cells (the context
    as it is; the engine grows it first where ``cap``, the setting, allows). The largest K named
    is that of the first request (the candidates), the others as asked, within ``cap``."""
    if longest > n_ctx_train:
        error = ContextOverflow(
            f"A sequence of {longest} tokens (its prompt and its budget) is longer than the "
            f"{n_ctx_train} tokens this model was trained on.",
            "Lower --max-tokens, or shorten the problem.")
        error.max_n = 0  # type: ignore[attr-defined]
        raise error
    need = cells_needed(counts, longest)
    if need <= n_ctx:
        return
    room = max(n_ctx, cap or 0)  # a smaller batch may still grow the context as far as the setting
    per = stream_cells(longest)
    largest = max(0, room // per - 1 - sum(counts[1:]))
    asked = (f"{counts[0]} sequence(s) of up to {max_tokens[0]} tokens" if len(counts) == 1 else
             f"{sum(counts)} sequences of {len(counts)} requests (the first: {counts[0]} of up to "
             f"{max_tokens[0]} tokens)")
    error = ContextOverflow(
        f"{asked} need {need} KV cells ({1 + sum(counts)} streams of {per}: the longest sequence's "
        f"prompt and budget, and one stream for the shared prompt), but the context holds {room}. "
        + (f"The largest K that fits is {largest}." if largest else "Not even one fits."),
        f"Lower --n or --max-tokens, or raise n_ctx (KV cells in all; each sequence stays within "
        f"the {n_ctx_train} tokens this model was trained on).",
    )
    error.max_n = largest  # type: ignore[attr-defined]
    raise error
