"""One generating sequence of a llama.cpp batch: which request it answers, its own sampling
parameters, sampler and text, and where it stands in the KV cache and the batch."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vibecode.engine.base import make_completion
from vibecode.engine.llama_lib import make_sampler
from vibecode.engine.nucleus import NucleusSampler, wants_nucleus
from vibecode.engine.text import SequenceText, thinking_budget
from vibecode.types import Completion, FinishReason, SamplingParams


@dataclass
class SeqState:
    request: int  # index of its request in the batch
    local: int  # its number within that request (the events' ``seq``)
    seq_id: int  # its llama.cpp sequence id (1..capacity)
    seed: int
    params: SamplingParams
    sampler: Any  # a NucleusSampler or a native sampler chain
    text: SequenceText
    n_prompt: int
    pos: int  # the KV position of the next token it decodes
    logits_at: int  # batch index of the logits this sequence samples from next
    started: float
    logprob: float = 0.0
    finish: FinishReason | None = None

    @property
    def native(self) -> bool:
        return not isinstance(self.sampler, NucleusSampler)


def new_seq(ll: Any, request: int, local: int, seq_id: int, seed: int, params: SamplingParams,
            prompt_len: int, logits_at: int, n_vocab: int, eog: Sequence[int]) -> SeqState:
    """A sequence about to sample its first token from the logits at ``logits_at``."""
    banned = eog if params.ignore_eos else ()
    sampler = (NucleusSampler(params, seed, banned) if wants_nucleus(params)
               else make_sampler(ll, params, seed, n_vocab, banned))
    text = SequenceText(params.stop, thinking_budget(params), params.prefill)
    return SeqState(request, local, seq_id, seed, params, sampler, text, prompt_len, prompt_len,
                    logits_at, time.monotonic())


def free_seq(ll: Any, s: SeqState) -> None:
    if s.native:
        ll.llama_sampler_free(s.sampler)


def completion_of(s: SeqState) -> Completion:
    return make_completion(s.local, s.text, s.finish or "stop", s.n_prompt, s.seed,
                           time.monotonic() - s.started,
                           s.logprob if s.params.logprobs else None)
