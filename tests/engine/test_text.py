from hypothesis import given
from hypothesis import strategies as st

from vibecode.engine.text import BUDGET_FORCE_TEXT, SequenceText, ThinkSplitter, split_thinking


def test_split_with_both_tags() -> None:
    assert split_thinking("<think>\nplan\n</think>\n\nanswer") == ("plan", "answer")


def test_split_when_the_template_opened_the_block() -> None:
    assert split_thinking("plan</think>answer") == ("plan", "answer")


def test_split_unclosed_think_has_no_answer() -> None:
    assert split_thinking("<think>still going") == ("still going", "")


def test_split_without_tags_is_all_answer() -> None:
    assert split_thinking("  just text ") == ("", "just text")


def test_stop_string_truncates_and_is_never_streamed() -> None:
    seq = SequenceText(stop=("STOP",))
    shown = "".join(seq.feed(p.encode()) for p in ["abc S", "TO", "P tail"])
    assert seq.stopped
    assert seq.text == "abc "
    assert shown == "abc "


def test_partial_stop_prefix_is_released_when_it_is_not_a_stop() -> None:
    seq = SequenceText(stop=("STOP",))
    first = seq.feed(b"abc ST")
    assert first == "abc "  # "ST" held back
    assert seq.feed(b"ay") == "STay"
    assert not seq.stopped


def test_multibyte_characters_split_across_tokens() -> None:
    seq = SequenceText()
    data = "é→".encode()
    shown = "".join(seq.feed(data[i : i + 1]) for i in range(len(data)))
    assert shown + seq.finish() == "é→"


def test_budget_forcing_is_due_only_while_thinking() -> None:
    seq = SequenceText(max_think_tokens=3, prefill="<think>\n")
    for piece in ["a", " b"]:
        seq.feed(piece.encode())
    assert not seq.needs_budget_forcing()
    seq.feed(b" c")
    assert seq.needs_budget_forcing()
    seq.budget_forced = True
    seq.force(BUDGET_FORCE_TEXT)
    assert seq.phase == "answer"
    assert not seq.needs_budget_forcing()


def test_no_budget_forcing_outside_a_think_block() -> None:
    seq = SequenceText(max_think_tokens=1)
    for _ in range(5):
        seq.feed(b"x")
    assert not seq.needs_budget_forcing()


def _split_all(pieces: list[str]) -> list[tuple[str, str]]:
    splitter = ThinkSplitter()
    out = []
    for piece in pieces:
        out += splitter.feed(piece)
    out += splitter.flush()
    merged: list[tuple[str, str]] = []
    for phase, text in out:  # adjacent pieces of one phase are one run
        if merged and merged[-1][0] == phase:
            merged[-1] = (phase, merged[-1][1] + text)
        else:
            merged.append((phase, text))
    return merged


@given(
    st.lists(
        st.sampled_from(["<think>", "</think>", "<th", "ink>", "</", "a", "b c", "\n", "<"]),
        max_size=30,
    )
)
def test_splitter_does_not_depend_on_how_the_stream_is_chunked(pieces: list[str]) -> None:
    whole = "".join(pieces)
    assert _split_all(pieces) == _split_all([whole])
    assert _split_all(pieces) == _split_all(list(whole))


def test_splitter_phases() -> None:
    splitter = ThinkSplitter()
    pieces = splitter.feed("<thi") + splitter.feed("nk>plan</th") + splitter.feed("ink>answer")
    pieces += splitter.flush()
    assert pieces == [("thinking", "plan"), ("answer", "answer")]
