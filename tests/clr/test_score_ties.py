"""Issue 14: clusters equal in every ranking figure are not ordered by the candidates' order but
by how much the other candidates agree with them, input by input (``clr.score._centrality``).
Found on the dev pools 46-75: inputs that break a promise vibecode cannot generate ("you may
assume that the majority element always exists", "exactly one solution") make every candidate a
cluster of its own; the correct ones, which agree wherever the promise holds, then lost to a wrong
one in one of the two orders."""

from __future__ import annotations

import itertools

from vibecode.clr.score import decide
from vibecode.types import CandidateEvidence

A = ("ok:1", "ok:2", "ok:7", "ok:8", "ok:9", "ok:4")
B = ("ok:1", "ok:2", "ok:7", "ok:8", "ok:9", "ok:5")  # agrees most with the others
C = ("ok:1", "ok:2", "ok:7", "ok:8", "ok:3", "ok:5")


def test_a_tie_goes_to_the_cluster_the_others_agree_with_most_in_any_order() -> None:
    for order in itertools.permutations((A, B, C)):
        evidence = [CandidateEvidence(i, 2, 2, behaviour, ()) for i, behaviour in enumerate(order)]
        d = decide(evidence, k=3)
        assert d.best is not None and order[d.best] == B, order
        assert d.status == "plausible" and d.reason.startswith("Contested")  # still no verdict


def test_the_tie_break_never_overrides_size_or_examples() -> None:
    evidence = [CandidateEvidence(0, 2, 2, A, ()), CandidateEvidence(1, 2, 2, A, ()),
                CandidateEvidence(2, 2, 2, B, ()), CandidateEvidence(3, 1, 2, C, ())]
    d = decide(evidence, k=4)
    assert d.best in (0, 1)  # the larger cluster, though B agrees more with the rest
