"""Frozen values that cross module boundaries.

Keep this module free of behaviour beyond small derived properties: it is imported by every
layer, so it must stay cheap and dependency-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Role = Literal["system", "user", "assistant"]
FinishReason = Literal["stop", "length", "cancelled"]
Phase = Literal["thinking", "answer"]


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class SamplingParams:
    """How to sample. ``top_k=0`` and ``min_p=0`` disable those filters."""

    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 0
    min_p: float = 0.0
    max_tokens: int = 1024
    # Thinking longer than this closes the think block and forces the answer (budget forcing).
    max_think_tokens: int | None = None
    stop: tuple[str, ...] = ()
    seed: int | None = None
    ignore_eos: bool = False
    # Text appended after the assistant header, before generation (e.g. "<think>\n").
    # It counts as generated text for the think/answer split.
    prefill: str = ""
    # Sum the chosen tokens' log-probabilities into Completion.logprob. It costs one pass over
    # the vocabulary per token, so it is off unless asked for.
    logprobs: bool = False


@dataclass(frozen=True)
class Completion:
    """One sampled sequence.

    ``text`` is everything the model produced (after any prefill), including the think block;
    ``reasoning`` is the text inside ``<think>...</think>`` and ``answer`` the rest.
    """

    text: str
    reasoning: str
    answer: str
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int = 0
    logprob: float | None = None
    seed: int | None = None
    budget_forced: bool = False
    seq: int = 0
    duration_s: float = 0.0


@dataclass(frozen=True)
class TokenDelta:
    """Streaming event: sequence ``seq`` produced ``text``; ``tokens`` generated so far."""

    seq: int
    text: str
    tokens: int
    phase: Phase
    budget_forced: bool = False


@dataclass(frozen=True)
class SequenceDone:
    """Streaming event: sequence ``seq`` finished with ``completion``."""

    seq: int
    completion: Completion


StreamEvent = TokenDelta | SequenceDone


@dataclass(frozen=True)
class EngineInfo:
    engine: str  # "llama", "openai", "replay"
    model: str  # model id or path or URL
    backend: str  # "CPU", "CUDA", "Metal", "Vulkan", "remote", "replay"
    gpu_layers: int
    n_ctx: int
    n_ctx_train: int | None = None
    n_threads: int | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileChange:
    """A whole-file change. ``old is None``: created; ``new is None``: deleted."""

    path: str  # repository-relative, POSIX separators
    old: str | None
    new: str | None


@dataclass(frozen=True)
class Patch:
    changes: tuple[FileChange, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(c.path for c in self.changes)


@dataclass(frozen=True)
class RunResult:
    """What one sandboxed command did."""

    exit_code: int | None  # None when killed by a signal
    signal: int | None
    timed_out: bool
    oom: bool
    stdout: str  # tail, capped
    stderr: str  # tail, capped
    stdout_bytes: int  # total size produced, before capping
    stderr_bytes: int
    duration_s: float
    peak_memory_mb: float | None
    backend: str  # "local" | "docker"
    # Protection name -> whether it was active for this run ("network", "readonly_root", ...).
    protections: dict[str, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.oom


TestOutcome = Literal["passed", "failed", "error", "skipped"]


@dataclass(frozen=True)
class TestCaseResult:
    nodeid: str  # e.g. "tests/test_x.py::test_y"
    outcome: TestOutcome
    duration_s: float = 0.0
    message: str = ""  # failure message / traceback text


@dataclass(frozen=True)
class TestReport:
    """Per-test outcomes of one pytest run, read from JUnit XML (never invented)."""

    cases: tuple[TestCaseResult, ...]
    run: RunResult
    collection_error: str | None = None  # set when collection broke
    complete: bool = True  # False when the report was missing/corrupt and outcomes are partial

    @property
    def passed(self) -> tuple[str, ...]:
        return tuple(c.nodeid for c in self.cases if c.outcome == "passed")

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(c.nodeid for c in self.cases if c.outcome in ("failed", "error"))


ClaimMethod = Literal["execution", "sympy", "model", "unchecked"]
ClaimVerdict = Literal["verified", "failed", "unchecked"]


@dataclass(frozen=True)
class Claim:
    text: str
    kind: str  # "io", "arithmetic", "algebra", "complexity", "invariant", ...
    method: ClaimMethod = "unchecked"
    verdict: ClaimVerdict = "unchecked"
    detail: str = ""


# --- Problems (vibecode.tasks) ----------------------------------------------------------------

ProblemStyle = Literal["leetcode", "humaneval"]
# How outputs are compared: "exact" lists as given; "any" the top-level list is a multiset;
# "any_nested" every list level is a multiset (the statement says the inner order does not matter
# either, e.g. "the order of the triplets and of the numbers in them does not matter").
OutputOrder = Literal["exact", "any", "any_nested"]


@dataclass(frozen=True)
class Param:
    name: str
    # The annotation as written in the starter code ("List[int]", "Optional[ListNode]"), or the
    # type inferred from the examples when there was no starter; None when unknown.
    type: str | None = None


@dataclass(frozen=True)
class Signature:
    """The function a candidate must define."""

    function: str  # method or function name, e.g. "twoSum"
    params: tuple[Param, ...]
    returns: str | None = None  # return annotation; "None" means "modify the first argument in place"
    class_name: str | None = None  # "Solution" for LeetCode starters; None for a plain function
    inferred: bool = False  # True when names and types were inferred from the examples

    @property
    def entry_point(self) -> str:
        return f"{self.class_name}.{self.function}" if self.class_name else self.function

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)


@dataclass(frozen=True)
class Example:
    """One worked example: inputs and the expected output as Python values.

    Linked lists and trees stay in LeetCode's list serialization (``[1,2,3]``,
    ``[3,9,20,null,null,15,7]``); the harness converts them according to the parameter types.
    """

    inputs: dict[str, object]
    output: object
    explanation: str = ""
    source: str = ""  # the example's text as written


@dataclass(frozen=True)
class Problem:
    style: ProblemStyle
    title: str
    statement: str
    signature: Signature
    examples: tuple[Example, ...]
    constraints: tuple[str, ...]
    starter: str  # starter code to show the model: as given, or synthesized from the signature
    output_order: OutputOrder = "exact"
    text: str = ""  # the whole original text
    warnings: tuple[str, ...] = ()  # things the parser skipped, in words

    @property
    def any_order(self) -> bool:
        return self.output_order != "exact"


@dataclass(frozen=True)
class MathProblem:
    question: str  # the text to show the model
    title: str = ""
    # A reference answer from a trailing "Answer:" line, for evaluation only: never show it to
    # the model.
    reference: str | None = None


# --- Running candidates on inputs (vibecode.clr.harness) --------------------------------------

InputStatus = Literal["ok", "error", "timeout", "not_run"]


@dataclass(frozen=True)
class InputResult:
    """What one candidate did on one input. ``output`` is JSON-like (lists, not nodes)."""

    index: int
    status: InputStatus
    output: object = None
    error: str = ""
    duration_s: float = 0.0
    stdout: str = ""  # what the candidate printed while running this input (capped)


@dataclass(frozen=True)
class ExampleResult:
    index: int
    passed: bool
    status: InputStatus
    expected: object
    actual: object = None
    error: str = ""


@dataclass(frozen=True)
class InputSet:
    """Extra inputs (argument name -> value, LeetCode serialization) and how they were made."""

    inputs: tuple[dict[str, object], ...]
    source: str  # "type" (type-driven generation) or "model" (edge cases the model proposed)
    notes: tuple[str, ...] = ()  # why some were skipped or rejected, in words


# --- Claims (vibecode.clr.claims) -------------------------------------------------------------


@dataclass(frozen=True)
class ExtractedClaim:
    """A claim found in reasoning, before it is checked.

    ``kind`` is "io" (``args`` and ``expected`` set), "arithmetic" or "algebra" (``lhs`` and
    ``rhs`` set, ``relation`` "=" or "≈"), "complexity" or "invariant" (text only).
    """

    text: str
    kind: str
    start: int = 0  # character offset in the reasoning
    args: dict[str, object] | None = None
    expected: object = None
    lhs: str | None = None
    rhs: str | None = None
    relation: str = "="


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

    @property
    def status(self) -> SolveStatus:
        return self.decision.status

    @property
    def best(self) -> CandidateReport | None:
        if self.decision.best is None:
            return None
        return next(c for c in self.candidates if c.index == self.decision.best)


# --- Fixing failing tests (vibecode.tasks.fix, vibecode.tasks.precommit) -----------------------

# "passing": nothing failed, so there was nothing to fix.
FixStatus = Literal["verified", "plausible", "failed", "passing"]
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

    @property
    def best_candidate(self) -> FixCandidate | None:
        if self.best is None:
            return None
        return next(c for c in self.candidates if c.index == self.best)


PrecommitMode = Literal["soft", "hard"]
# "passed": the affected tests pass; "failed": they fail; "error": vibecode could not check.
PrecommitOutcome = Literal["passed", "failed", "error"]


@dataclass(frozen=True)
class PrecommitResult:
    mode: PrecommitMode
    outcome: PrecommitOutcome
    exit_code: int  # what the hook exits with
    changed: tuple[str, ...]  # staged paths (against HEAD)
    selection: Literal["all", "affected", "none"]  # which tests ran
    selected: tuple[str, ...]  # test files run, when only the affected ones
    tests_run: int
    failing: tuple[TestCaseResult, ...]
    fix: FixResult | None = None
    proposal_id: str | None = None
    message: str = ""  # what happened, in words (always set when outcome is "error")
    timing: dict[str, float] = field(default_factory=dict)
