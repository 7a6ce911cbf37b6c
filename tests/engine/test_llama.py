"""The llama.cpp engine with the real tiny model (SmolLM2-135M Q4_1) on the CPU."""

from __future__ import annotations

import threading

import pytest

from vibecode.config import Settings
from vibecode.engine.llama import LlamaCppEngine
from vibecode.errors import Cancelled, ContextOverflow
from vibecode.models import ResolvedModel
from vibecode.types import (
    ChatMessage,
    Completion,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)

STORY = [ChatMessage("user", "Write a long story about a dragon who learns to cook.")]
GREEDY = SamplingParams(temperature=0, max_tokens=48, ignore_eos=True)


def test_generates_text_with_token_counts(tiny_engine: LlamaCppEngine) -> None:
    [c] = tiny_engine.sample(
        [ChatMessage("user", "What is 2+2? Answer briefly.")],
        SamplingParams(temperature=0, max_tokens=40),
    )
    assert "4" in c.answer
    assert c.finish_reason in ("stop", "length")
    assert 0 < c.completion_tokens <= 40
    assert c.prompt_tokens > 5
    assert c.reasoning == ""


def test_info_names_model_backend_and_context(tiny_engine: LlamaCppEngine) -> None:
    info = tiny_engine.info()
    assert info.engine == "llama"
    assert info.model == "tiny"
    assert info.backend == "CPU"
    assert info.gpu_layers == 0  # this build has no GPU offload
    assert info.n_ctx == 8192 and info.n_ctx_train == 8192


def test_same_seed_reproduces_and_different_seeds_differ(tiny_engine: LlamaCppEngine) -> None:
    params = SamplingParams(temperature=1.0, max_tokens=32, seed=1234, ignore_eos=True)
    a = tiny_engine.sample(STORY, params, n=3)
    b = tiny_engine.sample(STORY, params, n=3)
    assert [c.text for c in a] == [c.text for c in b]
    assert [c.seed for c in a] == [1234, 1235, 1236]
    assert len({c.text for c in a}) == 3


def test_greedy_sequences_agree_with_each_other_and_with_one_sequence(
    tiny_engine: LlamaCppEngine,
) -> None:
    params = SamplingParams(temperature=0, max_tokens=64, ignore_eos=True)
    [single] = tiny_engine.sample(STORY, params, n=1)
    batch = tiny_engine.sample(STORY, params, n=8)
    assert all(c.text == batch[0].text for c in batch)
    one = tiny_engine.tokenize(single.text, special=False)[:32]
    many = tiny_engine.tokenize(batch[0].text, special=False)[:32]
    assert one == many


def test_stop_strings_end_a_sequence(tiny_engine: LlamaCppEngine) -> None:
    [free] = tiny_engine.sample(STORY, GREEDY)
    word = free.text.split()[3]
    [c] = tiny_engine.sample(STORY, SamplingParams(temperature=0, max_tokens=48, stop=(word,)))
    assert c.finish_reason == "stop"
    assert word not in c.text
    assert free.text.startswith(c.text)


def test_budget_forcing_closes_the_think_block_and_answers(tiny_engine: LlamaCppEngine) -> None:
    params = SamplingParams(
        temperature=0.8, seed=7, max_tokens=120, max_think_tokens=16, prefill="<think>\n"
    )
    rambling = [
        ChatMessage(
            "user", "Think out loud for a long time about numbers, then answer: what is 3+4?"
        )
    ]
    completions = tiny_engine.sample(rambling, params, n=4)
    for c in completions:
        # Forced either at the budget or because the model ended while still thinking.
        assert c.budget_forced
        assert c.reasoning_tokens <= 16
        assert "</think>" in c.text
        assert c.answer != ""
    assert any(c.reasoning_tokens == 16 for c in completions)  # the budget itself closed one


def test_finished_sequences_leave_the_batch(tiny_engine: LlamaCppEngine) -> None:
    params = SamplingParams(temperature=1.0, max_tokens=60, seed=3)
    events = list(tiny_engine.stream([ChatMessage("user", "Say yes.")], params, n=4))
    done = [e for e in events if isinstance(e, SequenceDone)]
    assert sorted(e.seq for e in done) == [0, 1, 2, 3]
    for d in done:
        after = [
            e for e in events[events.index(d) + 1 :] if isinstance(e, TokenDelta) and e.seq == d.seq
        ]
        assert after == []
    total = sum(d.completion.completion_tokens for d in done)
    assert tiny_engine.stats.generated_tokens == total
    assert any(
        d.completion.finish_reason == "stop" and d.completion.completion_tokens < 60 for d in done
    )


def test_context_overflow_names_the_largest_k(tiny_engine: LlamaCppEngine) -> None:
    with pytest.raises(ContextOverflow) as info:
        tiny_engine.sample(STORY, SamplingParams(max_tokens=3000), n=8)
    # 16,384 cells in streams of 3,072 (the prompt and 3,000 tokens): the prefix's and 4 more
    assert "largest K that fits is 4" in info.value.message
    assert info.value.max_n == 4  # type: ignore[attr-defined]


@pytest.mark.timeout(300)  # a hang guard only: promptness is counted in tokens below
def test_cancellation_from_another_thread_stops_promptly(tiny_engine: LlamaCppEngine) -> None:
    n, max_tokens = 4, 2000
    cancel, asked = threading.Event(), threading.Event()
    trigger: list[int] = []  # the token count at which the other thread was asked to cancel
    done: list[Completion] = []

    def canceller() -> None:
        if asked.wait(timeout=120):
            cancel.set()

    def on_event(event: StreamEvent) -> None:
        if isinstance(event, TokenDelta) and event.tokens >= 8 and not trigger:
            trigger.append(event.tokens)
            asked.set()
            # Hold the stream until the other thread has cancelled, so that what follows is
            # counted from the moment of the cancel, however slow the machine is.
            assert cancel.wait(timeout=120), "the other thread never cancelled"
        if isinstance(event, SequenceDone):
            done.append(event.completion)

    other = threading.Thread(target=canceller)
    other.start()
    with pytest.raises(Cancelled):
        tiny_engine.sample(
            STORY, SamplingParams(max_tokens=max_tokens, ignore_eos=True), n=n,
            cancel=cancel, on_event=on_event,
        )
    other.join()
    assert sorted(c.seq for c in done) == list(range(n))
    assert all(c.finish_reason == "cancelled" for c in done)
    # No sequence drew another token once the cancel was seen: at most the step in progress.
    produced = sum(c.completion_tokens for c in done)
    assert produced <= n * (trigger[0] + 1), (produced, trigger)
    assert produced < n * max_tokens // 100
    # The sequences were freed: the next request runs normally.
    [c] = tiny_engine.sample(STORY, GREEDY)
    assert c.completion_tokens == 48


def test_prefix_reuse_evaluates_only_the_new_suffix(tiny_engine: LlamaCppEngine) -> None:
    problem = "Problem: given a list of integers, return the sum of the even ones. " * 5
    first = [ChatMessage("user", problem + "Is this claim true: sum([1,2,3,4]) = 6?")]
    second = [ChatMessage("user", problem + "Is this claim true: sum([2,2]) = 4?")]
    tiny_engine.sample([ChatMessage("user", "unrelated")], SamplingParams(max_tokens=1))
    tiny_engine.sample(first, SamplingParams(max_tokens=4))
    full = tiny_engine.stats.prompt_tokens_evaluated
    tiny_engine.sample(second, SamplingParams(max_tokens=4))
    assert tiny_engine.stats.prompt_tokens_reused > 60
    assert tiny_engine.stats.prompt_tokens_evaluated < full / 3


def test_a_batch_grows_the_kv_cache_past_the_trained_context(tiny_model: ResolvedModel) -> None:
    """The KV cache holds a stream per sequence, and each sequence sees only its own positions:
    K=8 x 4,096 tokens with the helpers need about 74k cells on a model trained on 32,768 tokens.
    Here: the tiny model (trained on 8,192) with n_ctx = 16,384 takes 6 sequences of 1,400
    tokens (7 streams of 1,536 cells, the shared prefix's included) in one batch."""
    engine = LlamaCppEngine(tiny_model, Settings(n_ctx=16384, n_threads=2))
    try:
        assert engine.info().n_ctx == 8192  # what one request may use: the trained context
        cancel = threading.Event()

        def on_event(event: StreamEvent) -> None:
            if isinstance(event, TokenDelta):
                cancel.set()  # the batch was admitted: stop at its first token
        with pytest.raises(Cancelled):
            engine.sample(STORY, SamplingParams(max_tokens=1400, ignore_eos=True), n=6, cancel=cancel,
                          on_event=on_event)
        assert engine._ctx is not None and engine._ctx.streams == 7 and 6 * 1400 < engine._ctx.n_ctx <= 16384
        with pytest.raises(ContextOverflow) as overflow:  # one sequence past the trained context
            engine.sample(STORY, SamplingParams(max_tokens=9000), n=1)
        assert "longer than the 8192 tokens this model was trained on" in overflow.value.message
        with pytest.raises(ContextOverflow) as too_many:  # past the setting: the largest K within it
            engine.sample(STORY, SamplingParams(max_tokens=3000), n=8)
        assert too_many.value.max_n == 4  # type: ignore[attr-defined]  # 16,384 // 3,072 streams, less the prefix's
    finally:
        engine.close()
