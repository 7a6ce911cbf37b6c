"""The reliability of a proposal: a function of the evidence the scorer had (copied into the README).

:func:`vibecode.clr.score.decide` ranks the clusters and sets the status; this module turns what
it saw about the proposal into a number in [0, 1] that should be higher for right picks than for
wrong ones. It reads only :class:`Evidence`:

- n, the examples (all passed, or the status would be ``failed`` and R = 0);
- K, the candidates sampled; c, the candidates in the proposal's cluster (duplicates count:
  repeated samples are the model's self-consistency); P, the candidates whose behaviour passes
  every example (c <= P <= K);
- G, the generated inputs (every source after the examples: type, model, generator,
  differential) that the proposal answered; where it gave every one of them the same answer
  (``one_answer``: random sticks that never make a square, all ``false``) they tested one answer
  only, and G and J count as 1;
- J, the generated inputs on which a usable brute-force oracle answered the same (0 without one),
  whether or not its answer there is a verdict (``clr.trust``: agreement is evidence for the
  proposal anywhere; only a disagreement needs a trusted input to count against it);
- D, the generated inputs on which the oracle's answer is no verdict (``clr.trust``) and differs
  from the proposal's (the proposal is *contested by the oracle*); D_b of them (D_b <= D) are
  *backed*: a rival cluster that passes every example, and that the oracle did not reject, answers
  there as the oracle does;
- whether the evidence is *contested*: a cluster that passes every example contradicts the
  proposal and no oracle rejected it;
- h, the cluster's share of crashes and timeouts; V and F, the cluster's verified and failed
  claims; whether the proposal timed out on a generated input ("too slow").

The formula
-----------

    T  = 1 - 2 ** -(n + 1)                 the examples (0.75 with 1, 0.94 with 3; 1 in math mode)
    I  = 1 - 2 ** -(G / INPUT_HALF)        how far the generated inputs tested the behaviour
    A  = (c / K) * (1 + I) / 2             agreement of the sample, tested on the examples only
                                           (I = 0: it counts half) up to many generated inputs
    O  = 1 - 2 ** -(J / ORACLE_HALF)       the oracle's agreement (0 without an oracle)
    B  = max(A, O)                         the stronger of the two, not their combination: the
                                           candidates and the oracle come from the same model, so
                                           their errors are not independent
    Q  = c / P when contested, else 1      a contested proposal is as likely right as its share of
                                           the candidates that pass the examples (replaces a flat
                                           x0.5); a contest the oracle decided is not contested
    X  = 2 ** -((D - D_b) / DISPUTE_HALF   the oracle's disputes (1 with none): a dispute is no
              + D_b / BACKED_HALF)         verdict, but an oracle that passes every example and
                                           answers otherwise is doubt all the same; a backed one
                                           is two programs (the oracle and a rival that passes
                                           the examples) against the proposal, so each halves R
                                           (BACKED_HALF = 1), while the oracle alone, on an input
                                           vibecode cannot vouch for, may be off the problem's
                                           guarantees (DISPUTE_HALF = 4)
    rho = (V + 1) / (V + F + 2)            the claims (0.5 with none checked)
    R  = T * (1 - h) * (BEHAVIOUR_WEIGHT * B * Q * X + (1 - BEHAVIOUR_WEIGHT) * rho) * S

with S = ``TOO_SLOW_FACTOR`` when the proposal was too slow, else 1. The half-lives say how many
inputs halve the remaining doubt: every ``INPUT_HALF`` generated inputs the behaviour survived,
every ``ORACLE_HALF`` inputs the oracle agreed on; every ``DISPUTE_HALF`` inputs it disputes
alone, and every ``BACKED_HALF`` input it disputes together with a rival, halve what is left.
In math mode there are no inputs; A = c / K.

What follows from it (tests/clr/test_score_evidence.py checks each): more candidates in the
proposal's cluster, more generated inputs, more inputs the oracle agreed on, more verified and
fewer failed claims each raise R; a contested proposal that is a minority of the passing
candidates ranks below a contested majority, and both below the same evidence uncontested; an
oracle-decided contest is not lowered; each input the oracle disputes lowers R, a backed dispute
more than one the oracle makes alone; a proposal checked on the examples alone stays low
(T * (A + rho) / 2 at most about 0.5 with every candidate agreeing and about 0.1 for a lone one).

The constants are round numbers chosen on the LeetCode *dev* pools
(``vibecode bench leetcode --pools tests/data/leetcode_pools --part dev --orders 6``); nothing was
fitted on the held-out part.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

INPUT_HALF = 4.0  # generated inputs that halve the doubt left after agreement
ORACLE_HALF = 3.0  # inputs the oracle agreed on that halve the doubt
DISPUTE_HALF = 4.0  # inputs the oracle disputes alone that halve the behaviour evidence
BACKED_HALF = 1.0  # inputs the oracle disputes with a rival that passes the examples (D_b) that halve it
BEHAVIOUR_WEIGHT = 0.8  # the behaviour evidence's share against the claims'
TOO_SLOW_FACTOR = 0.6  # the proposal timed out on a generated input


@dataclass(frozen=True)
class Evidence:
    """What the scorer saw about the proposal (see the module doc for the letters)."""

    examples: int  # n
    k: int  # K
    cluster: int  # c
    passing: int  # P
    generated: int  # G
    oracle_agreed: int  # J
    contested: bool
    failure_rate: float  # h
    claims_verified: int  # V
    claims_failed: int  # F
    too_slow: bool = False
    mode: str = "code"
    rivals_rejected: int = 0  # clusters passing the examples that the oracle rejected (reported only)
    oracle_disputed: int = 0  # D: inputs where the oracle differs from the proposal but is no verdict (clr.trust)
    oracle_backed: int = 0  # D_b: those of D where a passing rival the oracle did not reject answers as it does
    one_answer: bool = False  # the proposal gave every generated input the same answer: G and J count as 1

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def doubt_left(count: int, half: float) -> float:
    """2 ** -(count / half): the doubt left after ``count`` checks that each could have failed."""
    return 2.0 ** -(max(count, 0) / half)


def parts(e: Evidence) -> dict[str, float]:
    """The named terms of the formula (T, I, A, O, B, Q, X, rho), for reports and tests."""
    k = max(e.k, e.cluster, 1)
    t = 1.0 if e.mode == "math" else 1.0 - 2.0 ** -(e.examples + 1)
    share = e.cluster / k
    generated, agreed = (min(e.generated, 1), min(e.oracle_agreed, 1)) if e.one_answer else (e.generated, e.oracle_agreed)
    if e.mode == "math":
        inputs, agreement = 1.0, share
    else:
        inputs = 1.0 - doubt_left(generated, INPUT_HALF)
        agreement = share * (1.0 + inputs) / 2.0
    oracle = 1.0 - doubt_left(agreed, ORACLE_HALF) if agreed else 0.0
    q = e.cluster / max(e.passing, e.cluster, 1) if e.contested else 1.0
    backed = min(max(e.oracle_backed, 0), max(e.oracle_disputed, 0))
    x = doubt_left(e.oracle_disputed - backed, DISPUTE_HALF) * doubt_left(backed, BACKED_HALF)
    rho = (e.claims_verified + 1) / (e.claims_verified + e.claims_failed + 2)
    return {"T": t, "I": inputs, "A": agreement, "O": oracle, "B": max(agreement, oracle), "Q": q, "X": x, "rho": rho}


def reliability(e: Evidence) -> float:
    """R of the module doc, in [0, 1] (before any calibration map)."""
    p = parts(e)
    mix = BEHAVIOUR_WEIGHT * p["B"] * p["Q"] * p["X"] + (1.0 - BEHAVIOUR_WEIGHT) * p["rho"]
    raw = p["T"] * (1.0 - e.failure_rate) * mix * (TOO_SLOW_FACTOR if e.too_slow else 1.0)
    return min(1.0, max(0.0, raw))
