"""The proposals of a fix: ranked patches with reliability badges and a status, the diff, the
evidence (tests fixed x/y, regressions z and their scope, agreement, claims), and the actions:
apply through the journal, undo, copy, save, rerun, edit the patched files, reject."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType
from textual.content import Content
from textual.highlight import highlight

from vibecode.clr.claim_check import claim_counts
from vibecode.errors import VibecodeError
from vibecode.fix.wording import agreement
from vibecode.repo.workspace import ApplyReport
from vibecode.tui.fix.review import (
    FixProposal,
    apply_fix,
    diff_name,
    edit_patch,
    fix_proposals,
    patch_diff,
    patched_files,
    proposal_patch,
)
from vibecode.tui.fix.widgets import SCOPE_WORDS
from vibecode.tui.review import band
from vibecode.tui.screens.proposals_base import (
    STATUS_VAR,
    Palette,
    ProposalsBase,
    diff_content,
    proposal_bindings,
    run_editor,
)
from vibecode.tui.widgets import BAND_VAR, escape, ordinal
from vibecode.types import FixResult, Patch

if TYPE_CHECKING:
    from vibecode.tui.fix.run import FixRunScreen

EVIDENCE_TESTS = 4  # failing tests and regressions listed by name in the evidence


def fix_badge(p: FixProposal) -> str:
    var = BAND_VAR[band(p.reliability)] if p.status != "failed" else "error"
    return f"[b $text on ${var}-muted] {p.reliability:.2f} [/]"


def fix_row_prompt(p: FixProposal, rejected: bool, k: int) -> str:
    """Three lines (four with a flag): rank, badge and status; tests; candidate and agreement."""
    status = f"[${STATUS_VAR[p.status]}]{p.status}[/]"
    c = p.candidate
    regr = f" · regr {len(c.regressions)}" if c.fixes_all else ""
    line = (f"{ordinal(p.rank + 1)} {fix_badge(p)} {status}\n"
            f"   fixed {c.fixed}/{c.failing_total}{regr}\n"
            f"   #{c.index} · {len(p.members)}/{k} agree")
    if c.test_edit:
        line += "\n   [$text-warning]edits tests[/]"
    return f"[strike dim]{line}[/]" if rejected else line


def fix_verdict_markup(result: FixResult) -> str:
    var = STATUS_VAR.get(result.status, "error")
    rel = (f"reliability [b]{result.reliability:.2f}[/b] ({band(result.reliability)})" if result.status != "failed"
           else "reliability 0.00")
    cal = "" if result.calibrated else " [dim]uncalibrated[/dim]"
    return f"[b $text on ${var}-muted] {result.status.upper()} [/] {rel}{cal}  [dim]{escape(result.reason)}[/dim]"


def fix_evidence_markup(result: FixResult, p: FixProposal) -> str:
    """Tests fixed x/y (each failing test), regressions z and their scope, agreement, claims."""
    c = p.candidate
    color = "$text-success" if c.fixes_all else "$text-error"
    lines = [f"tests        [{color}]fixed {c.fixed}/{c.failing_total}[/] of the tests that failed"]
    for f in result.failing[:EVIDENCE_TESTS]:
        mark = "[$text-success]✓[/]" if c.outcomes.get(f.nodeid) == "passed" else "[$text-error]✗[/]"
        lines.append(f"  {mark} {escape(f.nodeid)}")
    if len(result.failing) > EVIDENCE_TESTS:
        lines.append(f"  [dim]and {len(result.failing) - EVIDENCE_TESTS} more[/dim]")
    if c.fixes_all:
        z = len(c.regressions)
        color = "$text-error" if z else "$text-success"
        scope = SCOPE_WORDS.get(c.regression_scope, c.regression_scope)
        lines.append(f"regressions  [{color}]{z}[/] of the {c.regression_run} tests that passed before "
                     f"[dim]· scope {c.regression_scope}: {scope}[/dim]")
        lines += [f"  [$text-error]✗[/] {escape(t)}" for t in c.regressions[:EVIDENCE_TESTS]]
    if c.verify_error:
        lines.append(f"sandbox      [$text-error]{escape(c.verify_error)}[/]")
    if c.test_edit:
        lines.append("test edits   [$text-warning]it edits test files: ranked last, never proposed[/]")
    dupes = f" · the same patch as #{', #'.join(map(str, p.duplicates))}" if p.duplicates else ""
    lines.append(f"agreement    {agreement(len(p.members), result.k)}{dupes}")
    v, f_, u = claim_counts(c.claims)
    lines.append(f"claims       [$text-success]{v} verified[/] · [$text-error]{f_} failed[/] · [dim]{u} unchecked[/dim]"
                 + (f" · r_k {c.r:.2f}" if c.r is not None else ""))
    if c.proposal_id:
        lines.append(f"saved as     {escape(c.proposal_id)} [dim](vibecode apply {escape(c.proposal_id)})[/dim]")
    for note in result.notes[:2]:
        lines.append(f"[dim]note: {escape(note)}[/dim]")
    return "\n".join(lines)


class FixProposalsScreen(ProposalsBase[FixProposal, Patch]):
    """A fix's proposals: patches applied to the working tree (the diff or the patched files on
    screen); an edited patch asks before it applies, as it was not checked."""

    BINDINGS: ClassVar[list[BindingType]] = proposal_bindings(
        apply="Apply to your files (undoable)",
        copy="Copy the diff to the clipboard",
        save="Save the diff to a new file",
        rerun="Fix again with twice the samples",
        edit="Edit the patched files in $EDITOR",
        reject="Reject the patch",
        view=("View", "Show the diff or the patched files"),
        back=("Back", "Back to the fix view (all candidates)"),
    )
    PALETTE: ClassVar[Palette] = (
        ("Apply the patch", "To your files, through the journal (undoable)", "apply"),
        ("Undo the last apply", "Restore the files exactly", "undo"),
        ("Copy the diff", "To the clipboard", "copy"),
        ("Save the diff", "To a new file", "save"),
        ("Rerun the fix with more samples", "Twice the candidates", "rerun"),
        ("Edit the patched files", "In $EDITOR", "edit"),
        ("Reject the patch", "Mark it rejected", "reject"),
    )
    LIST_TITLE = "Patches"
    NOTHING = "No candidate produced a patch that applies."
    NOUN = "patch"
    ALT_VIEW = "files"
    SAVE_EXACT = True

    def __init__(self, result: FixResult, run_screen: FixRunScreen) -> None:
        super().__init__(fix_proposals(result), "diff")
        self.result = result
        self.run_screen = run_screen

    def diff_of(self, row: FixProposal) -> str:
        edited = self.edited.get(row.rank)
        return patch_diff(edited) if edited is not None else row.diff

    def verdict(self) -> str:
        return fix_verdict_markup(self.result)

    def prompt(self, row: FixProposal, rejected: bool) -> str:
        return fix_row_prompt(row, rejected, self.result.k)

    def evidence(self, row: FixProposal) -> str:
        return fix_evidence_markup(self.result, row)

    def reason(self) -> str:
        return self.result.reason

    def view_of(self, row: FixProposal, edited: str) -> tuple[str, str, Content]:
        if self.view == "diff":
            files = escape(", ".join(row.files))
            diff = self.diff_of(row)
            return (f"Diff of candidate {row.candidate.index}: a applies it to [b]{files}[/b]{edited}  "
                    "[dim]v shows the files[/dim]", diff, diff_content(diff or "# an empty patch\n"))
        text, content = self._files_view(row)
        return (f"Patched files of candidate {row.candidate.index}{edited}  [dim]v shows the diff[/dim]",
                text, content)

    def _files_view(self, row: FixProposal) -> tuple[str, Content]:
        try:
            patch = self.edited.get(row.rank) or proposal_patch(self.vibe.root, row)
        except VibecodeError as exc:
            return exc.message, Content(exc.message)
        texts, parts = [], []
        for path, new in patched_files(patch):
            body = new if new is not None else ""
            texts.append(f"# {path}\n{body}")
            parts.append(Content.styled(f"── {path}" + (" (deleted)" if new is None else ""), "bold $text-accent"))
            if new is not None:
                parts.append(highlight(new.rstrip("\n"), path=path))
        return "\n".join(texts), Content("\n").join(parts)

    # -- actions -------------------------------------------------------------------------

    def apply_warning(self, row: FixProposal) -> str | None:
        if self.edited.get(row.rank) is not None:
            return "Careful: your edit of it was not checked."
        return None if row.status == "verified" else f"Careful: this patch is {row.status}, not verified."

    def apply_row(self, row: FixProposal) -> ApplyReport:
        return apply_fix(self.vibe.root, row, self.edited.get(row.rank))

    def subject(self, row: FixProposal) -> str:
        return f"the diff of candidate {row.candidate.index}"

    def clipboard_text(self, row: FixProposal) -> str:
        return self.diff_of(row).encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    def saved_text(self, row: FixProposal) -> str:
        return self.diff_of(row)

    def save_name(self, row: FixProposal) -> str:
        return diff_name(row)

    def action_rerun(self) -> None:
        self.vibe.rerun_fix(self.run_screen)

    def action_edit(self) -> None:
        row = self.current()
        if row is None:
            return
        try:
            patch = self.edited.get(row.rank) or proposal_patch(self.vibe.root, row)
            edited = edit_patch(patch, lambda paths: run_editor(self.vibe, paths))
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Not edited")
            return
        if edited is not None:
            self.edited[row.rank] = edited
            self.confirm_apply = None
            self.vibe.tell("Edited: a applies your version (after asking, as it was not checked).")
            self.show_selected()
