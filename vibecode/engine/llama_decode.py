"""The decode loop of a llama.cpp batch: every sequence of every request in one loop.

Each step samples one token per live sequence with that sequence's own sampler (the nucleus
sequences' draws together, over threads where there are cores to spare), applies that
sequence's stop strings, end-of-generation tokens, token budget and budget forcing (when the
thinking passes its budget, or the model ends while still thinking, it injects text that closes
the think block, so a reasoning model always gets to answer), and decodes the tokens of all of
them in one ``llama_decode`` call. Finished sequences leave the batch, and the live ones move
down to consecutive sequence ids (:meth:`DecodeLoop._compact`): every sequence has its own KV
stream, and llama.cpp splits a step whose sequence ids are not consecutive into several
computations, one per run of consecutive ids.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from vibecode.engine.llama_context import LlamaContext
from vibecode.engine.llama_lib import batch_add, logits_at, token_logprob
from vibecode.engine.llama_seq import SeqState, completion_of
from vibecode.engine.meter import EngineStats
from vibecode.engine.nucleus import NucleusSampler, ParallelDraws
from vibecode.engine.text import BUDGET_FORCE_TEXT
from vibecode.errors import EngineError
from vibecode.types import SequenceDone, StreamEvent, TokenDelta


class DecodeLoop:
    def __init__(self, ll: Any, c: LlamaContext, vocab: Any, n_vocab: int,
                 piece: Callable[[int], bytes], force_tokens: list[int], draws: ParallelDraws,
                 stats: EngineStats) -> None:
        self.ll, self.c, self.vocab, self.n_vocab = ll, c, vocab, n_vocab
        self.piece, self.force_tokens, self.draws, self.stats = piece, force_tokens, draws, stats

    def run(self, seqs: list[SeqState], cancel: threading.Event | None) -> Iterator[StreamEvent]:
        """Generate until every sequence has finished (or ``cancel`` is set: all finish then)."""
        c = self.c
        live = list(seqs)
        while live:
            self._compact(live)
            c.batch.n_tokens = 0
            if cancel is not None and cancel.is_set():
                for s in live:
                    s.finish = "cancelled"
            else:
                drawn = self._draw_nucleus(live)
                for s in live:
                    if cancel is not None and cancel.is_set():
                        s.finish = "cancelled"
                    else:
                        yield from self._step(s, drawn.get(s.seq_id))
            for s in [s for s in live if s.finish is not None]:
                live.remove(s)
                self.stats.generated_tokens += s.text.tokens
                tail = s.text.finish()  # text held back in case it began a stop string
                if tail:
                    yield TokenDelta(s.local, tail, s.text.tokens, s.text.phase, request=s.request)
                yield SequenceDone(s.local, completion_of(s), request=s.request)
            if live and self.ll.llama_decode(c.ctx, c.batch) != 0:
                raise EngineError("llama_decode failed (out of KV cache space?).")

    def _compact(self, live: list[SeqState]) -> None:
        """Give the live sequences the ids 1..len(live), in order: each one above its place
        moves its stream down (``llama_memory_seq_cp``, applied in order at the next decode,
        then the old id is freed). A place is free: the sequence that had it finished or moved."""
        if all(s.seq_id == i for i, s in enumerate(live, start=1)):
            return
        memory = self.ll.llama_get_memory(self.c.ctx)
        live.sort(key=lambda s: s.seq_id)
        for place, s in enumerate(live, start=1):
            if s.seq_id != place:
                self.ll.llama_memory_seq_cp(memory, s.seq_id, place, -1, -1)
                self.ll.llama_memory_seq_rm(memory, s.seq_id, -1, -1)
                s.seq_id = place

    def _draw_nucleus(self, live: list[SeqState]) -> dict[int, int]:
        """This step's tokens of the sequences sampled by NucleusSampler, drawn in parallel."""
        mine = [s for s in live if isinstance(s.sampler, NucleusSampler)]
        views = [logits_at(self.ll, self.c.ctx, s.logits_at, self.n_vocab) for s in mine]
        tokens = self.draws.draw([(s.sampler, v) for s, v in zip(mine, views, strict=True)])
        return {s.seq_id: token for s, token in zip(mine, tokens, strict=True)}

    def _step(self, s: SeqState, drawn: int | None) -> Iterator[TokenDelta]:
        """Sample one token for ``s`` (unless ``drawn`` already is); queue what it must decode
        next (or mark it finished)."""
        ll, c = self.ll, self.c
        token = drawn if drawn is not None else ll.llama_sampler_sample(s.sampler, c.ctx, s.logits_at)
        if s.params.logprobs:
            s.logprob += token_logprob(ll, c.ctx, s.logits_at, token, self.n_vocab)
        if not self.stats.ttft_s:
            self.stats.ttft_s = time.monotonic() - s.started
        queue: list[int] = []
        if ll.llama_vocab_is_eog(self.vocab, token):
            if not (s.text.in_thinking and not s.text.budget_forced):
                s.finish = "stop"
                return
            # The model ended while thinking: close the block so it still answers.
            queue, visible = self._force(s)
        else:
            visible = s.text.feed(self.piece(token))
            if s.text.stopped:
                s.finish = "stop"
            elif s.text.tokens >= s.params.max_tokens:
                s.finish = "length"
            if visible or s.finish:
                yield TokenDelta(s.local, visible, s.text.tokens, s.text.phase, request=s.request)
            if s.finish:
                return
            queue = [token]
            visible = ""
            if s.text.needs_budget_forcing():
                forced, visible = self._force(s)
                queue += forced
        if visible:
            yield TokenDelta(s.local, visible, s.text.tokens, s.text.phase, budget_forced=True,
                             request=s.request)
        for token_id in queue:
            batch_add(c.batch, token_id, s.pos, s.seq_id, False)
            s.pos += 1
        c.batch.logits[c.batch.n_tokens - 1] = True
        s.logits_at = c.batch.n_tokens - 1

    def _force(self, s: SeqState) -> tuple[list[int], str]:
        s.text.budget_forced = True
        return list(self.force_tokens), s.text.force(BUDGET_FORCE_TEXT)
