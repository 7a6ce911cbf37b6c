"""A sentence of the description that fixes an argument's last item (issue 14; held-out 126-150,
examined): "Given a binary array ``bits`` that ends with ``0``" in the real statement of
one_bit_and_two_bit_characters, in its rendered form."""

from __future__ import annotations

from tests.clr.leetcode_real import real
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraint_ends import read_ends
from vibecode.problems.constraint_types import Constraints
from vibecode.problems.constraints import parse_constraints


def test_the_array_that_ends_with_zero_is_a_check_every_generated_input_keeps() -> None:
    problem = real("one_bit_and_two_bit_characters")
    checks = [ch for ch in parse_constraints(problem).checks if ch.kind == "ends with"]
    assert [ch.line for ch in checks] == ["array bits that ends with 0"]
    assert validate_input({"bits": [1]}, problem)  # the input that rejected every correct answer
    assert validate_input({"bits": [1, 1, 0]}, problem) == []
    inputs = generate_inputs(problem).inputs
    assert len(inputs) >= 10 and all(x["bits"][-1] == 0 for x in inputs)  # type: ignore[index]


def test_strings_and_starts_are_read_and_other_words_are_not() -> None:
    c = Constraints()
    read_ends("Given a string s that starts with 'a' and a list nums which ends with -3.", {"s": "str", "nums": "list"}, c)
    s_test, nums_test = (ch.test for ch in c.checks)
    assert [ch.kind for ch in c.checks] == ["starts with", "ends with"]
    assert s_test({"s": "abc"}) is True and s_test({"s": "bca"}) is False
    assert nums_test({"nums": [1, -3]}) is True and nums_test({"nums": [-3, 1]}) is False and nums_test({"nums": []}) is False
    c = Constraints()
    read_ends("Return the array answer that ends with 0.", {"nums": "list"}, c)  # not an argument
    read_ends("Given an integer n that ends with 7.", {"n": "int"}, c)  # not a list or a string
    assert c.checks == []


def test_the_value_is_read_as_written_and_as_the_number_it_spells() -> None:
    c = Constraints()
    read_ends("Given an array bits that ends with '0', a string s that ends with 1 and a list x "
              "which ends with 1.5 or so.", {"bits": "list", "s": "str", "x": "list"}, c)
    bits, s = (ch.test for ch in c.checks)  # "1.5" is not read as 1: no check on x
    assert len(c.checks) == 2
    assert bits({"bits": [1, 0]}) is True and bits({"bits": ["1", "0"]}) is True
    assert bits({"bits": [1, False]}) is False  # a bool is no 0
    assert s({"s": "101"}) is True and s({"s": "10"}) is False
