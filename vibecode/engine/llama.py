"""llama.cpp in process, through llama-cpp-python's low-level API (:mod:`vibecode.engine.llama_lib`).

Every request, ``n=1`` included, takes the same batched path, as llama.cpp's ``batched`` and
``parallel`` examples do:

1. The prompt is evaluated once into sequence 0, which doubles as a prefix cache: a later prompt
   that shares a prefix with the previous one only evaluates the tokens after it.
2. Sequence 0's KV cells are shared with sequences 1..n (``llama_memory_seq_cp``; the KV cache is
   unified, so sharing copies nothing).
3. Each step samples one token per live sequence with that sequence's own sampler (the native
   chain, or :mod:`vibecode.engine.nucleus` for top-p without top-k, which would make the native
   chain sort the whole vocabulary) and decodes all of them in one ``llama_decode`` call.
   Finished sequences leave the batch.

Per sequence the engine applies stop strings, end-of-generation tokens and budget forcing: when
the thinking passes its budget (or the model ends while still thinking) it injects text that
closes the think block, so a reasoning model always gets to answer.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from vibecode.config import Settings
from vibecode.engine import plan
from vibecode.engine.base import CANDIDATE, StreamingEngine, make_completion, sequence_seeds
from vibecode.engine.chat_template import render_chat
from vibecode.engine.llama_lib import (
    batch_add,
    build_info,
    clear_log,
    kv_type,
    lib,
    load_error,
    logits_at,
    make_sampler,
    token_logprob,
)
from vibecode.engine.meter import EngineStats
from vibecode.engine.nucleus import NucleusSampler, ParallelDraws, wants_nucleus
from vibecode.engine.text import BUDGET_FORCE_TEXT, SequenceText, thinking_budget
from vibecode.errors import ContextOverflow, EngineError, ModelLoadError
from vibecode.models import ResolvedModel, check_gguf
from vibecode.types import (
    ChatMessage,
    Completion,
    EngineInfo,
    FinishReason,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)

PREFIX_SEQ = 0  # the sequence that holds the last evaluated prompt
DEFAULT_SEQ_CAPACITY = 32  # generation sequences a context is created for (grown on demand)
N_BATCH = 512


@dataclass
class _Seq:
    seq_id: int
    seed: int
    sampler: Any
    text: SequenceText
    pos: int
    logits_at: int  # batch index of the logits this sequence samples from next
    started: float
    logprob: float = 0.0
    finish: FinishReason | None = None


@dataclass
class _Context:
    ctx: Any
    batch: Any
    n_ctx: int
    capacity: int  # generation sequences (ids 1..capacity)
    cached: list[int] = field(default_factory=list)  # tokens held by PREFIX_SEQ


class LlamaCppEngine(StreamingEngine):
    def __init__(self, model: ResolvedModel, settings: Settings) -> None:
        check_gguf(model.path)
        self.model_ref = model
        self.settings = settings
        self.stats = EngineStats()
        self._llama = lib()
        self._lock = threading.Lock()
        self._ctx: _Context | None = None
        self._build = build_info()
        self._model = self._load_model()
        ll = self._llama
        self._vocab = ll.llama_model_get_vocab(self._model)
        self.n_vocab = int(ll.llama_vocab_n_tokens(self._vocab))
        self.n_ctx_train = int(ll.llama_model_n_ctx_train(self._model))
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
        self._get_context(DEFAULT_SEQ_CAPACITY)

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

    def _get_context(self, n_seqs: int) -> _Context:
        """The context, recreated with more sequences when a request needs them."""
        if self._ctx is not None and self._ctx.capacity >= n_seqs:
            return self._ctx
        self._free_context()
        ll = self._llama
        capacity = max(n_seqs, DEFAULT_SEQ_CAPACITY)
        params = ll.llama_context_default_params()
        params.n_ctx = self.n_ctx
        params.n_batch = N_BATCH
        params.n_ubatch = N_BATCH
        params.n_seq_max = capacity + 1
        params.kv_unified = True
        params.n_threads = self.n_threads
        params.n_threads_batch = self.n_threads
        params.no_perf = True
        params.type_k = params.type_v = kv_type(ll, self.settings.kv_cache_type)
        if params.type_v != ll.GGML_TYPE_F16:
            params.flash_attn_type = ll.LLAMA_FLASH_ATTN_TYPE_ENABLED  # a quantized V cache needs it
        ctx = ll.llama_init_from_model(self._model, params)
        if not ctx:
            raise EngineError(
                f"llama.cpp could not create a context of {self.n_ctx} tokens for "
                f"{capacity} sequences.",
                "Lower n_ctx in the settings, or free memory.",
            )
        batch = ll.llama_batch_init(N_BATCH, 0, 1)
        self._ctx = _Context(
            ctx=ctx, batch=batch, n_ctx=int(ll.llama_n_ctx(ctx)), capacity=capacity
        )
        return self._ctx

    def _free_context(self) -> None:
        if self._ctx is not None:
            self._llama.llama_batch_free(self._ctx.batch)
            self._llama.llama_free(self._ctx.ctx)
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

    def _check_fits(self, n: int, n_prompt: int, max_tokens: int, n_ctx: int) -> None:
        per_seq = max_tokens + len(self._force_tokens)
        if n_prompt + n * per_seq <= n_ctx:
            return
        largest = max(0, (n_ctx - n_prompt) // per_seq)
        error = ContextOverflow(
            f"{n} sequence(s) of up to {max_tokens} tokens after a {n_prompt}-token prompt need "
            f"{n_prompt + n * per_seq} KV cells, but the context holds {n_ctx}. "
            + (f"The largest K that fits is {largest}." if largest else "Not even one fits."),
            f"Lower --n or --max-tokens, or raise n_ctx (this model was trained on "
            f"{self.n_ctx_train} tokens).",
        )
        error.max_n = largest  # type: ignore[attr-defined]
        raise error

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        seeds = sequence_seeds(params, n)
        prompt = self.prompt_tokens(messages, params.prefill)
        with self._lock:
            if self._model is None:
                raise EngineError("This engine was closed.")
            ctx = self._get_context(n)
            self._check_fits(n, len(prompt), params.max_tokens, ctx.n_ctx)
            yield from self._generate(ctx, prompt, params, seeds, cancel)

    def _generate(
        self,
        c: _Context,
        prompt: list[int],
        params: SamplingParams,
        seeds: list[int],
        cancel: threading.Event | None,
    ) -> Iterator[StreamEvent]:
        ll = self._llama
        memory = ll.llama_get_memory(c.ctx)
        started = time.monotonic()
        self.stats = EngineStats(
            total_prompt_tokens_evaluated=self.stats.total_prompt_tokens_evaluated
        )
        last = self._eval_prompt(c, prompt, cancel)
        self.stats.prompt_s = time.monotonic() - started
        think_budget = thinking_budget(params)
        seqs = []
        for i, seed in enumerate(seeds):
            seq_id = i + 1
            ll.llama_memory_seq_rm(memory, seq_id, -1, -1)
            ll.llama_memory_seq_cp(memory, PREFIX_SEQ, seq_id, -1, -1)
            text = SequenceText(params.stop, think_budget, params.prefill)
            banned = self._eog_tokens() if params.ignore_eos else ()
            sampler = (NucleusSampler(params, seed, banned) if wants_nucleus(params)
                       else make_sampler(self._llama, params, seed, self.n_vocab, banned))
            seqs.append(_Seq(seq_id, seed, sampler, text, len(prompt), last, started))
        decode_start = time.monotonic()
        try:
            live = list(seqs)
            while live:
                c.batch.n_tokens = 0
                drawn = self._draw_nucleus(c, live)
                for s in live:
                    if cancel is not None and cancel.is_set():
                        s.finish = "cancelled"
                        continue
                    yield from self._step(c, s, params, drawn.get(s.seq_id))
                for s in [s for s in live if s.finish is not None]:
                    live.remove(s)
                    self.stats.generated_tokens += s.text.tokens
                    tail = s.text.finish()  # text held back in case it began a stop string
                    if tail:
                        yield TokenDelta(s.seq_id - 1, tail, s.text.tokens, s.text.phase)
                    yield SequenceDone(s.seq_id - 1, self._completion(s, len(prompt), params))
                if not live:
                    break
                if ll.llama_decode(c.ctx, c.batch) != 0:
                    raise EngineError("llama_decode failed (out of KV cache space?).")
        finally:
            for s in seqs:
                ll.llama_memory_seq_rm(memory, s.seq_id, -1, -1)
                if not isinstance(s.sampler, NucleusSampler):
                    ll.llama_sampler_free(s.sampler)
            self.stats.decode_s = time.monotonic() - decode_start
            self._record_rate(len(seqs))

    def _record_rate(self, k: int) -> None:
        """Refresh this model's measured speed on this machine (engine/plan.py's cache)."""
        key = plan.model_key(self.model_ref.id, self._build["backend"])
        plan.record(key, k, self.stats.generated_tokens, self.stats.decode_s)

    def _draw_nucleus(self, c: _Context, live: list[_Seq]) -> dict[int, int]:
        """This step's tokens of the sequences sampled by NucleusSampler, drawn in parallel."""
        mine = [s for s in live if isinstance(s.sampler, NucleusSampler)]
        views = [logits_at(self._llama, c.ctx, s.logits_at, self.n_vocab) for s in mine]
        tokens = self._draws.draw([(s.sampler, v) for s, v in zip(mine, views, strict=True)])
        return {s.seq_id: token for s, token in zip(mine, tokens, strict=True)}

    def _step(
        self, c: _Context, s: _Seq, params: SamplingParams, drawn: int | None = None
    ) -> Iterator[TokenDelta]:
        """Sample one token for ``s`` (unless ``drawn`` already is); queue what it must decode
        next (or mark it finished)."""
        ll = self._llama
        if drawn is not None:
            token = drawn
        else:
            token = ll.llama_sampler_sample(s.sampler, c.ctx, s.logits_at)
        if params.logprobs:
            s.logprob += token_logprob(self._llama, c.ctx, s.logits_at, token, self.n_vocab)
        if not self.stats.ttft_s:
            self.stats.ttft_s = time.monotonic() - s.started
        queue: list[int] = []
        if ll.llama_vocab_is_eog(self._vocab, token):
            if not (s.text.in_thinking and not s.text.budget_forced):
                s.finish = "stop"
                return
            # The model ended while thinking: close the block so it still answers.
            queue, visible = self._force(s)
        else:
            visible = s.text.feed(self._piece(token))
            if s.text.stopped:
                s.finish = "stop"
            elif s.text.tokens >= params.max_tokens:
                s.finish = "length"
            if visible or s.finish:
                yield TokenDelta(s.seq_id - 1, visible, s.text.tokens, s.text.phase)
            if s.finish:
                return
            queue = [token]
            visible = ""
            if s.text.needs_budget_forcing():
                forced, visible = self._force(s)
                queue += forced
        if visible:
            yield TokenDelta(s.seq_id - 1, visible, s.text.tokens, s.text.phase, budget_forced=True)
        for token_id in queue:
            batch_add(c.batch, token_id, s.pos, s.seq_id, False)
            s.pos += 1
        c.batch.logits[c.batch.n_tokens - 1] = True
        s.logits_at = c.batch.n_tokens - 1

    def _force(self, s: _Seq) -> tuple[list[int], str]:
        s.text.budget_forced = True
        return list(self._force_tokens), s.text.force(BUDGET_FORCE_TEXT)

    def _completion(self, s: _Seq, n_prompt: int, params: SamplingParams) -> Completion:
        return make_completion(
            s.seq_id - 1,
            s.text,
            s.finish or "stop",
            n_prompt,
            s.seed,
            time.monotonic() - s.started,
            s.logprob if params.logprobs else None,
        )

    def _eval_prompt(self, c: _Context, tokens: list[int], cancel: threading.Event | None) -> int:
        """Evaluate ``tokens`` into the prefix sequence, reusing the cached prefix.

        Returns the batch index of the last prompt token's logits.
        """
        ll = self._llama
        memory = ll.llama_get_memory(c.ctx)
        reuse = _common_prefix(c.cached, tokens)
        reuse = min(reuse, len(tokens) - 1)  # the last token is always evaluated for its logits
        if not ll.llama_memory_seq_rm(memory, PREFIX_SEQ, reuse, -1):
            ll.llama_memory_clear(memory, True)
            reuse = 0
        c.cached = tokens[:reuse]
        todo = tokens[reuse:]
        for start in range(0, len(todo), N_BATCH):
            if cancel is not None and cancel.is_set():
                break
            chunk = todo[start : start + N_BATCH]
            c.batch.n_tokens = 0
            for offset, token in enumerate(chunk):
                batch_add(c.batch, token, reuse + start + offset, PREFIX_SEQ, False)
            c.batch.logits[c.batch.n_tokens - 1] = True
            if ll.llama_decode(c.ctx, c.batch) != 0:
                c.cached = []
                ll.llama_memory_clear(memory, True)
                raise EngineError("llama_decode failed while evaluating the prompt.")
            c.cached = tokens[: reuse + start + len(chunk)]
        self.stats.prompt_tokens = len(tokens)
        self.stats.prompt_tokens_reused = reuse
        self.stats.prompt_tokens_evaluated = len(tokens) - reuse
        self.stats.total_prompt_tokens_evaluated += len(tokens) - reuse
        return c.batch.n_tokens - 1

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
                   **({"shape_twin": self.shape_twin} if self.shape_twin else {})},
        )


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
