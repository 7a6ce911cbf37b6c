"""llama.cpp in process, through llama-cpp-python's low-level API (:mod:`vibecode.engine.llama_lib`).

Every request, ``n=1`` included, takes the same batched path, as llama.cpp's ``batched`` and
``parallel`` examples do, and a batch of requests (``stream_batch``: the K candidates of a solve
and its helper requests) is one such batch:

1. The prompts' common prefix is evaluated once into sequence 0, which doubles as a prefix cache
   (a later batch that shares a prefix with it only evaluates the tokens after it); then each
   distinct prompt's rest once, into the first of its sequences (:mod:`.llama_prompt`).
2. Every sequence has its own KV stream (:mod:`.llama_context`), so its attention reads its own
   cells only; the prompt's cells are copied into the other sequences' streams
   (``llama_memory_seq_cp``, applied at the next decode).
3. One decode loop samples a token per live sequence of every request, each with its request's
   parameters, and decodes them all in one ``llama_decode`` call per step (:mod:`.llama_decode`);
   as sequences finish, the live ones are moved down to consecutive ids, so that one step stays
   one batch for llama.cpp.

The context and its fit live in :mod:`.llama_context`, a sequence's state in :mod:`.llama_seq`.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from vibecode.config import Settings
from vibecode.engine import lengths, plan
from vibecode.engine.base import CANDIDATE, Request, StreamingEngine, sequence_seeds
from vibecode.engine.chat_template import render_chat
from vibecode.engine.llama_context import (
    N_BATCH,
    PREFIX_SEQ,
    LlamaContext,
    check_fits,
    create_context,
    free_context,
    stream_cells,
)
from vibecode.engine.llama_decode import DecodeLoop
from vibecode.engine.llama_lib import build_info, clear_log, lib, load_error
from vibecode.engine.llama_prompt import eval_prefix, eval_prompts, shared_prefix
from vibecode.engine.llama_seq import SeqState, free_seq, new_seq
from vibecode.engine.meter import EngineStats
from vibecode.engine.nucleus import ParallelDraws
from vibecode.engine.text import BUDGET_FORCE_TEXT
from vibecode.errors import EngineError, ModelLoadError
from vibecode.models import ResolvedModel, check_gguf
from vibecode.types import ChatMessage, EngineInfo, RequestFailed, SamplingParams, StreamEvent

__all__ = ["INITIAL_TOKENS", "N_BATCH", "PREFIX_SEQ", "LlamaCppEngine", "ParallelDraws"]

INITIAL_TOKENS = 4096  # the first context holds one sequence of this many tokens (grown on demand)


@dataclass(frozen=True)
class _Prepared:
    """A request of a batch, tokenized and seeded: ``index`` is its place in the batch."""

    index: int
    request: Request
    tokens: list[int]
    seeds: list[int]


class LlamaCppEngine(StreamingEngine):
    def __init__(self, model: ResolvedModel, settings: Settings) -> None:
        check_gguf(model.path)
        self.model_ref = model
        self.settings = settings
        self.stats = EngineStats()
        self._llama = lib()
        self._lock = threading.Lock()
        self._ctx: LlamaContext | None = None
        self._build = build_info()
        self._model = self._load_model()
        ll = self._llama
        self._vocab = ll.llama_model_get_vocab(self._model)
        self.n_vocab = int(ll.llama_vocab_n_tokens(self._vocab))
        self.n_ctx_train = int(ll.llama_model_n_ctx_train(self._model))
        # one sequence's context (what a single request may use); a batch's KV streams grow on
        # demand, up to settings.n_ctx cells in all (``_get_context``)
        self.n_ctx = min(settings.n_ctx, self.n_ctx_train)
        self.n_threads = settings.n_threads or os.cpu_count() or 1
        # A speed stand-in made by scripts/make_shape_twin.py: the real model's shapes, random weights.
        self.shape_twin = self._metadata("vibecode.shape_twin")
        template = ll.llama_model_chat_template(self._model, None)
        self._template = template.decode("utf-8", "replace") if template else None
        self._bos_text = self._token_text(ll.llama_vocab_bos(self._vocab))
        self._eos_text = self._token_text(ll.llama_vocab_eos(self._vocab))
        self._add_bos = bool(ll.llama_vocab_get_add_bos(self._vocab))
        self._pieces: dict[int, bytes] = {}
        self._eog: list[int] | None = None
        self._force_tokens = self.tokenize(BUDGET_FORCE_TEXT, special=False)
        # Draws over threads only with cores to spare: on 2 loaded cores it measured 0.77-1.24x.
        self._draws = ParallelDraws(min(self.n_threads, 4) if (os.cpu_count() or 1) >= 4 else 1)
        self._get_context(1, min(self.n_ctx, INITIAL_TOKENS))

    # -- loading -------------------------------------------------------------------------------

    def _load_model(self) -> Any:
        ll = self._llama
        params = ll.llama_model_default_params()
        params.n_gpu_layers = self._requested_gpu_layers()
        clear_log()
        model = ll.llama_model_load_from_file(str(self.model_ref.path).encode(), params)
        if not model:
            raise ModelLoadError(
                f"llama.cpp could not load {self.model_ref.path}: {load_error()}.",
                "The file may be truncated or corrupt; download it again (vibecode models pull).",
            )
        return model

    def _metadata(self, key: str) -> str | None:
        """A string from the model file's metadata, or None when it has no such key."""
        buf = ctypes.create_string_buffer(256)
        n = self._llama.llama_model_meta_val_str(self._model, key.encode(), buf, len(buf))
        return buf.value.decode("utf-8", "replace") if n >= 0 else None

    def _requested_gpu_layers(self) -> int:
        if self.settings.n_gpu_layers is not None:
            return self.settings.n_gpu_layers
        return 999 if self._build["gpu_offload"] else 0

    def _get_context(self, n_seqs: int, longest: int) -> LlamaContext:
        """The context, recreated with more streams or longer ones when a batch of ``n_seqs``
        sequences of up to ``longest`` tokens needs them (the caller checked the fit). It never
        shrinks: where ``settings.n_ctx`` allows, a grown context keeps the larger of the old and
        the new size on each axis, so that the batches of a solve and its later small requests
        (claim verdicts) reuse it, and the prefix cache with it."""
        streams, per = 1 + n_seqs, stream_cells(longest)
        c = self._ctx
        if c is not None and c.streams >= streams and c.per_stream >= per:
            return c
        if c is not None and max(streams, c.streams) * max(per, c.per_stream) <= self.settings.n_ctx:
            streams, per = max(streams, c.streams), max(per, c.per_stream)
        self._free_context()
        self._ctx = create_context(self._llama, self._model, streams, per, self.n_threads,
                                   self.settings.kv_cache_type)
        return self._ctx

    def _free_context(self) -> None:
        if self._ctx is not None:
            free_context(self._llama, self._ctx)
            self._ctx = None

    def close(self) -> None:
        with self._lock:
            self._free_context()
            self._draws.close()
            if self._model:
                self._llama.llama_model_free(self._model)
                self._model = None

    # -- tokens --------------------------------------------------------------------------------

    def tokenize(self, text: str, special: bool = True, add_bos: bool = False) -> list[int]:
        data = text.encode("utf-8")
        size = len(data) + 16
        buf = (self._llama.llama_token * size)()
        n = self._llama.llama_tokenize(self._vocab, data, len(data), buf, size, add_bos, special)
        if n < 0:
            size = -n
            buf = (self._llama.llama_token * size)()
            n = self._llama.llama_tokenize(
                self._vocab, data, len(data), buf, size, add_bos, special
            )
        return list(buf[:n])

    def count_tokens(self, text: str) -> int:
        return len(self.tokenize(text))

    def _token_text(self, token: int) -> str:
        if token < 0:
            return ""
        raw = self._llama.llama_vocab_get_text(self._vocab, token)
        return raw.decode("utf-8", "replace") if raw else ""

    def _piece(self, token: int) -> bytes:
        piece = self._pieces.get(token)
        if piece is None:
            buf = ctypes.create_string_buffer(64)
            n = self._llama.llama_token_to_piece(self._vocab, token, buf, 64, 0, False)
            if n < 0:
                buf = ctypes.create_string_buffer(-n)
                n = self._llama.llama_token_to_piece(self._vocab, token, buf, -n, 0, False)
            piece = self._pieces[token] = buf.raw[:n]
        return piece

    def _eog_tokens(self) -> list[int]:
        if self._eog is None:
            is_eog = self._llama.llama_vocab_is_eog
            self._eog = [t for t in range(self.n_vocab) if is_eog(self._vocab, t)]
        return self._eog

    def prompt_tokens(self, messages: Sequence[ChatMessage], prefill: str = "") -> list[int]:
        text = render_chat(self._template, messages, self._bos_text, self._eos_text) + prefill
        add_bos = self._add_bos and not (self._bos_text and text.startswith(self._bos_text))
        return self.tokenize(text, special=True, add_bos=add_bos)

    # -- sampling ------------------------------------------------------------------------------

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        """One request: the one-request case of :meth:`stream_batch` (a bad ``n`` raises)."""
        seeds = sequence_seeds(params, n)
        request = _Prepared(0, Request(messages, params, n, purpose),
                            self.prompt_tokens(messages, params.prefill), seeds)
        yield from self._run([request], cancel)

    def stream_batch(
        self, requests: Sequence[Request], *, cancel: threading.Event | None = None
    ) -> Iterator[StreamEvent]:
        """All sequences of all ``requests`` in one batch: their common prompt prefix evaluated
        once, each distinct prompt's rest once, then one decode loop. A request that cannot be
        answered (a bad ``n``) ends in a RequestFailed and the others go on; a batch that does
        not fit in the context raises ContextOverflow, as ``stream`` does."""
        prepared: list[_Prepared] = []
        for index, r in enumerate(requests):
            try:
                seeds = sequence_seeds(r.params, r.n)
            except EngineError as exc:
                yield RequestFailed(index, exc.message, exc)
                continue
            prepared.append(_Prepared(index, r, self.prompt_tokens(r.messages, r.params.prefill),
                                      seeds))
        if prepared:
            yield from self._run(prepared, cancel)

    def _run(self, prepared: list[_Prepared], cancel: threading.Event | None) -> Iterator[StreamEvent]:
        ll = self._llama
        with self._lock:
            if self._model is None:
                raise EngineError("This engine was closed.")
            prompts = [p.tokens for p in prepared]
            shared = shared_prefix(prompts)
            heads: dict[tuple[int, ...], int] = {}  # distinct prompt -> its first sequence id
            ids: list[list[int]] = []
            for p in prepared:
                first = 1 + sum(len(q) for q in ids)
                ids.append(list(range(first, first + len(p.seeds))))
                heads.setdefault(tuple(p.tokens), first)
            counts = [len(p.seeds) for p in prepared]
            per_seq = [p.request.params.max_tokens + len(self._force_tokens) for p in prepared]
            longest = max(len(p.tokens) + n for p, n in zip(prepared, per_seq, strict=True))
            check_fits(counts, [p.request.params.max_tokens for p in prepared], self.settings.n_ctx,
                       self.n_ctx_train, self.settings.n_ctx, longest)
            c = self._get_context(sum(counts), longest)
            started = time.monotonic()
            self.stats = EngineStats(
                total_prompt_tokens_evaluated=self.stats.total_prompt_tokens_evaluated)
            memory = ll.llama_get_memory(c.ctx)
            seqs: list[SeqState] = []
            decode_start: float | None = None
            try:
                for seq_id in range(1, 1 + sum(counts)):
                    ll.llama_memory_seq_rm(memory, seq_id, -1, -1)
                reused, evaluated = eval_prefix(ll, c, prompts[0][:shared], cancel)
                distinct = [list(t) for t in heads]
                logits, prompt_tokens = eval_prompts(ll, c, distinct, list(heads.values()), shared, cancel)
                evaluated += prompt_tokens
                self._count_prompt(sum(len(t) for t in prompts), reused, evaluated)
                self.stats.prompt_s = time.monotonic() - started
                for p, seq_ids in zip(prepared, ids, strict=True):
                    head = heads[tuple(p.tokens)]
                    for local, (seq_id, seed) in enumerate(zip(seq_ids, p.seeds, strict=True)):
                        if seq_id != head:  # the prompt's stream, copied at the first decode
                            ll.llama_memory_seq_cp(memory, head, seq_id, -1, -1)
                        seqs.append(new_seq(ll, p.index, local, seq_id, seed, p.request.params,
                                            len(p.tokens), logits.get(head, -1), self.n_vocab,
                                            self._eog_tokens()))
                decode_start = time.monotonic()
                loop = DecodeLoop(ll, c, self._vocab, self.n_vocab, self._piece,
                                  self._force_tokens, self._draws, self.stats)
                yield from loop.run(seqs, cancel)
            finally:
                if decode_start is not None:
                    self.stats.decode_s = time.monotonic() - decode_start
                    self._record_rate(len(seqs))
                    self._record_lengths(prepared, seqs)
                for seq_id in range(1, 1 + sum(counts)):
                    ll.llama_memory_seq_rm(memory, seq_id, -1, -1)
                for s in seqs:
                    free_seq(ll, s)

    def _count_prompt(self, tokens: int, reused: int, evaluated: int) -> None:
        self.stats.prompt_tokens = tokens
        self.stats.prompt_tokens_reused = reused
        self.stats.prompt_tokens_evaluated = evaluated
        self.stats.total_prompt_tokens_evaluated += evaluated

    def _record_rate(self, k: int) -> None:
        """Refresh this model's measured speed on this machine (engine/plan.py's cache)."""
        key = plan.model_key(self.model_ref.id, self._build["backend"])
        plan.record(key, k, self.stats.generated_tokens, self.stats.decode_s)

    def _record_lengths(self, prepared: Sequence[_Prepared], seqs: Sequence[SeqState]) -> None:
        """Refresh how long this model's candidates run (engine/lengths.py's cache): each finished
        candidate sequence's tokens against its budget. Cancelled ones are left out (an early stop
        cancels the longest, so the record leans short; the estimate says "about", never "up to")."""
        candidates = {p.index for p in prepared if p.request.purpose == CANDIDATE}
        finished = [(s.text.tokens, s.params.max_tokens) for s in seqs
                    if s.request in candidates and s.finish in ("stop", "length")]
        lengths.record(plan.model_key(self.model_ref.id, self._build["backend"]), finished)

    def info(self) -> EngineInfo:
        gpu_layers = 0
        if self._build["gpu_offload"]:
            n_layer = int(self._llama.llama_model_n_layer(self._model)) if self._model else 0
            gpu_layers = min(self._requested_gpu_layers(), n_layer + 1)
        return EngineInfo(
            engine="llama",
            model=self.model_ref.id,
            backend=self._build["backend"],
            gpu_layers=gpu_layers,
            n_ctx=self.n_ctx,
            n_ctx_train=self.n_ctx_train,
            n_threads=self.n_threads,
            extra={"path": str(self.model_ref.path), "llama_cpp": self._build["version"],
                   "kv_cache_type": self.settings.kv_cache_type,
                   "kv_cells": str(self._ctx.n_ctx if self._ctx is not None else 0),
                   **({"shape_twin": self.shape_twin} if self.shape_twin else {})},
        )

