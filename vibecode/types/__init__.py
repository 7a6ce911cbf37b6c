"""Frozen values that cross module boundaries, one module per seam:

- :mod:`~vibecode.types.engine`: chat messages, sampling parameters, completions, stream events;
- :mod:`~vibecode.types.runs`: patches, sandboxed runs, test reports, claims;
- :mod:`~vibecode.types.problems`: problems, signatures, examples, input results;
- :mod:`~vibecode.types.results`: scoring, solve, fix and pre-commit results.

Keep them free of behaviour beyond small derived properties: they are imported by every layer, so
they must stay cheap and dependency-free. Import them from here (``from vibecode.types import X``).
"""

from vibecode.types.engine import (
    ChatMessage,
    Completion,
    EngineInfo,
    FinishReason,
    Phase,
    RequestFailed,
    Role,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)
from vibecode.types.problems import (
    ANSWER_TOLERANCE,
    Example,
    ExampleResult,
    InputResult,
    InputSet,
    InputStatus,
    MathProblem,
    OutputOrder,
    Param,
    Problem,
    ProblemStyle,
    Signature,
)
from vibecode.types.results import (
    CandidateEvidence,
    CandidateReport,
    ClusterScore,
    Decision,
    FixCandidate,
    FixResult,
    FixStatus,
    PrecommitMode,
    PrecommitOutcome,
    PrecommitResult,
    RegressionScope,
    SolveResult,
    SolveStatus,
)
from vibecode.types.runs import (
    Claim,
    ClaimMethod,
    ClaimVerdict,
    ExtractedClaim,
    FileChange,
    Patch,
    RunResult,
    TestCaseResult,
    TestOutcome,
    TestReport,
)

__all__ = [
    "ANSWER_TOLERANCE",
    "CandidateEvidence",
    "CandidateReport",
    "ChatMessage",
    "Claim",
    "ClaimMethod",
    "ClaimVerdict",
    "ClusterScore",
    "Completion",
    "Decision",
    "EngineInfo",
    "Example",
    "ExampleResult",
    "ExtractedClaim",
    "FileChange",
    "FinishReason",
    "FixCandidate",
    "FixResult",
    "FixStatus",
    "InputResult",
    "InputSet",
    "InputStatus",
    "MathProblem",
    "OutputOrder",
    "Param",
    "Patch",
    "Phase",
    "PrecommitMode",
    "PrecommitOutcome",
    "PrecommitResult",
    "Problem",
    "ProblemStyle",
    "RegressionScope",
    "RequestFailed",
    "Role",
    "RunResult",
    "SamplingParams",
    "SequenceDone",
    "Signature",
    "SolveResult",
    "SolveStatus",
    "StreamEvent",
    "TestCaseResult",
    "TestOutcome",
    "TestReport",
    "TokenDelta",
]
