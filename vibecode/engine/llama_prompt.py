"""Prompt evaluation for a batch of requests in the llama.cpp context.

The prompts of a batch (the K candidates' and the helpers') share a prefix: the system prompt
and the problem statement. That prefix is evaluated once into PREFIX_SEQ, which doubles as a
cache (a later batch that shares a prefix with it only evaluates the tokens after it). Each
distinct prompt's rest is then evaluated into the first sequence of the requests that have that
prompt (its *head*), as a prefix tree: where some prompts go on sharing tokens (the candidates',
the oracle's and the generator's prompts share the problem statement; the edge-case prompt does
not), those tokens are decoded once, into one head's stream, and the stream is then copied to the
other heads that share them (:func:`prompt_steps`). Every sequence has its own KV stream
(:mod:`.llama_context`), so a token belongs to one sequence and a shared one is copied, never
shared: a copy (``llama_memory_seq_cp`` between streams) takes effect at the next decode. The
last token of every prompt comes in the final step, so that all their logits are read after one
``llama_decode``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vibecode.engine.llama_context import N_BATCH, PREFIX_SEQ, LlamaContext
from vibecode.engine.llama_lib import batch_add
from vibecode.errors import EngineError


@dataclass(frozen=True)
class Step:
    """One round of prompt evaluation: stream copies, then tokens (token, position, sequence,
    wants logits), each sequence's in increasing positions."""

    copies: tuple[tuple[int, int], ...]  # (source, destination) sequences, in order
    tokens: tuple[tuple[int, int, int, bool], ...]


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


@dataclass
class _Node:
    group: list[int]  # indices of the prompts that share the tokens up to ``pos``
    pos: int
    seq: int  # the stream that holds (or, after ``source``'s copy, will hold) them
    source: int | None  # the stream it is copied from first, if any


def prompt_steps(prompts: Sequence[Sequence[int]], heads: Sequence[int], start: int) -> list[Step]:
    """The rounds that evaluate every prompt after its first ``start`` tokens (held by
    PREFIX_SEQ) into its head sequence: a prefix tree walked level by level. A node's shared
    tokens go into the stream of its first prompt's head; each child that starts another head
    copies that stream first. Every prompt's last token is in the final step, with its logits,
    in the order of ``prompts``; every other token is decoded exactly once."""
    steps: list[Step] = []
    level = [_Node(list(range(len(prompts))), start, heads[0], PREFIX_SEQ)] if prompts else []
    pending: list[tuple[int, int]] = []  # copies of rounds that decoded nothing
    while level:
        copies = pending + [(n.source, n.seq) for n in level if n.source is not None]
        tokens: list[tuple[int, int, int, bool]] = []
        below: list[_Node] = []
        for n in level:
            first = prompts[n.group[0]]
            end = len(first) - 1 if len(n.group) == 1 else _shared_end(prompts, n.group)
            tokens += [(first[i], i, n.seq, False) for i in range(n.pos, end)]
            if len(n.group) > 1:
                for child in _split(prompts, n.group, end):
                    seq = heads[child[0]]
                    below.append(_Node(child, end, seq, None if seq == n.seq else n.seq))
        if tokens:
            steps.append(Step(tuple(copies), tuple(tokens)))
            pending = []
        else:
            pending = copies
        level = below
    last = tuple((p[-1], len(p) - 1, head, True) for p, head in zip(prompts, heads, strict=True))
    steps.append(Step(tuple(pending), last))
    return steps


def _shared_end(prompts: Sequence[Sequence[int]], group: list[int]) -> int:
    """Where the prompts of ``group`` part: their common prefix, short of each one's last token."""
    first = prompts[group[0]]
    end = min(len(prompts[i]) for i in group) - 1
    for i in group[1:]:
        end = min(end, common_prefix(first, prompts[i]))
    return end


def _split(prompts: Sequence[Sequence[int]], group: list[int], at: int) -> list[list[int]]:
    """``group`` split by the token at ``at`` (each prompt has one there), in order; a prompt
    whose last token is there is alone (that token goes into its own stream, with logits)."""
    children: dict[tuple[int, int], list[int]] = {}
    for i in group:
        alone = i if len(prompts[i]) - 1 == at else -1
        children.setdefault((prompts[i][at], alone), []).append(i)
    return list(children.values())


def eval_prompts(ll: Any, c: LlamaContext, prompts: Sequence[Sequence[int]], heads: Sequence[int],
                 start: int, cancel: threading.Event | None) -> tuple[dict[int, int], int]:
    """Evaluate every prompt after ``start`` into its head sequence (:func:`prompt_steps`).

    Returns, per head, the batch index of its last prompt token's logits (valid until the next
    decode; empty when cancelled first), and how many tokens were decoded.
    """
    if len(prompts) > N_BATCH:
        raise EngineError(f"{len(prompts)} distinct prompts in one batch; at most {N_BATCH}.")
    memory = ll.llama_get_memory(c.ctx)
    decoded = 0
    logits: dict[int, int] = {}
    for step in prompt_steps(prompts, heads, start):
        for source, destination in step.copies:
            ll.llama_memory_seq_cp(memory, source, destination, -1, -1)
        final = step.tokens[-1][3]
        for begin in range(0, len(step.tokens), N_BATCH):  # the final step fits one call
            if cancel is not None and cancel.is_set():
                return {}, decoded
            chunk = step.tokens[begin : begin + N_BATCH]
            c.batch.n_tokens = 0
            for index, (token, pos, seq, wants) in enumerate(chunk):
                batch_add(c.batch, token, pos, seq, wants)
                if wants:
                    logits[seq] = index
            if not final:
                c.batch.logits[c.batch.n_tokens - 1] = True
            _decode(ll, c, "the prompts")
            decoded += len(chunk)
    return logits, decoded


def _decode(ll: Any, c: LlamaContext, what: str) -> None:
    if ll.llama_decode(c.ctx, c.batch) != 0:
        c.cached = []
        ll.llama_memory_clear(ll.llama_get_memory(c.ctx), True)
        raise EngineError(f"llama_decode failed while evaluating {what}.")
