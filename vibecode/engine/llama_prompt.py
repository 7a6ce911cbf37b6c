"""Prompt evaluation for a batch of requests in the llama.cpp context.

The prompts of a batch (the K candidates' and the helpers') share a prefix: the system prompt
and the problem statement. That prefix is evaluated once into PREFIX_SEQ, which doubles as a
cache (a later batch that shares a prefix with it only evaluates the tokens after it). Each
distinct prompt's remaining suffix is then evaluated once, into the first sequence of the
requests that have that prompt. The suffixes are decoded as a prefix tree: where some of them
go on sharing tokens (the candidates', the oracle's and the generator's prompts share the
problem statement; the edge-case prompt does not), those tokens are decoded once, tagged with
all their sequences. All of it is packed into as few ``llama_decode`` calls as the batch size
allows, with the logits of every suffix's last token in the final call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from vibecode.engine.llama_context import N_BATCH, PREFIX_SEQ, LlamaContext
from vibecode.engine.llama_lib import batch_add
from vibecode.errors import EngineError


@dataclass(frozen=True)
class Suffix:
    """The tokens of one distinct prompt after the shared prefix, evaluated into ``seq_id``."""

    tokens: Sequence[int]
    start: int  # the position of its first token (the shared prefix's length)
    seq_id: int


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def shared_prefix(prompts: Sequence[Sequence[int]]) -> int:
    """The length of the prefix common to all ``prompts``, short of each prompt's last token
    (which every prompt evaluates in its own sequence, for its logits)."""
    shared = min(len(p) for p in prompts) - 1
    for prompt in prompts[1:]:
        shared = min(shared, common_prefix(prompts[0], prompt))
    return max(0, shared)


def eval_prefix(ll: Any, c: LlamaContext, tokens: list[int],
                cancel: threading.Event | None) -> tuple[int, int]:
    """Evaluate ``tokens`` into PREFIX_SEQ, reusing what it already holds; afterwards it holds
    exactly ``tokens`` (unless cancelled). Returns (tokens reused, tokens evaluated)."""
    memory = ll.llama_get_memory(c.ctx)
    reuse = common_prefix(c.cached, tokens)
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
        _decode(ll, c, "the shared prompt prefix")
        c.cached = tokens[: reuse + start + len(chunk)]
    return reuse, len(c.cached) - reuse


def suffix_entries(suffixes: Sequence[Suffix]) -> list[tuple[int, int, tuple[int, ...]]]:
    """The (token, position, sequence ids) to decode for all ``suffixes``, as a prefix tree: a
    token that several suffixes share at the same position, after the same tokens, is one entry
    tagged with all their sequences. Every suffix's last token is its own entry (it needs its
    own logits), and the last ``len(suffixes)`` entries are those, in the order of ``suffixes``.
    In every sequence the positions come in increasing order."""
    order = sorted(range(len(suffixes)), key=lambda i: list(suffixes[i].tokens))
    ranked = [suffixes[i] for i in order]
    # lcp[i]: how many leading tokens ranked[i] and ranked[i + 1] share.
    lcp = [common_prefix(a.tokens, b.tokens) for a, b in pairwise(ranked)]
    entries: list[tuple[int, int, tuple[int, ...]]] = []
    longest = max((len(s.tokens) for s in ranked), default=0)
    for offset in range(longest - 1):
        run: list[int] = []  # indices into ranked that share the token at this offset
        for i, s in enumerate(ranked):
            if offset >= len(s.tokens) - 1:  # past its body (its last token comes at the end)
                continue
            if run and min(lcp[run[-1] : i]) <= offset:  # they differ at or before it
                entries.append(_shared(ranked, run, offset))
                run = []
            run.append(i)
        if run:
            entries.append(_shared(ranked, run, offset))
    entries += [(s.tokens[-1], s.start + len(s.tokens) - 1, (s.seq_id,)) for s in suffixes]
    return entries


def _shared(ranked: Sequence[Suffix], run: list[int], offset: int) -> tuple[int, int, tuple[int, ...]]:
    first = ranked[run[0]]
    return first.tokens[offset], first.start + offset, tuple(ranked[i].seq_id for i in run)


def eval_suffixes(ll: Any, c: LlamaContext, suffixes: Sequence[Suffix],
                  cancel: threading.Event | None) -> tuple[dict[int, int], int]:
    """Evaluate every suffix into its sequence (which already holds the shared prefix), the
    tokens that several share once (:func:`suffix_entries`).

    Returns, per sequence id, the batch index of its last prompt token's logits (valid until
    the next decode; empty when cancelled first), and how many tokens were decoded.
    """
    if len(suffixes) > N_BATCH:
        raise EngineError(f"{len(suffixes)} distinct prompts in one batch; at most {N_BATCH}.")
    entries = suffix_entries(suffixes)
    final = max(0, len(entries) - N_BATCH)  # the last call holds every last token
    chunks = [entries[i : min(i + N_BATCH, final)] for i in range(0, final, N_BATCH)]
    chunks.append(entries[final:])
    logits: dict[int, int] = {}
    for number, chunk in enumerate(chunks):
        if cancel is not None and cancel.is_set():
            return {}, sum(len(chunk) for chunk in chunks[:number])
        c.batch.n_tokens = 0
        last_call = number == len(chunks) - 1
        for index, (token, pos, seq_ids) in enumerate(chunk):
            wants = last_call and index >= len(chunk) - len(suffixes)
            batch_add(c.batch, token, pos, seq_ids, wants)
            if wants:
                logits[seq_ids[0]] = index
        if not last_call:
            c.batch.logits[c.batch.n_tokens - 1] = True
        _decode(ll, c, "the prompts")
    return logits, len(entries)


def _decode(ll: Any, c: LlamaContext, what: str) -> None:
    if ll.llama_decode(c.ctx, c.batch) != 0:
        c.cached = []
        ll.llama_memory_clear(ll.llama_get_memory(c.ctx), True)
        raise EngineError(f"llama_decode failed while evaluating {what}.")
