"""Issue 14: "consists only of digits '0' and '1'" names two digits, not the digit class. Read as
every digit, vibecode's own inputs broke the statement and the oracle's verdicts on them failed a
correct pick (ones_and_zeroes, blind dev pools 151-165). The real statement, copied unchanged into
tests/data/leetcode."""

from __future__ import annotations

import json
from pathlib import Path

from tests.problems.test_problems_constraints import make
from vibecode.clr.inputs_tiers import generate_tiers
from vibecode.problems.constraints import parse_constraints
from vibecode.problems.leetcode_data import from_json, render_markdown
from vibecode.problems.statement import parse_problem

DATA = Path(__file__).resolve().parents[1] / "data" / "leetcode"


def test_ones_and_zeroes_strings_are_drawn_from_zero_and_one() -> None:
    problem = parse_problem(render_markdown(from_json(json.loads((DATA / "ones_and_zeroes.json").read_text()))))
    assert parse_constraints(problem).chars == {"strs": "01"}
    tiers = generate_tiers(problem, seed=0)
    assert tiers.inputs
    for args in tiers.inputs:
        assert all(set(s) <= {"0", "1"} for s in args["strs"])  # type: ignore[attr-defined]


def test_a_listed_class_keeps_only_its_quoted_members_and_a_class_beside_quotes_stays_whole() -> None:
    sig = "s: str"
    assert parse_constraints(make(sig, ["s consists of only the letters 'A' and 'B'."])).chars == {"s": "AB"}
    whole = parse_constraints(make(sig, ["s consists of digits and the characters '.' and ':'."])).chars["s"]
    assert set("0123456789.:") == set(whole)
    mixed = parse_constraints(make(sig, ["s consists of lowercase English letters, digits, '+' and '-'."])).chars["s"]
    assert set("az09+-") <= set(mixed)


def test_unique_points_keep_their_least_length_in_the_edge_tier() -> None:
    # convex_polygon: "3 <= points.length" and "All the given points are unique"; the edge modes
    # draw equal points, which used to collapse to one point: 32 of 33 edge inputs were dropped
    problem = parse_problem(render_markdown(from_json(json.loads((DATA / "convex_polygon.json").read_text()))))
    tiers = generate_tiers(problem, seed=0)
    edge = tiers.of("edge")
    assert len(edge) >= 4 and not any("edge input" in n for n in tiers.notes)
    for args in edge:
        points = args["points"]
        assert isinstance(points, list) and len(points) >= 3 and len({tuple(p) for p in points}) == len(points)
