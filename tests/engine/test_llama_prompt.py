"""How a batch's prompt suffixes are laid out for decoding (vibecode.engine.llama_prompt)."""

from __future__ import annotations

from vibecode.engine.llama_prompt import Suffix, shared_prefix, suffix_entries


def test_the_shared_prefix_stops_short_of_every_prompts_last_token() -> None:
    assert shared_prefix([[1, 2, 3, 4], [1, 2, 3, 5]]) == 3
    assert shared_prefix([[1, 2, 3], [1, 2, 3, 4]]) == 2  # the shorter one keeps its last token
    assert shared_prefix([[1, 2, 3]]) == 2
    assert shared_prefix([[1], [1, 2]]) == 0


def test_suffixes_are_decoded_as_a_prefix_tree() -> None:
    a, b = Suffix([1, 2, 3, 9], 5, 1), Suffix([1, 2, 4], 5, 2)
    c, d = Suffix([7, 8], 5, 3), Suffix([1, 2, 3, 9, 10], 5, 4)
    entries = suffix_entries([a, b, c, d])
    # Shared tokens once, tagged with every sequence that has them at that position.
    assert (1, 5, (1, 4, 2)) in entries and (2, 6, (1, 4, 2)) in entries
    assert (3, 7, (1, 4)) in entries
    # The last token of each suffix is its own entry, at the end, in the suffixes' order.
    assert entries[-4:] == [(9, 8, (1,)), (4, 7, (2,)), (8, 6, (3,)), (10, 9, (4,))]
    assert (9, 8, (4,)) in entries[:-4]  # d's body goes on past a's last token
    # Every cell that a sequence needs is decoded exactly once, in increasing positions.
    for s in (a, b, c, d):
        mine = [(tok, pos) for tok, pos, ids in entries if s.seq_id in ids]
        assert mine == [(t, 5 + i) for i, t in enumerate(s.tokens)]
    assert len(entries) == 9  # 4 + 3 + 2 + 5 tokens, 5 of them shared
