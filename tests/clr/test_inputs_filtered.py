"""Generate, then filter (issue 14): a property the generator cannot build is checked on what it
draws, and a rejected draw is drawn again (``clr.inputs_tiers.RETRIES``); arguments a line says
are in another one are picked from it; a line that counts rows is no check on one row. On real
statements of dev problems (tests/data/leetcode_constraints) and their hidden inputs."""

from __future__ import annotations

from tests.problems.test_constraint_scope import real
from vibecode.clr.inputs import generate_inputs, validate_input


def test_words_a_line_puts_in_the_list_are_picked_from_it() -> None:
    # "word1 and word2 are in wordsDict", "word1 != word2"; some hidden words carry digits, a
    # reviewed data break (tests/data/leetcode_constraints/data_breaks.json)
    p, hidden = real("shortest_word_distance", data_breaks=("wordsDict has characters",))
    assert any(h["word1"] in h["wordsDict"] for h in hidden)  # type: ignore[operator]
    made = [dict(x) for x in generate_inputs(p).inputs]
    examples = [dict(e.inputs) for e in p.examples]
    drawn = [x for x in made if x not in examples]
    assert len(drawn) >= 8  # every blind draw was dropped before: none had both words in the list
    for x in drawn:
        assert x["word1"] in x["wordsDict"] and x["word2"] in x["wordsDict"]  # type: ignore[operator]
        assert x["word1"] != x["word2"]


def test_a_line_that_counts_rows_keeps_rows_and_rejected_draws_are_drawn_again() -> None:
    p, hidden = real("high_five")  # "For each IDi, there will be at least five scores."
    assert all(validate_input(dict(x), p) == [] for x in hidden)
    drawn = [dict(x) for x in generate_inputs(p).inputs if dict(x) not in [dict(e.inputs) for e in p.examples]]
    assert drawn  # none before: every row was dropped as if the line were about one row
    assert all(validate_input(x, p) == [] for x in drawn)
