"""Claim-level reliability (CLR) scoring: trajectory weights, behaviour clusters, the proposal.

The formula (copied into the README)
------------------------------------

**Trajectory weight.** For candidate k with v_k verified and f_k failed claims (execution, sympy
or model verdicts; at most M = 5 claims), unchecked claims are left out:

    s_k = v_k / (v_k + f_k)        (s_k = 1 when no claim could be checked)
    r_k = s_k ** M

A trajectory loses weight only through evidence against it: a candidate whose checkable claims
all hold (including, vacuously, one with none) has r_k = 1 and outranks every candidate with a
failed claim (r_k < 1; one failure out of five gives 0.8**5 ≈ 0.33). Unchecked claims are left
out of the share, so they neither help nor hurt: counting them as half-true would let a
candidate with one verified and four unverifiable claims rank below one with a refuted claim.
Verified claims raise the reliability through rho below.

**Behaviour clusters.** Every parsed candidate runs on the same shared inputs (the examples,
then generated and model-proposed inputs). Its behaviour is one token per input: the output's
canonical form, or ``error`` / ``timeout``. Inputs on which no candidate returns anything are
dropped (they are probably invalid), unless a candidate that passes every example timed out there and
none crashed (then the input stays and counts as "too slow"). Candidates with identical behaviour form one cluster (as in
AlphaCode and CodeT); duplicates of a candidate join its cluster with their own r_k. In math
mode the behaviour is the final answer, clustered by sympy equivalence.

**Cluster ranking.** For cluster c: e_c = the share of examples its behaviour passes (1 when
there are no examples); h_c = the share of the remaining inputs on which it crashed or timed
out; and

    score_c = (1 - h_c) * sum_{k in c} r_k

Clusters rank by e_c first (a cluster that passes every example beats any that does not), then
clusters the oracle does not reject, then clusters not *outpaced* (a cluster is outpaced when it
timed out on an input that a rival which passes every example, and which no oracle verdict
rejects, answered within the limit, the oracle not answering differently there: the timeouts
count against it), then clusters that answered some input before those that never did, then score_c, then size, then
fewer crashes, then the most agreement with the other clusters' candidates, input by input (the
least arbitrary of clusters equal in all else), then the earliest candidate. The proposal is the member of the top cluster whose
outputs most of the cluster give exactly (floats cluster within a tolerance: ``4.999999999999999``
joins ``5.0``, but the answer shown is the one most members print), then the one with the
highest r_k, then the most verified claims, then the earliest.

**Reliability** of the proposal, in [0, 1]: a function of the evidence the scorer had about it
(:class:`vibecode.clr.reliability.Evidence`: examples, K, the cluster's size and its share of the
candidates that pass every example, the generated inputs it answered, the inputs a usable oracle
agreed on, whether the evidence is contested, crashes, claims, "too slow"); the formula and what
follows from it are in :mod:`vibecode.clr.reliability`. The evidence goes into
``Decision.evidence``; R = 0 when the status is ``failed``. A calibration map (isotonic points
``{"x": [...], "y": [...]}``, piecewise-linear in between, clamped outside) is then applied when
one is given.

**Status.** ``failed``: no candidate passes every example (or none parsed, or none produced
output at all); the proposal is then the closest candidate, with reliability 0. ``verified``
needs all of: there are examples and the proposal's cluster passes every one; at least
``MIN_GENERATED`` generated inputs ran with an answer from the proposal (the reason names the
sources), as many of them inputs known to keep the guarantees the statement states (``sound``:
where it states some, vibecode's own inputs only where the problem vouches for them, the model's
always; ``clr.trust``), and those answers are not all the same (:func:`one_answer`: inputs that all answer
``false`` cannot tell the proposal from a program that always says so); and no other cluster that passes every example *contradicts* it, i.e. answers an input
differently where both answered, or answers where the proposal crashed (a rival that only crashes
where the proposal answers does not contradict it). Clusters that contradict each other make the
evidence *contested*: the status is then ``plausible`` with the reason "Contested" and the first
distinguishing input (``Decision.contested_input``), whatever the cluster sizes; the same holds
for score ties. **Oracle.** With a usable brute-force oracle (``vibecode.clr.oracle``) a
cluster that answers a generated input the oracle answered differently is *rejected* when the
oracle's answer there is a verdict: the input is trusted (``vibecode.clr.trust``: the model's
inputs; vibecode's own only when the problem vouches for them) and some cluster agrees with the
oracle there (a timeout is no answer, so it is never rejected: the brute force may be fast where
the candidate is not, or the candidate's remaining inputs were cut off after two timeouts on inputs
that break a promise). A rejected cluster ranks below every cluster that agrees with the oracle, it cannot
contest the proposal (the oracle decided), and when the top cluster itself is rejected the status
is ``failed`` with that input. Where the oracle's answer is no verdict (untrusted, or no cluster
agrees) and differs from the proposal's, the proposal is *contested by the oracle*: ``plausible``
with that input, never ``verified``, never ``failed`` on that ground.
A proposal that tops an outpaced rival which would outrank it on score is ``plausible`` ("Contested:
... times out on input N"): timeouts rank, they never verify.
A proposal too slow for the constraints on the stress tier (``clr.stress``,
:func:`block_too_slow`) is ``plausible``, never ``verified``.
``plausible``: everything else that passes what could be checked — in particular
any problem without examples. In math mode ``verified`` needs a strict majority of K in the top
cluster, a strictly top score and no failed claim in the proposal.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.clr.compare import canonical, exact_key
from vibecode.clr.reliability import TOO_SLOW_FACTOR, Evidence, reliability
from vibecode.errors import CalibrationError
from vibecode.types import (
    CandidateEvidence,
    ClusterScore,
    Decision,
    InputResult,
    OutputOrder,
    SolveStatus,
)

M = 5
MIN_GENERATED = 3  # generated inputs the proposal must answer before it can be verified
NO_CLAIMS_SHARE = 1.0
SHARE_WEIGHT = 0.6
FAILURE_TOKENS = ("error", "timeout")
TIED = "Candidates that pass every example disagree elsewhere and score alike."


def behaviour_tokens(results: Sequence[InputResult], order: OutputOrder = "exact",
                     key: Callable[[object, OutputOrder], str] = canonical) -> tuple[str, ...]:
    """One token per input: ``ok:<canonical output>`` (``key`` of it), ``error`` or ``timeout``."""
    return tuple("ok:" + key(r.output, order) if r.status == "ok" else "timeout" if r.status == "timeout" else "error"
                 for r in results)


def exact_tokens(results: Sequence[InputResult], order: OutputOrder = "exact") -> tuple[str, ...]:
    """Like :func:`behaviour_tokens`, but floats exactly as printed (:func:`vibecode.clr.compare.exact_key`)."""
    return behaviour_tokens(results, order, exact_key)


def _exact_agreement(member: CandidateEvidence, members: Sequence[CandidateEvidence], keep: Sequence[int]) -> int:
    """On the kept inputs, how many (member, input) outputs of the cluster equal ``member``'s
    exactly; 0 for every member when their exact outputs are not known (the tie rule decides)."""
    if not member.exact:
        return 0
    mine = [member.exact[i] if i < len(member.exact) else "error" for i in keep]
    return sum(1 for m in members if m is not member and m.exact
               for j, i in enumerate(keep) if i < len(m.exact) and m.exact[i] == mine[j])


def trajectory_weight(claims: Sequence[object]) -> float:
    """r_k = s_k ** M (see the module doc)."""
    v = sum(getattr(c, "verdict", None) == "verified" for c in claims)
    f = sum(getattr(c, "verdict", None) == "failed" for c in claims)
    share = v / (v + f) if v + f else NO_CLAIMS_SHARE
    return float(share**M)


@dataclass(frozen=True)
class Calibration:
    """A monotone map from raw reliability to calibrated probability."""

    x: tuple[float, ...]
    y: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.x) != len(self.y) or not self.x:
            raise CalibrationError("A calibration map needs as many x as y values, at least one.")
        if any(b <= a for a, b in zip(self.x, self.x[1:], strict=False)):
            raise CalibrationError("Calibration x values must be strictly increasing.")
        if any(b < a for a, b in zip(self.y, self.y[1:], strict=False)):
            raise CalibrationError("Calibration y values must not decrease (isotonic).")
        if not all(0.0 <= v <= 1.0 for v in (*self.x, *self.y)):
            raise CalibrationError("Calibration values must lie in [0, 1].")

    @classmethod
    def from_mapping(cls, data: object) -> Calibration:
        if not isinstance(data, dict) or not isinstance(data.get("x"), list) or not isinstance(data.get("y"), list):
            raise CalibrationError('A calibration map is a JSON object {"x": [...], "y": [...]}.')
        try:
            return cls(tuple(float(v) for v in data["x"]), tuple(float(v) for v in data["y"]))
        except (TypeError, ValueError) as exc:
            raise CalibrationError("Calibration values must be numbers.") from exc

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"Cannot read the calibration map {path}: {exc}.") from exc
        return cls.from_mapping(data)

    def __call__(self, raw: float) -> float:
        xs, ys = self.x, self.y
        if raw <= xs[0]:
            return ys[0]
        if raw >= xs[-1]:
            return ys[-1]
        for (x0, y0), (x1, y1) in zip(zip(xs, ys, strict=False), zip(xs[1:], ys[1:], strict=False), strict=False):
            if x0 <= raw <= x1:
                return y0 + (y1 - y0) * (raw - x0) / (x1 - x0)
        return ys[-1]


def _verified(e: CandidateEvidence) -> int:
    return sum(c.verdict == "verified" for c in e.claims)


def _kept_columns(evidence: Sequence[CandidateEvidence], bounds: Sequence[tuple[float, float]] = ()) -> list[int]:
    """Inputs some candidate answered, or on which a candidate that passes every example timed
    out and none crashed (too slow, not invalid); without the generated inputs on which the
    candidates that pass every example answer only beyond the answer's stated ``bounds``
    (:func:`beyond_bounds`)."""
    width = max((len(e.behaviour) for e in evidence), default=0)
    passing = [e for e in evidence if e.examples_total and e.examples_passed == e.examples_total]
    column = [[e.behaviour[i] for e in evidence if i < len(e.behaviour)] for i in range(width)]
    slow = [any(i < len(e.behaviour) and e.behaviour[i] == "timeout" for e in passing) for i in range(width)]
    n_examples = max((e.examples_total for e in evidence), default=0)
    return [
        i for i in range(width)
        if (any(t.startswith("ok:") for t in column[i]) or (slow[i] and "error" not in column[i]))
        and not (bounds and i >= n_examples and beyond_bounds([e.behaviour[i] for e in passing if i < len(e.behaviour)], bounds))
    ]


def beyond_bounds(tokens: Sequence[str], bounds: Sequence[tuple[float, float]]) -> bool:
    """Whether the answers ``tokens`` (of the candidates that pass every example, on one input)
    all lie beyond the answer's stated bounds ("the answer fits in a 32-bit integer",
    ``problems.constraint_answers``), at least one of them answered: if any of those candidates is
    right, the input breaks the promise, and it is not evidence."""
    answers = [t for t in tokens if t.startswith("ok:")]
    return bool(answers) and all(_out_of(t, bounds) for t in answers)


def _out_of(token: str, bounds: Sequence[tuple[float, float]]) -> bool:
    try:
        value = json.loads(token[3:])
    except ValueError:
        return False
    return any(not lo <= x <= hi for x in _numbers(value) for lo, hi in bounds)


def _numbers(value: object) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [value]
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v)]
    return []


def decide(
    evidence: Sequence[CandidateEvidence],
    *,
    k: int,
    mode: str = "code",
    calibration: Calibration | None = None,
    tiers: dict[str, int] | None = None,
    oracle: Sequence[str] | None = None,
    trusted: Sequence[bool] | None = None,
    answer_bounds: Sequence[tuple[float, float]] = (),
    sound: Sequence[bool] | None = None,
) -> Decision:
    """Cluster, rank and choose (see the module doc). ``k``: candidates sampled in total;
    ``tiers``: how many non-example inputs each source gave (for the reason); ``oracle``: the
    behaviour tokens of a usable brute-force oracle on the same inputs; ``trusted``: per input,
    whether the oracle's answer there may be a verdict (``vibecode.clr.trust``; None: every input);
    ``answer_bounds``: the answer's stated bounds (``Constraints.answer_bounds``); ``sound``: per
    input, whether it is known to keep the guarantees the statement states (None: every input;
    ``verified`` needs ``MIN_GENERATED`` such generated inputs)."""
    inputs = decision_inputs(mode=mode, tiers=tiers, oracle=oracle, trusted=trusted,
                             answer_bounds=answer_bounds, sound=sound)
    inputs["exact"] = {str(e.index): list(e.exact) for e in evidence if e.exact}
    k = max(k, len(evidence), 1)
    r = {e.index: trajectory_weight(e.claims) for e in evidence}
    if not evidence:
        return Decision("failed", None, 0.0, 0.0, (), {}, {}, k, "No candidate produced code that parses.",
                        inputs=inputs)
    n_examples = max(e.examples_total for e in evidence)
    keep = _kept_columns(evidence, answer_bounds)
    groups: dict[tuple[str, ...], list[CandidateEvidence]] = {}
    for e in evidence:
        key = tuple(e.behaviour[i] if i < len(e.behaviour) else "error" for i in keep)
        groups.setdefault(key, []).append(e)
    passing_keys = [key for key, members in groups.items() if max(m.examples_passed for m in members) == n_examples]
    judged, unjudged = _judged_columns(keep, oracle, n_examples, trusted, list(groups), passing_keys)
    against_of = {key: next((j for j in judged if key[j] not in (judged[j], "timeout")), None) for key in groups}
    oracle_cols = {**unjudged, **judged}
    fast = [key for key in passing_keys if against_of[key] is None]
    vouched = {j for j, i in enumerate(keep) if trusted is None or (i < len(trusted) and trusted[i])}
    outpaced = {key: _outpaced(key, [f for f in fast if f != key], oracle_cols, vouched) for key in groups}
    ranked = []
    for key, members in groups.items():
        fails = sum(t in FAILURE_TOKENS for t in key)
        h = fails / len(key) if key else 0.0
        passed = max(m.examples_passed for m in members)
        e_c = passed / n_examples if n_examples else 1.0
        r_sum = sum(r[m.index] for m in members)
        score = (1.0 - h) * r_sum
        best = min(members, key=lambda m: (-_exact_agreement(m, members, keep), -r[m.index], -_verified(m), m.index))
        against = against_of[key]
        ranked.append((e_c, against is None, h < 1.0, score, len(members), -h, -min(m.index for m in members),
                       members, best, h, passed, r_sum, key, against))
    central = {t[12]: _centrality(t[12], groups) for t in ranked}
    ranked.sort(key=lambda t: (t[0], t[1], outpaced[t[12]] is None, *t[2:6], central[t[12]], t[6]), reverse=True)
    clusters = tuple(
        ClusterScore(rank, tuple(sorted(m.index for m in t[7])), t[8].index, t[11], t[3], t[10], n_examples, t[9])
        for rank, t in enumerate(ranked)
    )
    cluster_of = {i: c.rank for c in clusters for i in c.members}
    top = clusters[0]
    top_members = ranked[0][7]
    silent = not keep and any(e.behaviour for e in evidence)
    runner_rejected = len(ranked) > 1 and ranked[1][13] is not None
    status, reason = _status(clusters, top_members, k, n_examples, mode, silent, runner_rejected)
    contested: int | None = None
    disputed = False
    # J: the generated inputs on which the oracle answers as the proposal does (a verdict or not)
    agreed = sum(1 for j, tok in {**judged, **unjudged}.items() if ranked[0][12][j] == tok and tok.startswith("ok:"))
    if status != "failed" and judged and ranked[0][13] is not None:
        col = ranked[0][13]
        status, contested = "failed", keep[col]
        reason = (f"Every cluster that passes the examples disagrees with the brute-force oracle on a trusted "
                  f"input; the top one answers input {keep[col] + 1} differently ({_shown(ranked[0][12][col])} "
                  f"instead of {_shown(judged[col])}).")
    elif status != "failed" and mode != "math" and n_examples:
        keys = [(t[12], len(t[7]), t[10], t[13] is not None) for t in ranked]
        kept_sound = None if sound is None else {j for j, i in enumerate(keep) if i < len(sound) and sound[i]}
        status, reason, contested, disputed = _contest(status, reason, keys, keep, n_examples, tiers, agreed, kept_sound)
    if status == "verified" or reason == TIED:
        rows = [(t[0], t[13] is not None, (t[2], t[3], t[4]), len(t[7]), outpaced[t[12]]) for t in ranked]
        status, reason, contested = _outpaced_rival(status, reason, contested, rows, keep)
    oracle_disputed = [j for j, tok in unjudged.items() if ranked[0][12][j] != tok]
    if status != "failed" and oracle_disputed:
        status, reason, contested = _oracle_dispute(status, reason, contested, keep, ranked[0][12], unjudged,
                                                    oracle_disputed, trusted)
    if status == "failed":
        return Decision(status, top.best, 0.0, 0.0, clusters, r, cluster_of, k, reason, contested, inputs=inputs)
    top_key = ranked[0][12]
    generated = [tok for i, tok in zip(keep, top_key, strict=False) if i >= n_examples]
    passing = sum(len(t[7]) for t in ranked if n_examples and t[10] == n_examples)
    # D_b: disputed inputs where a rival that passes every example (and that the oracle did not
    # reject) answers as the oracle does: two programs against the proposal there
    free_rivals = [t[12] for t in ranked[1:] if n_examples and t[10] == n_examples and t[13] is None]
    backed = sum(1 for j in oracle_disputed if any(key[j] == unjudged[j] for key in free_rivals))
    ev = Evidence(
        examples=n_examples, k=k, cluster=len(top.members), passing=max(passing, len(top.members)),
        generated=sum(tok.startswith("ok:") for tok in generated), oracle_agreed=agreed,
        contested=disputed, failure_rate=top.failure_rate,
        claims_verified=sum(c.verdict == "verified" for m in top_members for c in m.claims),
        claims_failed=sum(c.verdict == "failed" for m in top_members for c in m.claims),
        too_slow="timeout" in generated, mode=mode,
        rivals_rejected=sum(1 for t in ranked[1:] if t[13] is not None and t[10] == n_examples),
        oracle_disputed=len(oracle_disputed), oracle_backed=backed,
        one_answer=one_answer(top_key, keep, n_examples) is not None)
    raw = reliability(ev)
    final = calibration(raw) if calibration is not None else raw
    return Decision(status, top.best, final, raw, clusters, r, cluster_of, k, reason, contested,
                    evidence=ev.to_json(), inputs=inputs)


def decision_inputs(*, mode: str = "code", tiers: dict[str, int] | None = None,
                    oracle: Sequence[str] | None = None, trusted: Sequence[bool] | None = None,
                    answer_bounds: Sequence[tuple[float, float]] = (),
                    sound: Sequence[bool] | None = None) -> dict[str, object]:
    """:func:`decide`'s keyword arguments but the calibration, as JSON (``Decision.inputs``, which
    also holds each candidate's ``exact`` tokens): ``decide(evidence, k=k, calibration=c,
    **decide_kwargs(inputs))`` on the same evidence decides again exactly."""
    return {"mode": mode, "tiers": dict(tiers) if tiers is not None else None,
            "oracle": list(oracle) if oracle is not None else None,
            "trusted": list(trusted) if trusted is not None else None,
            "answer_bounds": [list(b) for b in answer_bounds],
            "sound": list(sound) if sound is not None else None}


def decide_kwargs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`decide` stored by :func:`decision_inputs`."""
    return {"mode": str(inputs.get("mode") or "code"), "tiers": inputs.get("tiers"),
            "oracle": inputs.get("oracle"), "trusted": inputs.get("trusted"),
            "answer_bounds": [(float(lo), float(hi)) for lo, hi in inputs.get("answer_bounds") or ()],
            "sound": inputs.get("sound")}


def _centrality(key: tuple[str, ...], groups: Mapping[tuple[str, ...], Sequence[CandidateEvidence]]) -> int:
    """How many (candidate, input) answers of the other clusters' candidates agree with ``key``:
    the tie-break between clusters equal in everything else. Candidates that differ only on
    inputs a promise rules out agree elsewhere, so the cluster most like the rest is the least
    arbitrary pick (the order the candidates came in decides nothing)."""
    return sum(sum(a == b for a, b in zip(key, other, strict=True)) * len(group)
               for other, group in groups.items() if other != key)


def _contradiction(top: Sequence[str], other: Sequence[str]) -> int | None:
    """The first column where ``other`` contradicts ``top``: both answer differently, or only
    ``other`` answers."""
    for i, (a, b) in enumerate(zip(top, other, strict=False)):
        if b.startswith("ok:") and a != b:
            return i
    return None


def _outpaced(key: Sequence[str], fast: Sequence[Sequence[str]], oracle: Mapping[int, str],
              vouched: Collection[int]) -> int | None:
    """The first column where ``key`` timed out and a rival in ``fast`` (clusters that pass every
    example and that no oracle verdict rejects) answered within the limit, with the oracle's
    answer there, if it has one, the rival's. A timeout is evidence only against a rival that
    answers, and only on an input vibecode vouches for (``vouched`` columns): where no one
    answered, the oracle contradicts the faster answer, or the input may break a promise of the
    statement (fraction_to_recurring_decimal's "fewer than 10^4 characters": a huge denominator
    makes a correct answer slow and a wrong one fast), it says nothing."""
    for j, tok in enumerate(key):
        if tok != "timeout" or j not in vouched:
            continue
        for other in fast:
            answer = other[j] if j < len(other) else "error"
            if answer.startswith("ok:") and (j not in oracle or not oracle[j].startswith("ok:") or oracle[j] == answer):
                return j
    return None


def _outpaced_rival(status: SolveStatus, reason: str, contested: int | None,
                    rows: Sequence[tuple[float, bool, tuple[bool, float, int], int, int | None]], keep: Sequence[int],
                    ) -> tuple[SolveStatus, str, int | None]:
    """A proposal that tops a cluster which would outrank it but for timing out where the proposal
    answers is ``plausible`` (the timeouts rank, they do not verify), with that input as the
    reason (the score-tie rule usually made it ``plausible`` already). ``rows``, per
    cluster best first: (examples share, rejected by the oracle, (answered some input, score,
    size), size, the column where it was outpaced)."""
    share, _, strength, size, _ = rows[0]
    for other_share, rejected, other_strength, other_size, col in rows[1:]:
        if col is not None and other_share == share and not rejected and other_strength > strength:
            return ("plausible", f"Contested: a cluster with a higher score ({other_size} candidate(s), against {size}) "
                    f"also passes every example but times out on input {keep[col] + 1}, where the proposal "
                    "answers within the limit; the timeouts rank the proposal first, they do not verify it.",
                    keep[col])
    return status, reason, contested


def _judged_columns(keep: Sequence[int], oracle: Sequence[str] | None, n_examples: int,
                    trusted: Sequence[bool] | None, keys: Sequence[tuple[str, ...]],
                    passing: Sequence[tuple[str, ...]] = (),
                    ) -> tuple[dict[int, str], dict[int, str]]:
    """Kept column -> the oracle's token on the generated inputs the oracle answered, split into
    verdicts (a trusted input on which some cluster agrees with the oracle) and the rest
    (untrusted, or suspect: no cluster agrees there). An input the oracle refuses (crashes on)
    together with a cluster that passes every example (``passing``) is in the rest too: never a
    verdict, but a proposal that answers there is contested by the oracle."""
    judged: dict[int, str] = {}
    unjudged: dict[int, str] = {}
    if not oracle:
        return judged, unjudged
    for j, i in enumerate(keep):
        if not n_examples <= i < len(oracle):
            continue
        if oracle[i] == "error" and any(key[j] == "error" for key in passing):
            unjudged[j] = oracle[i]
            continue
        if not oracle[i].startswith("ok:"):
            continue
        vouched = trusted is None or (i < len(trusted) and trusted[i])
        agreed = any(key[j] == oracle[i] for key in keys)
        (judged if vouched and agreed else unjudged)[j] = oracle[i]
    return judged, unjudged


def _oracle_dispute(status: SolveStatus, reason: str, contested: int | None, keep: Sequence[int],
                    top_key: Sequence[str], unjudged: Mapping[int, str], disputed: Sequence[int],
                    trusted: Sequence[bool] | None) -> tuple[SolveStatus, str, int | None]:
    """The oracle answers differently from the proposal where its answer is no verdict: the
    proposal is contested by the oracle (``plausible``, never ``verified``, never ``failed``)."""
    col = disputed[0]
    i = keep[col]
    why = ("no cluster agrees with the oracle there" if trusted is None or (i < len(trusted) and trusted[i])
           else "vibecode generated it and the problem has guarantees it cannot check")
    if unjudged[col] == "error":  # the oracle refuses the input, as a candidate that passes the examples does
        why = "an input both refuse may be one the problem never gives"
        first = f"crashes on it, as a candidate that passes every example does, where the proposal answers {_shown(top_key[col])}"
    else:
        first = f"{_shown(unjudged[col])} instead of {_shown(top_key[col])}"
    said = (f"The brute-force oracle answers {len(disputed)} generated input(s) differently from the proposal, "
            f"first input {i + 1} ({first}); that is no verdict ({why}), so the oracle cannot judge there.")
    if status == "verified":
        return "plausible", f"Contested: {said[0].lower()}{said[1:]}", i
    return status, f"{reason} {said}", contested if contested is not None else i


def _shown(token: str) -> str:
    text = token[3:] if token.startswith("ok:") else token
    return text if len(text) <= 60 else text[:57] + "..."


def _contest(status: SolveStatus, reason: str, keys: Sequence[tuple[tuple[str, ...], int, int, bool]],
             keep: Sequence[int], n_examples: int, tiers: dict[str, int] | None, judged: int,
             vouched: Collection[int] | None = None,
             ) -> tuple[SolveStatus, str, int | None, bool]:
    """Downgrade to ``plausible`` when a rival that passes every example contradicts the proposal
    (and no oracle rejected the rival) or when too few generated inputs ran, or too few that
    ``vouched`` (positions in ``keep``: inputs known to keep the statement's guarantees,
    ``clr.trust``; None: all) holds; the last value says whether the evidence is contested.
    ``keys``: (behaviour, size, examples passed, rejected by the oracle) per cluster, best first."""
    top_key, top_size, _, _ = keys[0]
    decided = 0
    for key, size, passed, rejected in keys[1:]:
        col = _contradiction(top_key, key) if passed == n_examples else None
        if col is not None and rejected:
            decided += 1
        elif col is not None:
            return ("plausible", f"Contested: another cluster ({size} candidate(s), against {top_size}) also "
                    f"passes every example but answers input {keep[col] + 1} differently.", keep[col], True)
    if status != "verified":
        return status, reason, None, False
    answered = sum(1 for i, t in zip(keep, top_key, strict=False) if i >= n_examples and t.startswith("ok:"))
    named = ", ".join(f"{n} {t}" for t, n in (tiers or {}).items() if n) or "none"
    if answered < MIN_GENERATED:
        return ("plausible", f"The proposal passes all {n_examples} examples, but only {answered} generated "
                f"input(s) ran (by source: {named}); at least {MIN_GENERATED} are needed to verify.", None,
                False)
    sound = sum(1 for j, (i, t) in enumerate(zip(keep, top_key, strict=False))
                if i >= n_examples and t.startswith("ok:") and (vouched is None or j in vouched))
    if sound < MIN_GENERATED:
        return ("plausible", f"The proposal passes all {n_examples} examples and {answered} generated inputs "
                f"(by source: {named}), but only {sound} of them keep the statement's guarantees for all "
                "vibecode knows (it cannot check one of them on its own inputs, and the model made no inputs "
                f"of its own); at least {MIN_GENERATED} are needed to verify.", None, False)
    same = one_answer(top_key, keep, n_examples)
    if same is not None:
        return ("plausible", f"The proposal passes all {n_examples} examples, but it gives every one of the "
                f"{answered} generated inputs (by source: {named}) the same answer, {_shown(same)}: they cannot "
                "tell it from a program that always answers so.", None, False)
    rivals = "no cluster that passes the examples disagrees"
    if decided:
        rivals = (f"the brute-force oracle agrees with it on {judged} input(s) and rejects the {decided} "
                  "other cluster(s) that pass the examples")
    elif judged:
        rivals += f", and the brute-force oracle agrees on {judged} input(s)"
    return status, f"{reason.rstrip('.')}; {answered} generated inputs ran (by source: {named}) and {rivals}.", None, False


def one_answer(key: Sequence[str], keep: Sequence[int], n_examples: int) -> str | None:
    """The answer (its token) the behaviour ``key`` gives every generated input it answered, where
    it answered at least two and all alike; None where its answers differ. matchsticks_to_square's
    random sticks almost never make a square: 36 generated inputs all answered false, and so did a
    greedy that cannot find the squares it should."""
    answers = [t for i, t in zip(keep, key, strict=False) if i >= n_examples and t.startswith("ok:")]
    return answers[0] if len(answers) >= 2 and len(set(answers)) == 1 else None


def _status(
    clusters: Sequence[ClusterScore], top_members: Sequence[CandidateEvidence], k: int, n_examples: int,
    mode: str, silent: bool, runner_rejected: bool = False,
) -> tuple[SolveStatus, str]:
    top = clusters[0]
    runner_up = clusters[1] if len(clusters) > 1 else None
    if n_examples and top.examples_passed < n_examples:
        return "failed", (f"No candidate passes all {n_examples} examples; the closest passes "
                          f"{top.examples_passed}.")
    if silent or top.failure_rate >= 1.0:
        what = "an answer" if mode == "math" else "output on any input"
        return "failed", f"No candidate produced {what}."
    tied = runner_up is not None and not runner_rejected and runner_up.examples_passed == top.examples_passed and runner_up.score >= top.score
    if mode == "math":
        best_claims = next(m.claims for m in top_members if m.index == top.best)
        agree = f"{len(top.members)} of {k} candidates agree on the answer."
        if 2 * len(top.members) > k and not tied and not any(c.verdict == "failed" for c in best_claims):
            return "verified", agree
        return "plausible", agree
    if not n_examples:
        return "plausible", "The problem has no examples, so nothing could be verified against them."
    if tied:
        return "plausible", TIED
    return "verified", f"The proposal passes all {n_examples} examples and its cluster has the top score."


def block_too_slow(decision: Decision, too_slow: Mapping[int, str]) -> Decision:
    """``verified`` also needs the proposal to keep within the stress tier's time limit
    (``clr.stress``): a proposal in ``too_slow`` (candidate -> reason) becomes ``plausible``, its
    reliability lowered by the too-slow factor (once)."""
    best = decision.best
    if decision.status != "verified" or best is None or best not in too_slow:
        return decision
    evidence = dict(decision.evidence or {})
    factor = 1.0 if evidence.get("too_slow") else TOO_SLOW_FACTOR  # counted once, as in reliability()
    evidence["too_slow"] = True
    return dataclasses.replace(decision, status="plausible",
                               reason=f"The proposal is {too_slow[best]}, so it is not verified.",
                               reliability=decision.reliability * factor,
                               raw_reliability=decision.raw_reliability * factor, evidence=evidence)
