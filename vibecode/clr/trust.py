"""On which inputs the brute-force oracle's answer is a verdict (issue 14; copied into the README).

vibecode's own inputs can break a guarantee that the constraint reader could not express ("s is
a valid Roman numeral", "intervals are non-overlapping"). On such an input a correct candidate and
the brute force may legitimately differ, so a disagreement there is not evidence against anyone.

The rule, per shared input (its *source* is known from where it sits; see :func:`input_trust`):

- **examples**: trusted (they are never judged by the oracle: they are checked against the
  statement's own outputs);
- **the model's inputs** (``model`` edge cases and the ``generator``'s inputs): trusted, the model
  read the statement and its guarantees; both are also validated against the parsed constraints;
- **vibecode's own inputs** (the ``type`` tiers and the ``differential`` inputs, which are
  mutations of other inputs and fresh tier inputs): trusted only when the problem's guarantees
  are all known to the input generator, i.e. (:func:`tiers_vouched`) the problem has constraint
  lines, every one was understood (``Constraints.skipped`` is empty), none is a promise that is
  not generated (``Constraints.promises``: "It is guaranteed that ...", "exactly one solution"),
  and the statement's description names no property of its inputs that lies outside the
  constraint lines (``non-overlapping``, ``valid ...``, ``guaranteed``, "you may assume that the
  majority element always exists", ...: :data:`GUARANTEE`).

:func:`vibecode.clr.score.decide` adds one more rule on the inputs that are left: an input on
which the oracle agrees with no cluster at all is *suspect* (probably invalid, or the oracle is
wrong there) and is not a verdict either. Where the oracle's answer is not a verdict and differs
from the proposal's, the proposal is *contested by the oracle*: ``plausible`` with that input
shown, never ``verified`` and never ``failed`` on that ground.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from vibecode.problems.constraints import parse_constraints
from vibecode.types import Problem

TRUSTED_SOURCES = ("model", "generator")  # inputs the model wrote after reading the statement
# A property of the inputs that the description states (outside the constraint lines).
GUARANTEE = re.compile(
    r"non-?overlapping|guarantee|promise|\bvalid\b|\bwell-formed\b|\bexactly one\b|\bno two\b|"
    r"\bat most one\b|\bbalanced\b|\bperfect\b|\bcomplete\b|\bconnected\b|\bacyclic\b|"
    r"\bpermutation\b|\bpalindrom|\b(?:you (?:may|can) )?assume that\b|\byou (?:may|can) assume\b",
    re.I,
)


def description(problem: Problem) -> str:
    """The statement without its constraint lines and examples (what :data:`GUARANTEE` reads)."""
    text = problem.statement
    for line in problem.constraints:
        text = text.replace(line, " ")
    cut = re.search(r"^\s*(?:\*\*|__)?\s*example\b", text, re.I | re.M)
    return text[: cut.start()] if cut else text


def tiers_vouched(problem: Problem) -> str | None:
    """None when vibecode's own inputs (tiers, differential) are known valid for ``problem``;
    otherwise why not, in words."""
    if not problem.constraints:
        return "the problem has no constraint lines, so nothing vouches for generated inputs"
    c = parse_constraints(problem)
    if c.skipped:
        return f"the constraint line {c.skipped[0][0]!r} was not understood"
    if c.promises:
        return f"the promise {c.promises[0]!r} is not generated"
    m = GUARANTEE.search(description(problem))
    if m:
        return f"the statement promises a property of its inputs that is not generated ({m.group(0)!r})"
    return None


def input_trust(problem: Problem, tiers: Mapping[str, int], total: int) -> tuple[bool, ...]:
    """Per shared input (``total`` of them), whether the oracle's answer there is a verdict.

    The shared inputs are, in this order: the examples, the ``type`` tiers, the model's inputs
    and the generator's (in either order, both trusted), then the ``differential`` ones (every
    input after those): ``tiers`` gives the counts by source."""
    n = len(problem.examples)
    own_ok = tiers_vouched(problem) is None
    typed = tiers.get("type", 0)
    model = sum(tiers.get(s, 0) for s in TRUSTED_SOURCES)
    out = []
    for i in range(total):
        if i < n:
            out.append(True)
        elif i < n + typed:
            out.append(own_ok)
        elif i < n + typed + model:
            out.append(True)
        else:
            out.append(own_ok)
    return tuple(out)
