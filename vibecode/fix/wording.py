"""Counts in the words of the fix and precommit output: ``1 candidate``, ``2 candidates``,
``1 distinct patch``; a sentence about one test is written in the singular."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun agreeing with it (``plural`` when adding "s" is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def failing_tests(n: int) -> str:
    """"the failing test" for one, "all 3 failing test(s)" otherwise."""
    return "the failing test" if n == 1 else f"all {n} failing test(s)"


def still_pass(n: int) -> str:
    """What the regression run found: every test that passed before still passes."""
    return "the 1 test that passed before still passes" if n == 1 else f"all {n} tests that passed before still pass"


def were_checked(n: int) -> str:
    """Which tests the regression run checked when it could only run the affected ones."""
    if n == 1:
        return "only the 1 test that imports the touched modules was checked for regressions"
    return f"only the {n} tests that import the touched modules were checked for regressions"


def candidates_do(indices: list[int], verb_s: str, verb: str) -> str:
    """"Candidate 6 fixes", "Candidates 2, 6 fix"."""
    listed = ", ".join(map(str, indices))
    return f"Candidate {listed} {verb_s}" if len(indices) == 1 else f"Candidates {listed} {verb}"


def agreement(members: int, k: int) -> str:
    """How many of the K candidates behave like this patch."""
    if members == 1:
        return f"1 of {count(k, 'candidate')}: no other behaves alike"
    return f"{members} of {count(k, 'candidate')} behave alike"
