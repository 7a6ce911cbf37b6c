"""The proposals of a fix, and what the user does with them: apply, edit, save.

Plain functions over :class:`~vibecode.types.FixResult`; nothing here imports textual. Each
distinct patch that ran in the sandbox is a proposal, in the result's ranking, with the status and
reliability that ``vibecode fix`` saved with it (:mod:`vibecode.fix.proposals`). Applying
goes through the Patches layer's journal, so :func:`vibecode.repo.workspace.undo` restores the
exact bytes.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vibecode.errors import ApplyError
from vibecode.fix.score import acceptable, cluster_reliability
from vibecode.patch.diff import render_diff
from vibecode.repo.proposals import load_proposal
from vibecode.repo.workspace import ApplyReport, apply_patch
from vibecode.tui.fix.state import NOTHING_TO_FIX
from vibecode.types import FixCandidate, FixResult, FixStatus, Patch


@dataclass(frozen=True)
class FixProposal:
    """One distinct patch, in rank order (0 = the proposal)."""

    rank: int
    candidate: FixCandidate
    members: tuple[int, ...]  # the candidates of its behaviour cluster
    duplicates: tuple[int, ...]  # candidates whose patch is the same after normalizing
    status: FixStatus  # verified | plausible | failed
    reliability: float

    @property
    def diff(self) -> str:
        return self.candidate.diff or ""

    @property
    def files(self) -> tuple[str, ...]:
        return self.candidate.patch.paths if self.candidate.patch is not None else ()


def proposal_status(c: FixCandidate) -> FixStatus:
    """As the fix decides for its proposal: verified when it fixes every failing test and breaks
    none of all the tests that passed before; plausible when only some of those were checked;
    failed otherwise (a patch that edits the tests too)."""
    if not acceptable(c, allow_test_edits=False):
        return "failed"
    return "verified" if c.regression_scope == "all" else "plausible"


def fix_proposals(result: FixResult) -> list[FixProposal]:
    """The ranked proposals: the best carries the fix's status and (calibrated) reliability;
    another acceptable patch its own cluster's reliability, as saved; the rest 0."""
    by_index = {c.index: c for c in result.candidates}
    rows = []
    for rank, index in enumerate(result.ranking):
        c = by_index[index]
        members = tuple(m.index for m in result.candidates if c.cluster is not None and m.cluster == c.cluster) or (index,)
        duplicates = tuple(m.index for m in result.candidates if m.duplicate_of == index)
        if index == result.best and result.status not in NOTHING_TO_FIX:
            status: FixStatus = result.status
            reliability = result.reliability
        else:
            status = proposal_status(c)
            cluster = [by_index[i] for i in members]
            reliability = (cluster_reliability(cluster, len(result.failing), result.k) if status != "failed" else 0.0)
        rows.append(FixProposal(rank, c, members, duplicates, status, round(reliability, 4)))
    return rows


def proposal_patch(root: Path, proposal: FixProposal) -> Patch:
    """The patch to apply: the candidate's, or else the one saved with its proposal."""
    c = proposal.candidate
    if c.patch is not None:
        return c.patch
    if c.proposal_id is None:
        raise ApplyError(f"Candidate {c.index} has no patch to apply.")
    return load_proposal(root, c.proposal_id).patch


def apply_fix(root: Path, proposal: FixProposal, patch: Patch | None = None) -> ApplyReport:
    """Apply the proposal's patch (or ``patch``, the user's edited version of it) to the working
    tree through the journal. A file that changed since the run is a conflict: nothing is written."""
    chosen = patch if patch is not None else proposal_patch(root, proposal)
    c = proposal.candidate
    label = c.proposal_id or f"candidate {c.index}"
    edited = " (edited)" if patch is not None else ""
    return apply_patch(root, chosen, description=f"vibecode tui: fix proposal {label}{edited}")


def patch_diff(patch: Patch) -> str:
    return render_diff(patch)


def patched_files(patch: Patch) -> list[tuple[str, str | None]]:
    """(path, content after the patch; None when the patch deletes it), in the patch's order."""
    return [(change.path, change.new) for change in patch.changes]


Editor = Callable[[Sequence[Path]], int | None]


def edit_patch(patch: Patch, run_editor: Editor) -> Patch | None:
    """Let the user edit the patched files: each file the patch writes goes to a temporary folder
    (under its own path), ``run_editor`` opens them all, and the files as saved become the new
    patch (same old contents). None when the editor failed or nothing changed."""
    written = [change for change in patch.changes if change.new is not None]
    if not written:
        raise ApplyError("This patch only deletes files: there is nothing to edit.")
    with tempfile.TemporaryDirectory(prefix="vibecode-fix-edit-") as folder:
        paths = []
        for change in written:
            path = Path(folder, *PurePosixPath(change.path).parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(change.new or "", encoding="utf-8", errors="surrogateescape")
            paths.append(path)
        if run_editor(paths) != 0:
            return None
        texts = {change.path: path.read_text(encoding="utf-8", errors="surrogateescape")
                 for change, path in zip(written, paths, strict=True)}
    changes = tuple(dataclasses.replace(c, new=texts[c.path]) if c.path in texts else c for c in patch.changes)
    edited = Patch(changes)
    return None if edited == patch else edited


def diff_name(proposal: FixProposal) -> str:
    """A file name to save the diff to."""
    c = proposal.candidate
    return f"fix-{c.proposal_id}.diff" if c.proposal_id else f"fix-candidate-{c.index}.diff"
