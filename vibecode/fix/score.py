"""Scoring and ranking fix candidates (pure).

**Behaviour clusters.** Patches that are the same after normalization are one patch (verified
once). Patches behave alike when they have the same outcome on each failing test, break the same
previously passing tests, and agree on whether they edit test files; such patches form one
cluster (AlphaCode/CodeT-style agreement, here on the repository's own tests).

**Ranking** of clusters, best first:

1. patches that edit test files come last, unless test edits are allowed;
2. more failing tests fixed;
3. fewer regressions;
4. the cluster's score, the sum of its members' trajectory weights r_k (claims, as in solve);
5. its size, then the earliest candidate.

The distinct patches are ranked by their cluster's rank, then the highest r_k among each patch
and its duplicates, then the earliest; the proposal is the first of them (so, within the top
cluster, the patch that the most trusted trajectory produced).

**Status.** ``verified``: the proposal fixes every failing test, breaks no previously passing
test, and was checked against all of them (the suite was cheap enough, or the patch touches
modules that every test reaches), and edits no test file (or test edits were allowed).
``plausible``: the same, but only the tests that import the touched modules were checked (or
none could be). ``failed``: no patch fixes every failing test without a regression (a patch
that only passes by editing the tests counts as none, unless test edits were allowed).

**Reliability** of the proposal, with n failing tests, K candidates sampled (parsed or not), the
cluster c, and the cluster's pooled claim counts V (verified) and F (failed):

    T    = 1 - 2 ** -(n + 1)              (test evidence, as with the examples of solve)
    cov  = 1 for all regressions checked, 0.85 for the affected ones, 0.7 for none
    rho  = (V + 1) / (V + F + 2)
    R    = T * cov * (0.6 * |c| / K + 0.4 * rho)

and R = 0 when the status is ``failed``; a calibration map, when given, is applied to R.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vibecode.clr.score import Calibration, trajectory_weight
from vibecode.fix.wording import candidates_do, failing_tests, still_pass, were_checked
from vibecode.types import FixCandidate, FixStatus

SHARE_WEIGHT = 0.6
COVERAGE = {"all": 1.0, "affected": 0.85, "none": 0.7}


@dataclass(frozen=True)
class FixDecision:
    status: FixStatus
    best: int | None
    reliability: float
    raw_reliability: float
    ranking: tuple[int, ...]  # distinct patches (candidate indices), best first
    cluster_of: dict[int, int]  # candidate index -> cluster rank
    clusters: tuple[tuple[int, ...], ...]  # members, best cluster first
    reason: str


def behaviour(c: FixCandidate, failing: Sequence[str]) -> tuple[object, ...]:
    return (tuple(c.outcomes.get(n, "-") for n in failing), tuple(sorted(c.regressions)), c.test_edit)


def decide(
    candidates: Sequence[FixCandidate],
    failing: Sequence[str],
    *,
    k: int,
    allow_test_edits: bool = False,
    calibration: Calibration | None = None,
) -> FixDecision:
    """Cluster, rank and choose (see the module docstring). ``candidates``: the parsed ones that
    were verified (duplicates included)."""
    k = max(k, len(candidates), 1)
    r = {c.index: c.r if c.r is not None else trajectory_weight(c.claims) for c in candidates}
    if not candidates:
        return FixDecision("failed", None, 0.0, 0.0, (), {}, (), "No candidate produced a patch that applies.")
    groups: dict[tuple[object, ...], list[FixCandidate]] = {}
    for c in candidates:
        groups.setdefault(behaviour(c, failing), []).append(c)

    def cluster_key(members: list[FixCandidate]) -> tuple[object, ...]:
        head = members[0]
        score = sum(r[m.index] for m in members)
        return (head.test_edit and not allow_test_edits, -head.fixed, len(head.regressions), -score,
                -len(members), min(m.index for m in members))

    ranked = sorted(groups.values(), key=cluster_key)
    cluster_of = {m.index: rank for rank, members in enumerate(ranked) for m in members}
    clusters = tuple(tuple(sorted(m.index for m in members)) for members in ranked)
    distinct = [c for c in candidates if c.duplicate_of is None]
    by_index = {c.index: c for c in candidates}
    ranking = tuple(c.index for c in sorted(distinct, key=lambda c: (cluster_of[c.index], -_best_r(c, candidates, r), c.index)))
    top = ranked[0]
    best = by_index[ranking[0]]
    status, reason = _status(top[0], len(failing), allow_test_edits)
    editors = [c.index for c in distinct if c.test_edit and c.fixes_all and not c.regressions]
    if status == "failed" and editors and not allow_test_edits and not top[0].test_edit:
        reason += (f" {candidates_do(editors, 'fixes', 'fix')} all of them by editing a test file, which "
                   "is not proposed unless you allow it (--allow-test-edits).")
    if status == "failed":
        return FixDecision(status, best.index, 0.0, 0.0, ranking, cluster_of, clusters, reason)
    raw = cluster_reliability(top, len(failing), k)
    final = calibration(raw) if calibration is not None else raw
    return FixDecision(status, best.index, final, raw, ranking, cluster_of, clusters, reason)


def cluster_reliability(members: Sequence[FixCandidate], n_failing: int, k: int) -> float:
    """R of the module docstring for a cluster whose patches fix everything (uncalibrated)."""
    v = sum(cl.verdict == "verified" for m in members for cl in m.claims)
    f = sum(cl.verdict == "failed" for m in members for cl in m.claims)
    rho = (v + 1) / (v + f + 2)
    t = 1.0 - 2.0 ** -(n_failing + 1)
    raw = t * COVERAGE[members[0].regression_scope] * (SHARE_WEIGHT * len(members) / max(k, 1) + (1 - SHARE_WEIGHT) * rho)
    return min(1.0, max(0.0, raw))


def acceptable(c: FixCandidate, allow_test_edits: bool) -> bool:
    """Fixes every failing test, breaks nothing, and edits no test unless allowed."""
    return c.fixes_all and not c.regressions and (allow_test_edits or not c.test_edit)


def _best_r(c: FixCandidate, candidates: Sequence[FixCandidate], r: dict[int, float]) -> float:
    """A distinct patch's weight: the best r_k among it and its duplicates."""
    return max(r[m.index] for m in candidates if m.index == c.index or m.duplicate_of == c.index)


def _status(head: FixCandidate, n_failing: int, allow_test_edits: bool) -> tuple[FixStatus, str]:
    if not head.fixes_all:
        return "failed", (f"No patch fixes {failing_tests(n_failing)}; the closest fixes {head.fixed}."
                          if head.verified else "No patch could be checked in the sandbox.")
    if head.regressions:
        return "failed", (f"Every patch that fixes the failing tests breaks others; the best breaks "
                          f"{len(head.regressions)}.")
    if head.test_edit and not allow_test_edits:
        return "failed", "The only patches that make the tests pass edit the tests (allow them with --allow-test-edits)."
    edits = " It edits test files (allowed)." if head.test_edit else ""
    if head.regression_scope == "all":
        return "verified", (f"The proposal fixes {failing_tests(n_failing)} and "
                            f"{still_pass(head.regression_run)}.{edits}")
    if head.regression_scope == "affected":
        return "plausible", (f"The proposal fixes {failing_tests(n_failing)}; "
                             f"{were_checked(head.regression_run)}.{edits}")
    return "plausible", f"The proposal fixes {failing_tests(n_failing)}; no other test could be checked.{edits}"
