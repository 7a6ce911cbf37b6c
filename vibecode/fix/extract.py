"""Turn sampled answers into patches: extract the edits, give an edit that does not apply one
retry prompt that quotes the closest lines (or, when nothing in the file is similar, the file's
current content), drop patches that break the syntax, and mark
patches that are the same after normalization (formatting, comments, local names) as duplicates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from vibecode.engine.base import Engine
from vibecode.engine.sampling import Budget, ask_model
from vibecode.errors import ApplyError, PatchError
from vibecode.events import Event, PatchParsed, StepUnavailable
from vibecode.fix.prompts import retry_messages
from vibecode.fix.testfiles import TestFiles
from vibecode.patch.diff import render_diff
from vibecode.patch.edit_extract import parse_edits
from vibecode.patch.extract import extract_edits_detailed
from vibecode.patch.normalize import check_syntax, normalized_key
from vibecode.types import ChatMessage, Completion, FixCandidate, Patch, SamplingParams

RETRY = "retry"  # the engine purpose of the retry prompt
MAX_QUOTED_LINES = 200


@dataclass(frozen=True)
class Attempt:
    patch: Patch | None
    error: str | None
    retryable: bool  # the edits were found but did not apply


def attempt(answer: str, root: Path) -> Attempt:
    """Extract and apply (in memory) the edits of one answer."""
    try:
        patch = extract_edits_detailed(answer, root).patch
    except ApplyError as exc:
        return Attempt(None, str(exc), True)
    except PatchError as exc:
        return Attempt(None, str(exc), False)
    problem = syntax_problem(patch)
    if problem is not None:
        return Attempt(None, problem, False)
    return Attempt(patch, None, False)


def syntax_problem(patch: Patch) -> str | None:
    for change in patch.changes:
        if change.new is not None and change.path.endswith(".py"):
            issue = check_syntax(change.new)
            if issue is not None:
                return f"The patched {change.path} is not valid Python: {issue}."
    return None


def patch_key(patch: Patch) -> str:
    """Equal for patches that are the same up to formatting, comments and local names."""
    parts = []
    for change in sorted(patch.changes, key=lambda c: c.path):
        if change.new is None:
            parts.append(f"{change.path}\0deleted")
        elif change.path.endswith(".py"):
            parts.append(f"{change.path}\0{normalized_key(change.new)}")
        else:
            digest = hashlib.sha256(change.new.encode("utf-8", "surrogateescape")).hexdigest()
            parts.append(f"{change.path}\0{digest}")
    return hashlib.sha256("\0\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def extract_candidates(
    engine: Engine,
    completions: Sequence[Completion],
    messages: Sequence[ChatMessage],
    root: Path,
    params: SamplingParams,
    budget: Budget,
    tests: TestFiles | None = None,
) -> Generator[Event, None, dict[int, FixCandidate]]:
    """One :class:`FixCandidate` per completion, with at most one retry each. ``tests``: which
    files are test code (a patch that edits one is flagged)."""
    tests = tests if tests is not None else TestFiles()
    out: dict[int, FixCandidate] = {}
    keys: dict[str, int] = {}
    retry_unavailable = False
    for c in completions:
        first = attempt(c.answer, root)
        result, retried = first, False
        if first.retryable and not retry_unavailable and not budget.exhausted:
            error = (first.error or "") + current_files(c.answer, root, first.error or "")
            answer = ask_model(engine, retry_messages(messages, c.answer, error), params, RETRY)
            if answer is None:
                retry_unavailable = True
                yield StepUnavailable(RETRY, "the model could not answer the retry prompt; edits that did not apply stay dropped")
            else:
                second = attempt(answer, root)
                retried = True
                result = second if second.patch is not None else Attempt(
                    None, f"{first.error} The retry did not help either: {second.error}", False)
        if result.patch is None:
            out[c.seq] = FixCandidate(c.seq, c, error=result.error, retried=retried)
            yield PatchParsed(c.seq, False, None, result.error, None, retried, False)
            continue
        key = patch_key(result.patch)
        duplicate = keys.get(key)
        keys.setdefault(key, c.seq)
        test_edit = any(p in tests for p in result.patch.paths)
        diff = render_diff(result.patch)
        out[c.seq] = FixCandidate(c.seq, c, patch=result.patch, diff=diff, parsed=True, duplicate_of=duplicate,
                                  retried=retried, test_edit=test_edit)
        yield PatchParsed(c.seq, True, duplicate, None, diff, retried, test_edit)
    return out


def current_files(answer: str, root: Path, error: str) -> str:
    """When the apply error found no similar lines to quote, the current content of the files the
    answer tried to edit (so that the retry can copy real lines)."""
    if "closest lines" in error or "first match is" in error:
        return ""
    try:
        edits, _ = parse_edits(answer, root)
    except PatchError:
        return ""
    out = []
    for path in dict.fromkeys(e.path for e in edits):
        target = root / path
        if not target.is_file() or target.is_symlink():
            continue
        lines = target.read_text(encoding="utf-8", errors="replace").splitlines()
        shown = "\n".join(lines[:MAX_QUOTED_LINES])
        more = f"\n... ({len(lines) - MAX_QUOTED_LINES} more lines)" if len(lines) > MAX_QUOTED_LINES else ""
        out.append(f"\n\nThe current content of {path}:\n```\n{shown}{more}\n```")
    return "".join(out)


def original(candidate: FixCandidate) -> int:
    return candidate.duplicate_of if candidate.duplicate_of is not None else candidate.index


def share_results(candidates: dict[int, FixCandidate]) -> dict[int, FixCandidate]:
    """Copy each distinct patch's test results to its duplicates."""
    out = dict(candidates)
    for i, c in candidates.items():
        if c.parsed and c.duplicate_of is not None:
            src = candidates[c.duplicate_of]
            out[i] = replace(c, verified=src.verified, fixed=src.fixed, failing_total=src.failing_total,
                             regressions=src.regressions, regression_run=src.regression_run,
                             regression_scope=src.regression_scope, outcomes=dict(src.outcomes),
                             verify_error=src.verify_error)
    return out
