"""How a batch's prompts are laid out for decoding into per-sequence KV streams
(vibecode.engine.llama_prompt)."""

from __future__ import annotations

from vibecode.engine.llama_context import PREFIX_SEQ
from vibecode.engine.llama_prompt import prompt_steps, shared_prefix


def test_the_shared_prefix_stops_short_of_every_prompts_last_token() -> None:
    assert shared_prefix([[1, 2, 3, 4], [1, 2, 3, 5]]) == 3
    assert shared_prefix([[1, 2, 3], [1, 2, 3, 4]]) == 2  # the shorter one keeps its last token
    assert shared_prefix([[1, 2, 3]]) == 2
    assert shared_prefix([[1], [1, 2]]) == 0


def _replay(steps: list, start: int, prefix: list[int]) -> dict[int, list[int]]:
    """What each stream holds after the steps, copies applied before each step's tokens, as
    llama.cpp applies them at the next decode (a copy replaces the whole stream)."""
    streams: dict[int, list[int]] = {PREFIX_SEQ: list(prefix)}
    for step in steps:
        for source, destination in step.copies:
            streams[destination] = list(streams[source])
        for token, pos, seq, _ in step.tokens:
            held = streams.setdefault(seq, [])
            assert pos == len(held), "a stream's tokens come in order, with no gap"
            held.append(token)
    return streams


def test_prompts_are_decoded_as_a_prefix_tree_into_their_heads_streams() -> None:
    prefix = [50, 51, 52, 53, 54]  # held by PREFIX_SEQ
    tails = {1: [1, 2, 3, 9], 2: [1, 2, 4], 3: [7, 8], 4: [1, 2, 3, 9, 10]}
    prompts = [prefix + t for t in tails.values()]
    steps = prompt_steps(prompts, list(tails), len(prefix))
    streams = _replay(steps, len(prefix), prefix)
    # Every head's stream holds its whole prompt.
    for head, prompt in zip(tails, prompts, strict=True):
        assert streams[head] == prompt
    # The last tokens come last, in the prompts' order, each with its logits, in one step.
    assert steps[-1].tokens == ((9, 8, 1, True), (4, 7, 2, True), (8, 6, 3, True), (10, 9, 4, True))
    assert not any(wants for step in steps[:-1] for *_, wants in step.tokens)
    # Shared tokens are decoded once: 1, 2 (shared by heads 1, 2, 4), 3 and 9 (1 and 4), 7, and
    # 4's 9 again, because at position 8 it is 1's last token, which 1 decodes with its logits.
    body = [(token, pos) for step in steps[:-1] for token, pos, _, _ in step.tokens]
    assert sorted(body) == sorted([(1, 5), (2, 6), (3, 7), (9, 8), (7, 5)])
    assert sum(len(step.tokens) for step in steps) == 9
    # Heads that share tokens copy the stream that decoded them, once each.
    copies = [c for step in steps for c in step.copies]
    assert copies[0] == (PREFIX_SEQ, 1) and len(copies) == 4


def test_one_prompt_and_a_prompt_that_ends_inside_another() -> None:
    steps = prompt_steps([[5, 6, 7, 8]], [1], 2)
    assert _replay(steps, 2, [5, 6])[1] == [5, 6, 7, 8]
    assert steps[-1].tokens == ((8, 3, 1, True),)
    # [1, 2, 3] ends where [1, 2, 3, 4] goes on: both get token 3 at position 2 (the first with
    # its logits), each in its own stream, and the walk ends.
    steps = prompt_steps([[1, 2, 3], [1, 2, 3, 4]], [1, 3], 2)
    streams = _replay(steps, 2, [1, 2])
    assert streams[1] == [1, 2, 3] and streams[3] == [1, 2, 3, 4]
    assert steps[-1].tokens == ((3, 2, 1, True), (4, 3, 3, True))
