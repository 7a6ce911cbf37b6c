"""The llama.cpp context of :class:`vibecode.engine.llama.LlamaCppEngine`: its KV cache layout
(one unified cache; sequence 0 holds the last shared prompt prefix, sequences 1..capacity
generate), how it is created, and whether a batch of requests fits in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vibecode.engine.llama_lib import kv_type
from vibecode.errors import ContextOverflow, EngineError

PREFIX_SEQ = 0  # the sequence that holds the last evaluated shared prompt prefix
DEFAULT_SEQ_CAPACITY = 32  # generation sequences a context is created for (grown on demand)
INITIAL_CELLS = 32768  # KV cells of the first context, at most (grown on demand, up to settings.n_ctx)
N_BATCH = 512  # tokens per llama_decode call (n_batch = n_ubatch)


@dataclass
class LlamaContext:
    ctx: Any
    batch: Any
    n_ctx: int
    capacity: int  # generation sequences (ids 1..capacity)
    cached: list[int] = field(default_factory=list)  # tokens held by PREFIX_SEQ


def create_context(ll: Any, model: Any, n_ctx: int, capacity: int, n_threads: int,
                   kv_cache_type: str) -> LlamaContext:
    """A context of ``n_ctx`` KV cells for ``capacity`` generation sequences plus PREFIX_SEQ."""
    params = ll.llama_context_default_params()
    params.n_ctx = n_ctx
    params.n_batch = N_BATCH
    params.n_ubatch = N_BATCH
    params.n_seq_max = capacity + 1
    params.kv_unified = True
    params.n_threads = n_threads
    params.n_threads_batch = n_threads
    params.no_perf = True
    params.type_k = params.type_v = kv_type(ll, kv_cache_type)
    if params.type_v != ll.GGML_TYPE_F16:
        params.flash_attn_type = ll.LLAMA_FLASH_ATTN_TYPE_ENABLED  # a quantized V cache needs it
    ctx = ll.llama_init_from_model(model, params)
    if not ctx:
        raise EngineError(
            f"llama.cpp could not create a context of {n_ctx} tokens for {capacity} sequences.",
            "Lower n_ctx in the settings, or free memory.",
        )
    batch = ll.llama_batch_init(N_BATCH, 0, capacity + 1)  # a prompt token may serve them all
    return LlamaContext(ctx=ctx, batch=batch, n_ctx=int(ll.llama_n_ctx(ctx)), capacity=capacity)


def free_context(ll: Any, c: LlamaContext) -> None:
    ll.llama_batch_free(c.batch)
    ll.llama_free(c.ctx)


def cells_needed(prompt_cells: int, counts: list[int], per_seq: list[int]) -> int:
    """The KV cells a batch needs: its prompts' cells once, and each request's ``n x per_seq``."""
    return prompt_cells + sum(n * p for n, p in zip(counts, per_seq, strict=True))


def check_fits(prompt_cells: int, counts: list[int], per_seq: list[int], max_tokens: list[int],
               n_ctx: int, n_ctx_train: int, cap: int | None = None, longest: int = 0) -> None:
    """Raise ContextOverflow unless ``prompt_cells`` (the shared prefix and each distinct
    prompt's suffix, held once) plus every request's ``n x per_seq`` cells fit in ``n_ctx`` (the
    context as it is; the engine grows it first where ``cap``, the setting, allows) and no
    sequence (``longest``: its prompt and budget) is longer than the trained context. The largest
    K named is that of the first request (the candidates), the others as asked, within ``cap``."""
    if longest > n_ctx_train:
        error = ContextOverflow(
            f"A sequence of {longest} tokens (its prompt and its budget) is longer than the "
            f"{n_ctx_train} tokens this model was trained on.",
            "Lower --max-tokens, or shorten the problem.")
        error.max_n = 0  # type: ignore[attr-defined]
        raise error
    need = cells_needed(prompt_cells, counts, per_seq)
    if need <= n_ctx:
        return
    room = max(n_ctx, cap or 0)  # a smaller batch may still grow the context as far as the setting
    others = need - prompt_cells - counts[0] * per_seq[0]
    largest = max(0, (room - prompt_cells - others) // per_seq[0])
    asked = (f"{counts[0]} sequence(s) of up to {max_tokens[0]} tokens" if len(counts) == 1 else
             f"{sum(counts)} sequences of {len(counts)} requests (the first: {counts[0]} of up to "
             f"{max_tokens[0]} tokens)")
    error = ContextOverflow(
        f"{asked} after {prompt_cells} prompt tokens need {need} KV cells, but the context holds "
        f"{room}. " + (f"The largest K that fits is {largest}." if largest else "Not even one fits."),
        f"Lower --n or --max-tokens, or raise n_ctx (KV cells shared by the sequences; each "
        f"sequence stays within the {n_ctx_train} tokens this model was trained on).",
    )
    error.max_n = largest  # type: ignore[attr-defined]
    raise error
