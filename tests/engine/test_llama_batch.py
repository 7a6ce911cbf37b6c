"""LlamaCppEngine.stream_batch with the real tiny model: all requests in one llama.cpp batch."""

from __future__ import annotations

import threading

import pytest

from vibecode.engine.base import Request
from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.llama_prompt import common_prefix
from vibecode.errors import ContextOverflow
from vibecode.types import ChatMessage, RequestFailed, SamplingParams, SequenceDone, TokenDelta

PROBLEM = "Problem: given a list of integers, return the sum of the even ones. " * 4
CANDIDATE = [ChatMessage("user", PROBLEM + "Write the solution.")]
ORACLE = [ChatMessage("user", PROBLEM + "Write a brute-force oracle.")]
EDGES = [ChatMessage("user", "List edge cases for this. " + PROBLEM)]  # shares only the template


def _done(events: list[object]) -> dict[tuple[int, int], SequenceDone]:
    return {(e.request, e.seq): e for e in events if isinstance(e, SequenceDone)}


def test_a_batch_gives_each_sequence_what_its_request_alone_gives(tiny_engine: LlamaCppEngine) -> None:
    """Candidates n=2 (12 tokens) and an oracle (6 tokens) in one batch, greedy: each sequence's
    text is the one its request gives alone, and each request's budget holds. (Seeded draws at
    temperature 1 are not bit-identical: the batch's float sums differ in the last bits, which
    moved a draw after about 8 tokens here.)"""
    cand = SamplingParams(temperature=0, max_tokens=12, ignore_eos=True)
    oracle = SamplingParams(temperature=0, max_tokens=6, ignore_eos=True)
    alone = [c.text for c in tiny_engine.sample(CANDIDATE, cand, n=2)]
    [alone_oracle] = tiny_engine.sample(ORACLE, oracle)
    [alone_edges] = tiny_engine.sample(EDGES, oracle)
    tiny_engine.sample([ChatMessage("user", "unrelated")], SamplingParams(max_tokens=1))
    events = list(tiny_engine.stream_batch([Request(CANDIDATE, cand, 2),
                                            Request(ORACLE, oracle, 1, "oracle"),
                                            Request(EDGES, oracle, 1, "inputs")]))
    done = _done(events)
    assert sorted(done) == [(0, 0), (0, 1), (1, 0), (2, 0)]
    assert [done[0, 0].completion.text, done[0, 1].completion.text] == alone
    assert done[1, 0].completion.text == alone_oracle.text
    assert done[2, 0].completion.text == alone_edges.text
    assert not alone[0].startswith(alone_oracle.text)  # the prompts differ: the tags are checked
    assert [done[k].completion.completion_tokens for k in sorted(done)] == [12, 12, 6, 6]
    assert {(e.request, e.seq) for e in events if isinstance(e, TokenDelta)} == set(done)
    # The template's head, common to all, was evaluated once; so was the problem statement,
    # which the candidate's and the oracle's prompts share; then each prompt's own rest.
    c, o, e = (tiny_engine.prompt_tokens(m) for m in (CANDIDATE, ORACLE, EDGES))
    problem, head = common_prefix(c, o), common_prefix(c, e)
    assert problem > 50 and 0 < head < problem - 40
    stats = tiny_engine.stats
    assert stats.prompt_tokens == len(c) + len(o) + len(e)
    cells = len(c) + len(o) + len(e) - problem - head
    assert stats.prompt_tokens_reused + stats.prompt_tokens_evaluated == cells
    assert stats.generated_tokens == 36


def test_cancel_ends_every_request(tiny_engine: LlamaCppEngine) -> None:
    cancel = threading.Event()
    params = SamplingParams(max_tokens=2000, ignore_eos=True)
    events = []
    for event in tiny_engine.stream_batch(
        [Request(CANDIDATE, params, 2), Request(ORACLE, params, 1, "oracle")], cancel=cancel
    ):
        events.append(event)
        if isinstance(event, TokenDelta):
            cancel.set()
    done = _done(events)
    assert sorted(done) == [(0, 0), (0, 1), (1, 0)]
    assert all(d.completion.finish_reason == "cancelled" for d in done.values())
    assert sum(d.completion.completion_tokens for d in done.values()) <= 3


def test_a_request_that_cannot_be_answered_fails_alone(tiny_engine: LlamaCppEngine) -> None:
    params = SamplingParams(temperature=0, max_tokens=3, ignore_eos=True)
    events = list(tiny_engine.stream_batch([Request(CANDIDATE, params, 0),
                                            Request(ORACLE, params, 1, "oracle")]))
    [failed] = [e for e in events if isinstance(e, RequestFailed)]
    assert failed.request == 0 and "n must be at least 1" in failed.message
    assert sorted(_done(events)) == [(1, 0)]


def test_a_batch_that_does_not_fit_names_the_largest_k(tiny_engine: LlamaCppEngine) -> None:
    """8,192 cells: an oracle of 3,000 tokens leaves room for one candidate of 3,000."""
    with pytest.raises(ContextOverflow) as info:
        list(tiny_engine.stream_batch([Request(CANDIDATE, SamplingParams(max_tokens=3000), 2),
                                       Request(ORACLE, SamplingParams(max_tokens=3000), 1)]))
    assert "largest K that fits is 1" in info.value.message
    assert info.value.max_n == 1  # type: ignore[attr-defined]
