import pytest

from vibecode.errors import ProblemError
from vibecode.problems.math import parse_math


def test_question_title_and_reference() -> None:
    p = parse_math("# Sum\n\nWhat is 1 + 1?\n\nAnswer: 2\n")
    assert (p.title, p.question, p.reference) == ("Sum", "What is 1 + 1?", "2")
    assert parse_math("What is 2^10?").reference is None


@pytest.mark.parametrize("text", ["", "   ", "# Only a title\n", "Answer: 3"])
def test_empty_questions_are_errors(text: str) -> None:
    with pytest.raises(ProblemError):
        parse_math(text)
