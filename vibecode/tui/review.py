"""The proposals of a solve, and what the user does with them: apply, save, diff.

Plain functions over :class:`~vibecode.types.SolveResult`; nothing here imports textual.
Applying goes through the Patches layer's journal (:func:`vibecode.repo.workspace.apply_patch`),
so every write can be undone with :func:`vibecode.repo.workspace.undo`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from vibecode.errors import ApplyError, UsageError
from vibecode.patch.apply import read_current
from vibecode.patch.diff import render_file_diff
from vibecode.patch.text import encode
from vibecode.repo.journal import FileState
from vibecode.repo.workspace import (
    ApplyReport,
    WorktreeConflict,
    apply_patch,
    journal_for,
    state_dir,
)
from vibecode.types import CandidateReport, FileChange, Patch, SolveResult, SolveStatus

Band = Literal["high", "medium", "low"]
DEFAULT_SOLUTION = "solution.py"


def band(reliability: float) -> Band:
    """The colour band of a reliability (the same cut-offs as the CLI)."""
    return "high" if reliability >= 0.8 else "medium" if reliability >= 0.5 else "low"


@dataclass(frozen=True)
class ProposalRow:
    """One behaviour cluster's proposed candidate, in rank order."""

    rank: int
    candidate: CandidateReport
    members: tuple[int, ...]
    status: SolveStatus
    reliability: float | None  # the decision's reliability, for the top proposal only
    score: float
    examples_passed: int
    examples_total: int
    failure_rate: float

    @property
    def text(self) -> str:
        """What the proposal proposes: the code, or the answer in math mode."""
        c = self.candidate
        return (c.code if c.code is not None else c.answer) or ""


def proposal_rows(result: SolveResult) -> list[ProposalRow]:
    """The proposals, best first: one per cluster (the top cluster carries the reliability)."""
    d = result.decision
    by_index = {c.index: c for c in result.candidates}
    rows = []
    for cluster in d.clusters:
        if cluster.rank == 0:
            status: SolveStatus = d.status
            reliability: float | None = d.reliability
        else:
            passes = cluster.examples_passed >= cluster.examples_total and cluster.failure_rate < 1.0
            status, reliability = ("plausible" if passes else "failed"), None
        rows.append(ProposalRow(cluster.rank, by_index[cluster.best], cluster.members, status, reliability,
                                cluster.score, cluster.examples_passed, cluster.examples_total,
                                cluster.failure_rate))
    return rows


# -- the solution file ---------------------------------------------------------------------


def solution_text(code: str) -> str:
    return code.rstrip() + "\n"


def solution_change(root: Path, solution: Path, code: str) -> tuple[Path, FileChange]:
    """The whole-file change that puts ``code`` into ``solution``, relative to where
    :func:`apply_patch` resolves paths (the repository root, or ``root`` outside git)."""
    base = _apply_root(root)
    target = solution if solution.is_absolute() else root / solution
    try:
        rel = target.resolve().relative_to(base)
    except ValueError:
        raise ApplyError(
            f"The solution file {target} is outside {base}.",
            "Choose a solution file inside the folder vibecode was opened in (settings).",
        ) from None
    old = read_current(base, rel.as_posix())
    return base, FileChange(rel.as_posix(), old, solution_text(code))


def solution_diff(root: Path, solution: Path, code: str) -> str:
    """The unified diff that applying would make (empty when the file already holds the code)."""
    _, change = solution_change(root, solution, code)
    return render_file_diff(change)


def apply_solution(root: Path, solution: Path, code: str, title: str = "") -> ApplyReport:
    """Write ``code`` to the solution file through the journal (undo restores the old file)."""
    base, change = solution_change(root, solution, code)
    if change.old == change.new:
        raise ApplyError(f"{change.path} already holds this solution.", "Nothing to apply.")
    _refuse_if_edited_since_apply(base, change.path)
    what = f" for {title}" if title else ""
    return apply_patch(base, Patch((change,)), description=f"vibecode tui: solution{what} -> {change.path}")


def _refuse_if_edited_since_apply(base: Path, rel: str) -> None:
    """The CLI's rule for the solution file: a file vibecode wrote and the user changed since is
    never overwritten (their edit would be lost); they save elsewhere or undo first."""
    for entry in reversed(journal_for(base).active()):
        record = next((f for f in entry.files if f.path == rel), None)
        if record is None:
            continue
        now = FileState.of(base / rel)
        if now.exists and (now.exists, now.sha256) != (record.after.exists, record.after.sha256):
            raise WorktreeConflict(
                f"{rel} changed after vibecode last applied to it (apply {entry.id}): those are your "
                "edits, and applying would overwrite them.",
                "Nothing was written. Press s to save this proposal to a new file instead, or rename "
                f"your edited {rel} and press a again.",
            )
        return


def _apply_root(root: Path) -> Path:
    _, repo = state_dir(root)
    return (repo.root if repo is not None else root).resolve()


# -- saving --------------------------------------------------------------------------------


def save_text(root: Path, name: str, text: str, *, exact: bool = False) -> Path:
    """Write ``text`` to a new file (as a solution file, ending in one newline; ``exact``: byte
    for byte, as a diff must be); an existing file is never overwritten (apply does that,
    through the journal)."""
    name = name.strip()
    if not name:
        raise UsageError("Give a file name to save to.")
    path = Path(name).expanduser()
    path = path if path.is_absolute() else root / path
    if path.exists():
        raise UsageError(
            f"{path} already exists; vibecode does not overwrite files when saving.",
            "Choose another name, or apply (a) to replace the solution file with undo.",
        )
    if not path.parent.is_dir():
        raise UsageError(f"The folder {path.parent} does not exist.")
    try:
        if exact:
            path.write_bytes(encode(text))
        else:
            path.write_text(solution_text(text), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"Cannot write {path}: {exc.strerror or exc}.") from exc
    return path


def suggested_name(result: SolveResult) -> str:
    """A file name for saving: from the entry point or the title."""
    problem = result.problem
    base = getattr(getattr(problem, "signature", None), "function", None) or problem.title or "answer"
    stem = "".join(ch if ch.isalnum() else "_" for ch in base).strip("_").lower() or "answer"
    return f"{stem}.py" if result.mode == "code" else f"{stem}.txt"
