"""Failures the staged change did not cause (issue 15, item 6 for the hook).

A test that fails on what is staged and also fails on HEAD, with the same error, was broken
before this commit: it is not the commit's fault, so it neither blocks the commit nor becomes a
target of the fix. The failing tests are run once more on an export of HEAD (with the same
environment and generated files); "the same error" is the failure's last error line, with memory
addresses and absolute paths (the sandbox's workspace differs between runs) masked.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path

from vibecode.errors import VibecodeError
from vibecode.fix.snapshot import carry_generated
from vibecode.fix.suite import SuiteCommand, run_tests
from vibecode.repo.git import exported
from vibecode.sandbox import Sandbox
from vibecode.types import TestCaseResult, TestReport

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_PATH = re.compile(r"(?<![\w.])/[^\s'\":,)]+")
_ERROR_LINE = re.compile(r"^E\s+(?P<text>\S.*)$", re.M)


def error_signature(case: TestCaseResult) -> str:
    """The failure's error line (pytest's last ``E`` line, else its last line), masked."""
    text = case.message.strip()
    lines = _ERROR_LINE.findall(text)
    last = lines[-1] if lines else (text.splitlines()[-1] if text else "")
    return f"{case.outcome}:{_PATH.sub('<path>', _ADDRESS.sub('0x?', last.strip()))}"


def fails_on_head(
    sandbox: Sandbox, root: Path, command: SuiteCommand, failing: Sequence[TestCaseResult], timeout: float
) -> tuple[str, ...]:
    """The node ids in ``failing`` that fail on HEAD of the repository at ``root`` with the same
    error; () when there is no HEAD, the command cannot select tests, or the run fails."""
    tests = [c.nodeid for c in failing if "::" in c.nodeid]
    if not tests or not command.selectable:
        return ()
    try:
        with exported(root, "HEAD") as head:
            carry_generated(root, head)
            with sandbox.prepare(head) as ws:
                report = run_tests(sandbox, ws, command, tests, timeout)
    except VibecodeError:
        return ()
    before = {c.nodeid: error_signature(c) for c in report.cases if c.outcome in ("failed", "error")}
    return tuple(c.nodeid for c in failing if before.get(c.nodeid) == error_signature(c))


def without(report: TestReport, nodeids: Sequence[str]) -> TestReport:
    """``report`` without the cases of ``nodeids``."""
    drop = set(nodeids)
    return dataclasses.replace(report, cases=tuple(c for c in report.cases if c.nodeid not in drop))


def preexisting_note(nodeids: Sequence[str]) -> str:
    shown = ", ".join(nodeids[:5]) + (f" and {len(nodeids) - 5} more" if len(nodeids) > 5 else "")
    return (f"{len(nodeids)} test(s) fail on HEAD too, with the same error, so the staged change did not cause "
            f"them (not blocking, not a fix target): {shown}.")
