"""Issue 14, the dev pools 46-75: bug-seeking inputs that the hand-written wrong answers needed,
on real rendered statements, each run in the real harness against a right and a wrong answer.

- strings at the size the description names, one more and one less (``repeated_dna_sequences``:
  "10-letter-long"; a window loop one short sees no repeat in ``"A" * 11``);
- integers whose digits begin alike (``largest_number``: ``[121, 12]``, where padding each
  number with its first digit ties and keeps the wrong order);
- rows as long as the examples' rows where no row length is stated, and ``starti < endi``
  strictly (``meeting_rooms_ii``).
"""

from __future__ import annotations

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.clr.inputs_bugs import stated_sizes

WINDOW_RIGHT = """
class Solution:
    def repeated_dna_sequences(self, s: str) -> list[str]:
        seen, out = set(), set()
        for i in range(len(s) - 9):
            w = s[i:i + 10]
            if w in seen:
                out.add(w)
            seen.add(w)
        return sorted(out)
"""

WINDOW_SHORT = WINDOW_RIGHT.replace("range(len(s) - 9)", "range(len(s) - 10)")


def test_strings_at_the_size_the_description_names_meet_a_window_one_short() -> None:
    problem = real("repeated_dna_sequences")  # "all the 10-letter-long sequences"
    assert stated_sizes(problem) == [10]
    inputs = [dict(x) for x in generate_inputs(problem).inputs]
    assert {"s": "A" * 11} in inputs
    right, short = outputs(problem, WINDOW_RIGHT, inputs), outputs(problem, WINDOW_SHORT, inputs)
    assert right != short  # random A/C/G/T strings almost never repeat a 10-letter window


LARGEST_RIGHT = """
class Solution:
    def largest_number(self, nums: list[int]) -> str:
        words = sorted(map(str, nums), key=lambda w: w * 10, reverse=True)
        return str(int("".join(words)))
"""

LARGEST_PADDED = """
class Solution:
    def largest_number(self, nums: list[int]) -> str:
        words = sorted(map(str, nums), key=lambda w: w.ljust(11, w[0]), reverse=True)
        out = "".join(words)
        return "0" if out[0] == "0" else out
"""


def test_numbers_whose_digits_begin_alike_meet_a_tie_broken_the_wrong_way() -> None:
    problem = real("largest_number")
    inputs = [dict(x) for x in generate_inputs(problem).inputs]
    assert {"nums": [121, 12]} in inputs and {"nums": [12, 121]} in inputs
    right, padded = outputs(problem, LARGEST_RIGHT, inputs), outputs(problem, LARGEST_PADDED, inputs)
    differ = [x for x, a, b in zip(inputs, right, padded, strict=True) if a != b]
    assert {"nums": [121, 12]} in differ, differ


def test_rows_stay_as_long_as_the_examples_rows_where_no_row_length_is_stated() -> None:
    # meeting_rooms_ii states "0 <= starti < endi <= 10^6" and no row length; its examples show
    # [start, end] rows. Rows of eight numbers crashed every answer that unpacks "for s, e in ..."
    problem = real("meeting_rooms_ii")
    rows = [row for x in generate_inputs(problem).inputs for row in x["intervals"]]  # type: ignore[attr-defined]
    assert rows and all(len(row) == 2 for row in rows)
    assert all(start < end for start, end in rows)  # "starti < endi": strictly
    assert validate_input({"intervals": [[0, 30], [5, 5]]}, problem)
    assert validate_input({"intervals": [[0, 30], [5, 10]]}, problem) == []


def test_differential_mutations_keep_the_rows_and_values_the_examples_show() -> None:
    from vibecode.clr.differential import mutations

    problem = real("meeting_rooms_ii")
    made = mutations({"intervals": [[0, 30], [5, 10], [15, 20]]}, problem, limit=40)
    assert made  # one small change away: a row dropped, repeated, a value moved by one
    assert all(len(row) == 2 and row[0] < row[1] for x in made for row in x["intervals"])  # type: ignore[attr-defined]
