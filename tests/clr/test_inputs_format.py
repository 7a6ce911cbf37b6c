"""Issue 14: bug-seeking strings in the format of the examples' (``clr.inputs_bugs_format``), on
real rendered statements. "version1 and version2 are valid version numbers" is a line vibecode
cannot read; strings drawn from the allowed characters are mostly not versions ("8.21062.",
"..0"), so a bug that shows only on valid versions went unseen and the oracle's answers on the
invalid ones were no verdicts."""

from __future__ import annotations

import random
import re

from tests.clr.leetcode_real import outputs, real
from vibecode.clr.inputs import generate_inputs
from vibecode.clr.inputs_bugs_format import Format, format_candidates, formatted, runs
from vibecode.problems.constraints import parse_constraints

VERSION = re.compile(r"^\d+(\.\d+)*$")

RIGHT = """
class Solution:
    def compare_version(self, version1: str, version2: str) -> int:
        a = [int(x) for x in version1.split(".")]
        b = [int(x) for x in version2.split(".")]
        n = max(len(a), len(b))
        a += [0] * (n - len(a))
        b += [0] * (n - len(b))
        return (a > b) - (a < b)
"""

ZIP = """
class Solution:
    def compare_version(self, version1: str, version2: str) -> int:
        for x, y in zip(version1.split("."), version2.split(".")):
            if int(x) != int(y):
                return 1 if int(x) > int(y) else -1
        return 0
"""


def test_runs_keep_every_character_and_cut_at_each_separator() -> None:
    assert runs("1.001") == ["1", ".", "001"]
    assert runs("3[a]2[bc]") == ["3", "[", "a", "]", "2", "[", "bc", "]"]
    assert "".join(runs("/a//b/../C1")) == "/a//b/../C1"
    assert formatted(["1.0", "7.5.2"]) and not formatted(["MCMXCIV", "III"]) and not formatted(["a", 3])


def test_variants_of_the_examples_versions_are_versions_and_vary_in_revisions() -> None:
    fmt = Format(["1.2", "1.10", "1.01", "1.001", "1.0", "1.0.0.0"])
    assert fmt.zeros and fmt.varies  # "01" shows leading zeros; one, one and three dots
    rng = random.Random(1)
    made = [fmt.variant(rng, v) for v in ("1.2", "1.0.0.0") for _ in range(40)]
    assert all(VERSION.match(v) for v in made), [v for v in made if not VERSION.match(v)]
    assert len({v.count(".") for v in made}) >= 3  # groups repeated and dropped
    plain = Format(["255.0.10.1", "10.0.0.1"])  # IPv4: always three dots, no leading zeros
    ips = [plain.variant(rng, "255.0.10.1") for _ in range(40)]
    assert all(v.count(".") == 3 for v in ips)
    assert not any(re.search(r"(^|\.)0\d", v) for v in ips)


def test_generated_inputs_of_compare_version_separate_a_bug_on_valid_versions() -> None:
    problem = real("compare_version_numbers")
    got = generate_inputs(problem)
    formats = format_candidates(problem, parse_constraints(problem), [])["formats"]
    assert formats and all(VERSION.match(str(x["version1"])) and VERSION.match(str(x["version2"])) for x in formats)
    valid = [dict(x) for x in got.inputs if VERSION.match(str(x["version1"])) and VERSION.match(str(x["version2"]))]
    right, wrong = outputs(problem, RIGHT, valid), outputs(problem, ZIP, valid)
    differ = [x for x, a, b in zip(valid, right, wrong, strict=True) if a != b]
    # "4.6.2" against "4.6.2.15": the zip drops the longer version's last revision
    assert differ, valid
    assert all(a.startswith("ok:") for a in right)


def test_a_problem_without_separators_gets_no_format_inputs() -> None:
    problem = real("roman_to_integer")  # "MCMXCIV": one run, nothing to keep
    assert format_candidates(problem, parse_constraints(problem), []) == {}



ABBR_RIGHT = """
class Solution:
    def valid_word_abbreviation(self, word: str, abbr: str) -> bool:
        i = j = 0
        while j < len(abbr):
            if abbr[j].isdigit():
                if abbr[j] == "0":
                    return False
                k = j
                while k < len(abbr) and abbr[k].isdigit():
                    k += 1
                i += int(abbr[j:k])
                j = k
            else:
                if i >= len(word) or word[i] != abbr[j]:
                    return False
                i += 1
                j += 1
        return i == len(word)
"""

ABBR_ZEROS = ABBR_RIGHT.replace('                if abbr[j] == "0":\n                    return False\n', "")


def test_a_leading_zero_before_a_digit_run_of_the_examples_separates_an_abbreviation_that_accepts_it() -> None:
    """valid_word_abbreviation@agree: no generated abbreviation had a leading zero, so an answer
    that reads "i012iz4n" as 12 shared the correct cluster and was shown in one order."""
    problem = real("valid_word_abbreviation")
    made = format_candidates(problem, parse_constraints(problem), [])
    assert "formats" not in made  # "i12iz4n" has no separator: it is no format of runs
    assert {"word": "internationalization", "abbr": "i012iz4n"} in made["zeros"]
    got = [dict(x) for x in generate_inputs(problem).inputs]
    assert {"word": "internationalization", "abbr": "i012iz4n"} in got
    right, zeros = outputs(problem, ABBR_RIGHT, got), outputs(problem, ABBR_ZEROS, got)
    assert all(a.startswith("ok:") for a in right)
    assert right != zeros
    # a numeral alone ("0", "012") is the numeric strategy's, not this one's
    assert "zeros" not in format_candidates(real("multiply_strings"), parse_constraints(real("multiply_strings")), [])
