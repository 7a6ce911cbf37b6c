"""LlamaCppEngine.stream_batch with the real tiny model: all requests in one llama.cpp batch."""

from __future__ import annotations

import threading

import pytest

from vibecode.engine.base import Request
from vibecode.engine.llama import LlamaCppEngine
from vibecode.engine.llama_decode import DecodeLoop
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


def test_a_sequence_that_outlives_the_ones_before_it_moves_down_and_goes_on(
        tiny_engine: LlamaCppEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sequence has its own KV stream, and llama.cpp computes a step whose sequence ids are
    not consecutive in several passes: when the candidates (ids 1, 2) finish, the oracle (id 3)
    moves its stream down to id 1. It goes on exactly as it would have where it was (greedy; the
    same batch with the move switched off, from the same cache state)."""
    short = SamplingParams(temperature=0, max_tokens=3, ignore_eos=True)
    long = SamplingParams(temperature=0, max_tokens=24, ignore_eos=True)
    batch = [Request(CANDIDATE, short, 2), Request(ORACLE, long, 1, "oracle")]

    def oracle_text() -> str:
        tiny_engine.sample([ChatMessage("user", "unrelated")], SamplingParams(max_tokens=1))
        done = _done(list(tiny_engine.stream_batch(batch)))
        assert [done[0, i].completion.completion_tokens for i in (0, 1)] == [3, 3]
        assert done[1, 0].completion.completion_tokens == 24
        return done[1, 0].completion.text

    with monkeypatch.context() as m:
        m.setattr(DecodeLoop, "_compact", lambda self, live: None)
        in_place = oracle_text()
    ll = tiny_engine._llama
    copies: list[tuple[int, int]] = []
    real_copy = ll.llama_memory_seq_cp

    def spy(memory: object, source: int, destination: int, p0: int, p1: int) -> object:
        copies.append((source, destination))
        return real_copy(memory, source, destination, p0, p1)

    monkeypatch.setattr(ll, "llama_memory_seq_cp", spy)
    assert oracle_text() == in_place
    assert (1, 2) in copies  # the candidates' prompt, copied to the second candidate's stream
    assert copies[-1] == (3, 1)  # the oracle, moved down once the candidates were done


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
    """16,384 cells, in streams of 3,328 (the oracle's longer prompt and 3,000 tokens): the
    shared prefix's stream and the oracle's leave room for two candidates."""
    with pytest.raises(ContextOverflow) as info:
        list(tiny_engine.stream_batch([Request(CANDIDATE, SamplingParams(max_tokens=3000), 4),
                                       Request(ORACLE, SamplingParams(max_tokens=3000), 1)]))
    assert "largest K that fits is 2" in info.value.message
    assert info.value.max_n == 2  # type: ignore[attr-defined]
