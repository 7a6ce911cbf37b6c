"""Edits and sandboxed runs: patches, command results, test reports, and claims with their verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


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
    # What the user should know about this run's isolation (a weaker one chosen explicitly).
    notes: tuple[str, ...] = ()

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
