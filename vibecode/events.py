"""What a session reports while it works. The CLI renders these, the TUI turns them into
messages, ``--json-events`` prints them as JSON lines (:func:`vibecode.session.event_json`)."""

from __future__ import annotations

from dataclasses import dataclass

from vibecode.types import (
    CandidateReport,
    Claim,
    Completion,
    ExampleResult,
    FixResult,
    Phase,
    PrecommitResult,
    SolveResult,
)

# Pipeline stages, in order.
STAGES = ("prompt", "sample", "extract", "inputs", "verify", "claims", "score")
# The fix pipeline's stages, in order (precommit runs "tests", then the fix's).
FIX_STAGES = ("tests", "localize", "sample", "extract", "verify", "claims", "score")


@dataclass(frozen=True)
class SampleBudget:
    """What the sample stage decodes, for the time left (the ETA reads these, never ``detail``):
    ``candidates`` sequences of up to ``max_tokens`` tokens each (after the plan), and ``helpers``
    more sequences of up to ``helper_max_tokens`` in the same batch (the oracle, the input
    generator, the edge cases), which decode with the candidates but send no progress."""

    candidates: int
    max_tokens: int
    helpers: int = 0
    helper_max_tokens: int = 0


@dataclass(frozen=True)
class StageStarted:
    stage: str
    detail: str = ""  # for people; its wording may change
    sampling: SampleBudget | None = None  # the sample stage's budget; None for the other stages


@dataclass(frozen=True)
class StageFinished:
    stage: str
    duration_s: float


@dataclass(frozen=True)
class SampleProgress:
    """Sequence ``index`` grew by ``text``; it now has ``tokens`` tokens."""

    index: int
    text: str
    tokens: int
    phase: Phase
    budget_forced: bool = False


@dataclass(frozen=True)
class CandidateSampled:
    index: int
    completion: Completion


@dataclass(frozen=True)
class CandidateParsed:
    index: int
    parsed: bool
    duplicate_of: int | None
    error: str | None
    code: str | None


@dataclass(frozen=True)
class InputsReady:
    """Shared inputs every candidate runs on, by source ("example", "type", "model")."""

    counts: dict[str, int]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CandidateTested:
    index: int
    examples: tuple[ExampleResult, ...]
    inputs_run: int
    failures: int  # crashes and timeouts on the shared inputs


@dataclass(frozen=True)
class ClaimsChecked:
    index: int
    claims: tuple[Claim, ...]
    r: float


@dataclass(frozen=True)
class StepUnavailable:
    """An optional step could not run (the model could not answer, the budget ran out)."""

    step: str
    reason: str


@dataclass(frozen=True)
class ProposalReady:
    result: SolveResult


# --- Fixing failing tests (vibecode.fix.pipeline, vibecode.precommit.check) -----------------------

BASELINE_MESSAGE_CHARS = 2000  # the tail of each failing test's message that BaselineTested carries


@dataclass(frozen=True)
class BaselineTested:
    """A test run before any patch: ``label`` is "worktree", "index" or "folder"."""

    label: str
    passed: int
    failing: tuple[str, ...]  # node ids that failed or errored
    duration_s: float
    complete: bool
    collection_error: str | None = None
    selection: str = "all"  # "all" or "affected" (precommit)
    messages: tuple[str, ...] = ()  # each failing test's message (its tail), in the order of ``failing``


@dataclass(frozen=True)
class ContextBuilt:
    """Localization: the suspects shown to the model and the prompt's size."""

    suspects: tuple[str, ...]  # "path:start-end (name)"
    tokens: int
    budget: int
    map_tokens: int


@dataclass(frozen=True)
class PatchParsed:
    index: int
    parsed: bool
    duplicate_of: int | None
    error: str | None
    diff: str | None
    retried: bool = False
    test_edit: bool = False


@dataclass(frozen=True)
class PatchVerified:
    index: int
    fixed: int
    failing_total: int
    regressions: tuple[str, ...]
    regression_run: int
    scope: str  # "all" | "affected" | "none"
    error: str | None = None


@dataclass(frozen=True)
class FixReady:
    result: FixResult


@dataclass(frozen=True)
class PrecommitReady:
    result: PrecommitResult


Event = (
    StageStarted
    | StageFinished
    | SampleProgress
    | CandidateSampled
    | CandidateParsed
    | InputsReady
    | CandidateTested
    | ClaimsChecked
    | StepUnavailable
    | ProposalReady
    | BaselineTested
    | ContextBuilt
    | PatchParsed
    | PatchVerified
    | FixReady
    | PrecommitReady
)


__all__ = [
    "BASELINE_MESSAGE_CHARS",
    "FIX_STAGES",
    "STAGES",
    "BaselineTested",
    "CandidateParsed",
    "CandidateReport",
    "CandidateSampled",
    "CandidateTested",
    "ClaimsChecked",
    "ContextBuilt",
    "Event",
    "FixReady",
    "InputsReady",
    "PatchParsed",
    "PatchVerified",
    "PrecommitReady",
    "ProposalReady",
    "SampleBudget",
    "SampleProgress",
    "StageFinished",
    "StageStarted",
    "StepUnavailable",
]
