"""Decisions: solve scoring and results, fix candidates and results, pre-commit results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from vibecode.types.engine import Completion
from vibecode.types.problems import ExampleResult, MathProblem, Problem
from vibecode.types.runs import Claim, Patch, TestCaseResult

# --- Scoring (vibecode.clr.score) -------------------------------------------------------------

SolveStatus = Literal["verified", "plausible", "failed"]


@dataclass(frozen=True)
class CandidateEvidence:
    """Everything the scorer needs about one parsed candidate.

    ``behaviour`` has one token per shared input (examples first, then generated inputs), made by
    ``vibecode.clr.score.behaviour_tokens``; duplicates of a candidate repeat its behaviour but
    keep their own claims.
    """

    index: int
    examples_passed: int
    examples_total: int
    behaviour: tuple[str, ...]
    claims: tuple[Claim, ...] = ()
    # The same tokens with floats exactly as printed (``vibecode.clr.score.exact_tokens``), to
    # pick within a cluster the member most others agree with exactly; () when not known.
    exact: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClusterScore:
    rank: int  # 0 = best
    members: tuple[int, ...]  # candidate indices
    best: int  # the member proposed for this cluster
    r_sum: float
    score: float
    examples_passed: int
    examples_total: int
    failure_rate: float  # share of valid shared inputs on which the members crashed or timed out


@dataclass(frozen=True)
class Decision:
    status: SolveStatus
    best: int | None  # candidate index of the proposal
    reliability: float  # calibrated when a calibration map was given
    raw_reliability: float
    clusters: tuple[ClusterScore, ...]  # best first
    r: dict[int, float]  # candidate index -> r_k
    cluster_of: dict[int, int]  # candidate index -> rank of its cluster
    k: int  # candidates sampled (parsed or not)
    reason: str  # one sentence: why this status
    # the shared input (index into examples + generated inputs) on which two clusters that pass
    # every example answer differently; None when the evidence is not contested
    contested_input: int | None = None
    # the brute-force oracle, in one sentence: what it judged, or "no usable oracle: <why>"
    oracle: str | None = None
    # what the reliability was computed from (vibecode.clr.reliability.Evidence as JSON); None
    # for a failed decision
    evidence: dict[str, object] | None = None
    # what the scorer was given besides the candidates' evidence (``clr.score.decide``'s keyword
    # arguments as JSON: the oracle's tokens, the trusted and sound inputs, the answer's bounds,
    # the tiers, the mode), so that a stored run can be decided again exactly (``bench rescore``)
    inputs: dict[str, object] | None = None


@dataclass(frozen=True)
class CandidateReport:
    """Everything the pipeline learned about one sampled candidate."""

    index: int  # position in sampling order, from 0
    completion: Completion
    code: str | None = None  # extracted code (None when extraction failed)
    parsed: bool = False
    duplicate_of: int | None = None
    cluster: int | None = None  # rank of its behaviour cluster (0 = best)
    examples: tuple[ExampleResult, ...] = ()
    claims: tuple[Claim, ...] = ()
    r: float | None = None  # trajectory weight r_k
    error: str | None = None  # why it was dropped (extraction or syntax error)
    answer: str | None = None  # math mode: the boxed answer
    note: str | None = None  # how its code was adapted, if it was
    # One token per shared input, as the scorer saw it (``vibecode.clr.score.behaviour_tokens``);
    # kept so that a stored result can be re-scored without running anything again.
    behaviour: tuple[str, ...] = ()


@dataclass(frozen=True)
class SolveResult:
    """The outcome of ``Session.solve``/``solve_math``: the decision and its evidence."""

    mode: Literal["code", "math"]
    problem: Problem | MathProblem
    decision: Decision
    candidates: tuple[CandidateReport, ...]
    timing: dict[str, float]
    calibrated: bool
    notes: tuple[str, ...] = ()  # steps that were unavailable or skipped, in words
    # how many candidates were asked for and sampled, the --until rule and why sampling stopped
    sampling: dict[str, object] = field(default_factory=dict)

    @property
    def status(self) -> SolveStatus:
        return self.decision.status

    @property
    def best(self) -> CandidateReport | None:
        if self.decision.best is None:
            return None
        return next(c for c in self.candidates if c.index == self.decision.best)


# --- Fixing failing tests (vibecode.fix.pipeline, vibecode.precommit.check) -----------------------

# "passing": nothing failed, so there was nothing to fix; "no_tests": no test was collected, so
# nothing was checked at all.
FixStatus = Literal["verified", "plausible", "failed", "passing", "no_tests"]
# Which previously passing tests a patch was checked against: all of them, only those that import
# the modules it touches, or none (nothing imports them, or the budget ran out).
RegressionScope = Literal["all", "affected", "none"]


@dataclass(frozen=True)
class FixCandidate:
    """Everything the fix pipeline learned about one sampled patch."""

    index: int  # position in sampling order, from 0
    completion: Completion
    patch: Patch | None = None  # None when no edit could be extracted or applied
    diff: str | None = None
    parsed: bool = False  # edits extracted and applied to the files
    duplicate_of: int | None = None  # an earlier candidate with the same normalized diff
    retried: bool = False  # the patch came from the retry prompt
    error: str | None = None  # why it was dropped
    test_edit: bool = False  # the patch changes test files
    verified: bool = False  # it ran in the sandbox
    fixed: int = 0  # failing tests that pass with the patch
    failing_total: int = 0
    regressions: tuple[str, ...] = ()  # previously passing tests that fail (or vanished)
    regression_run: int = 0  # previously passing tests checked
    regression_scope: RegressionScope = "none"
    outcomes: dict[str, str] = field(default_factory=dict)  # node id -> outcome, for the tests run
    verify_error: str | None = None  # the sandbox run itself went wrong (timeout, crash)
    claims: tuple[Claim, ...] = ()
    r: float | None = None
    cluster: int | None = None  # rank of its behaviour cluster (0 = best)
    rank: int | None = None  # place among the distinct patches (0 = best)
    proposal_id: str | None = None

    @property
    def fixes_all(self) -> bool:
        return self.failing_total > 0 and self.fixed == self.failing_total


@dataclass(frozen=True)
class FixResult:
    """The outcome of ``Session.fix``: the failing tests, the patches and the decision."""

    status: FixStatus
    reason: str  # one sentence: why this status
    failing: tuple[TestCaseResult, ...]  # the tests that failed before any patch
    passed_before: int
    candidates: tuple[FixCandidate, ...]
    best: int | None  # candidate index of the proposal
    reliability: float
    raw_reliability: float
    ranking: tuple[int, ...]  # distinct patches, best first
    k: int  # candidates sampled
    base: dict[str, object]  # {"kind": "worktree" | "index" | "folder", "commit": sha or None}
    root: str
    calibrated: bool = False
    timing: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    collection_error: str | None = None  # the suite could not even be collected
    environment: dict[str, object] = field(default_factory=dict)  # the Python the tests ran with

    @property
    def best_candidate(self) -> FixCandidate | None:
        if self.best is None:
            return None
        return next(c for c in self.candidates if c.index == self.best)


PrecommitMode = Literal["soft", "hard"]
# "passed": the affected tests pass; "failed": they fail; "error": vibecode could not check;
# "no_tests": no test was collected on the staged tree.
PrecommitOutcome = Literal["passed", "failed", "error", "no_tests"]


@dataclass(frozen=True)
class PrecommitResult:
    mode: PrecommitMode
    outcome: PrecommitOutcome
    exit_code: int  # what the hook exits with
    changed: tuple[str, ...]  # staged paths (against HEAD)
    selection: Literal["all", "affected", "given", "none"]  # which tests ran ("given": --tests)
    selected: tuple[str, ...]  # test files run, when only the affected ones
    tests_run: int
    failing: tuple[TestCaseResult, ...]
    fix: FixResult | None = None
    proposal_id: str | None = None
    message: str = ""  # what happened, in words (always set when outcome is "error")
    timing: dict[str, float] = field(default_factory=dict)
    environment: dict[str, object] = field(default_factory=dict)  # the Python the tests ran with
