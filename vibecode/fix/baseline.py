"""Which failures of the run before any patch are the target of a fix.

- **flaky**: the failing tests are run once more on a fresh copy of the unchanged tree; one that
  passes then is flaky, not a bug that a patch can be shown to fix.
- **environment only**: the failure is the sandbox's, not the code's: no network, a read-only
  file outside the workspace, a process or thread that could not start, memory that ran out.
  No patch to the code fixes those, so they are left out of the targets (and said so).
- the rest **fail on this code**: the targets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import VibecodeError
from vibecode.fix.suite import SuiteCommand, outcomes_for, run_tests
from vibecode.sandbox import Sandbox
from vibecode.types import TestCaseResult

_ENVIRONMENT = re.compile(
    r"(Errno 101\] Network is unreachable|Temporary failure in name resolution|Name or service not known"
    r"|Errno -[23]\]|Errno 30\] Read-only file system|can't start new thread|Resource temporarily unavailable"
    r"|^E?\s*MemoryError\b|No space left on device|Errno 13\] Permission denied: '/(?:dev/shm|run|proc|sys|etc|home|root)\b)",
    re.M,
)


@dataclass(frozen=True)
class BaselineSplit:
    targets: tuple[TestCaseResult, ...]
    flaky: tuple[str, ...] = ()
    environment_only: tuple[str, ...] = ()

    def notes(self) -> list[str]:
        out = []
        if self.flaky:
            out.append(f"{len(self.flaky)} failing test(s) passed when run again on the unchanged tree (flaky, not "
                       f"targets): {', '.join(self.flaky[:5])}.")
        if self.environment_only:
            out.append(f"{len(self.environment_only)} test(s) fail only because of the sandbox (network, read-only "
                       f"files, process limits), not targets: {', '.join(self.environment_only[:5])}.")
        return out


def environment_only(case: TestCaseResult) -> bool:
    """Whether the failure's error is the sandbox's, not the code's (module docstring)."""
    tail = "\n".join(case.message.strip().splitlines()[-12:])
    return bool(_ENVIRONMENT.search(tail))


def split_baseline(
    sandbox: Sandbox, source: Path, command: SuiteCommand, failing: Sequence[TestCaseResult], timeout: float
) -> BaselineSplit:
    """Separate the targets from the flaky and environment-only failures (module docstring)."""
    env_only = tuple(c.nodeid for c in failing if environment_only(c))
    rest = [c for c in failing if c.nodeid not in env_only]
    flaky: tuple[str, ...] = ()
    tests = [c.nodeid for c in rest if "::" in c.nodeid]
    if tests and command.selectable:
        try:
            with sandbox.prepare(source) as ws:
                again = outcomes_for(run_tests(sandbox, ws, command, tests, timeout))
            flaky = tuple(n for n in tests if again.get(n) == "passed")
        except VibecodeError:
            flaky = ()
    targets = tuple(c for c in rest if c.nodeid not in flaky)
    return BaselineSplit(targets, flaky, env_only)
