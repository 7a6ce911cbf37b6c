"""Proposals: ranked with reliability badges, a diff or code view, the evidence, and the actions
(apply, undo, copy, save, rerun, edit, reject), each on one key."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType
from textual.content import Content
from textual.highlight import highlight

from vibecode.clr.claim_check import claim_counts
from vibecode.errors import VibecodeError
from vibecode.repo.workspace import ApplyReport
from vibecode.tui.review import (
    ProposalRow,
    apply_solution,
    band,
    proposal_rows,
    solution_diff,
    suggested_name,
)
from vibecode.tui.screens.proposals_base import (
    STATUS_VAR,
    Palette,
    ProposalsBase,
    diff_content,
    proposal_bindings,
    run_editor,
)
from vibecode.tui.widgets import BAND_VAR, escape, ordinal
from vibecode.types import SolveResult

if TYPE_CHECKING:
    from vibecode.tui.screens.run import RunScreen


def badge(row: ProposalRow) -> str:
    """A coloured reliability badge (the top proposal) or the cluster's agreement."""
    if row.reliability is not None:
        var = BAND_VAR[band(row.reliability)]
        return f"[b $text on ${var}-muted] {row.reliability:.2f} [/]"
    return "[dim]  --  [/dim]"  # a reliability is measured for the top proposal only


def row_prompt(row: ProposalRow, rejected: bool, k: int) -> str:
    status = f"[${STATUS_VAR[row.status]}]{row.status}[/]"
    line = (f"{ordinal(row.rank + 1)} {badge(row)} {status}\n"
            f"   #{row.candidate.index} {len(row.members)}/{k} agree")
    if row.examples_total:
        line += f", ex {row.examples_passed}/{row.examples_total}"
    return f"[strike dim]{line}[/]" if rejected else line


def verdict_markup(result: SolveResult) -> str:
    d = result.decision
    var = STATUS_VAR[d.status]
    rel = f"reliability [b]{d.reliability:.2f}[/b] ({band(d.reliability)})" if d.status != "failed" else "reliability 0.00"
    cal = "" if result.calibrated else " [dim]uncalibrated[/dim]"
    return f"[b $text on ${var}-muted] {d.status.upper()} [/] {rel}{cal}  [dim]{escape(d.reason)}[/dim]"


def evidence_markup(result: SolveResult, row: ProposalRow) -> str:
    c = row.candidate
    lines = []
    if result.mode == "code":
        marks = "".join("[$text-success]✓[/]" if e.passed else "[$text-error]✗[/]" for e in c.examples)
        lines.append(f"examples  {marks or '[dim]none[/dim]'}  {sum(e.passed for e in c.examples)}/{len(c.examples)}")
    lines.append(f"cluster   {len(row.members)} of {result.decision.k} candidates behave alike "
                 f"[dim](#{', #'.join(str(m) for m in row.members)})[/dim]")
    if row.failure_rate:
        lines.append(f"crashes   on {row.failure_rate:.0%} of the generated inputs")
    v, f, u = claim_counts(c.claims)
    lines.append(f"claims    [$text-success]{v} verified[/]  [$text-error]{f} failed[/]  [dim]{u} unchecked[/dim]"
                 + (f"   r_k {c.r:.2f}" if c.r is not None else ""))
    for claim in [x for x in c.claims if x.verdict != "unchecked"][:3]:
        icon = "[$text-success]✓[/]" if claim.verdict == "verified" else "[$text-error]✗[/]"
        lines.append(f"  {icon} [dim]{claim.method}:[/dim] {escape(claim.text[:90])}")
    lines.append(f"score     {row.score:.2f}")
    for note in result.notes[:3]:
        lines.append(f"[dim]note: {escape(note)}[/dim]")
    return "\n".join(lines)


class ProposalsScreen(ProposalsBase[ProposalRow, str]):
    """A solve's proposals: code applied to the solution file (a diff or the code on screen), or a
    math answer (copied or saved, never applied)."""

    BINDINGS: ClassVar[list[BindingType]] = proposal_bindings(
        apply="Apply to the solution file (undoable)",
        copy="Copy the proposal to the clipboard",
        save="Save the proposal to a new file",
        rerun="Rerun with twice the samples",
        edit="Edit the proposal in $EDITOR",
        reject="Reject the proposal",
        view=("View", "Show the diff or the whole code"),
        back=("Back", "Back to the run view (all candidates)"),
    )
    PALETTE: ClassVar[Palette] = (
        ("Apply the proposal", "Write it to the solution file (undoable)", "apply"),
        ("Undo the last apply", "Restore the solution file", "undo"),
        ("Copy the proposal", "To the clipboard", "copy"),
        ("Save the proposal", "To a new file", "save"),
        ("Rerun with more samples", "Twice the candidates", "rerun"),
        ("Edit the proposal", "In $EDITOR", "edit"),
        ("Reject the proposal", "Mark it rejected", "reject"),
    )
    LIST_TITLE = "Proposals"
    NOTHING = "No candidate produced code that parses."
    NOUN = "proposal"
    ALT_VIEW = "code"

    def __init__(self, result: SolveResult, run_screen: RunScreen) -> None:
        super().__init__(proposal_rows(result), "diff" if result.mode == "code" else "code")
        self.result = result
        self.run_screen = run_screen

    def text_of(self, row: ProposalRow) -> str:
        return self.edited.get(row.rank, row.text)

    def verdict(self) -> str:
        return verdict_markup(self.result)

    def prompt(self, row: ProposalRow, rejected: bool) -> str:
        return row_prompt(row, rejected, self.result.decision.k)

    def evidence(self, row: ProposalRow) -> str:
        return evidence_markup(self.result, row)

    def reason(self) -> str:
        return self.result.decision.reason

    def view_of(self, row: ProposalRow, edited: str) -> tuple[str, str, Content]:
        text = self.text_of(row)
        if self.result.mode == "math":
            return (f"Answer of candidate {row.candidate.index}{edited}", text,
                    Content.assemble((text or "(no answer)", "bold"), "\n\n",
                                     (row.candidate.completion.reasoning[-3000:], "dim")))
        if self.view == "diff":
            try:
                diff = solution_diff(self.vibe.root, self.vibe.solution, text)
            except VibecodeError as exc:
                diff = f"# {exc.message}\n"
            diff = diff or "# the file already holds this solution\n"
            name = escape(self.vibe.solution_label())
            return (f"Diff: a applies to [b]{name}[/b]{edited}  [dim]v shows the code[/dim]", diff,
                    diff_content(diff))
        return (f"Code of candidate {row.candidate.index}{edited}  [dim]v shows the diff[/dim]", text,
                highlight(text.rstrip("\n"), language="python"))

    def files_changed(self) -> None:
        self.show_selected()  # the diff is against the solution file as it is now

    # -- actions -------------------------------------------------------------------------

    def action_apply(self) -> None:
        if self.current() is not None and self.result.mode != "code":
            self.vibe.tell("A math answer has nothing to apply: c copies it, s saves it.", "warning")
            return
        super().action_apply()

    def apply_warning(self, row: ProposalRow) -> str | None:
        return "This proposal failed the checks." if row.status == "failed" else None

    def apply_row(self, row: ProposalRow) -> ApplyReport:
        return apply_solution(self.vibe.root, self.vibe.solution, self.text_of(row), self.result.problem.title)

    def subject(self, row: ProposalRow) -> str:
        return f"candidate {row.candidate.index}"

    def clipboard_text(self, row: ProposalRow) -> str:
        return self.text_of(row).rstrip() + "\n"

    def saved_text(self, row: ProposalRow) -> str:
        return self.text_of(row)

    def save_name(self, row: ProposalRow) -> str:
        return suggested_name(self.result)

    def action_rerun(self) -> None:
        self.vibe.rerun(self.run_screen, more=True)

    def action_edit(self) -> None:
        row = self.current()
        if row is None:
            return
        suffix = ".py" if self.result.mode == "code" else ".txt"
        with tempfile.TemporaryDirectory(prefix="vibecode-edit-") as folder:
            path = Path(folder) / f"candidate_{row.candidate.index}{suffix}"
            path.write_text(self.text_of(row).rstrip() + "\n", encoding="utf-8")
            if run_editor(self.vibe, [path]) != 0:
                return
            text = path.read_text(encoding="utf-8")
        if text.rstrip() != self.text_of(row).rstrip():
            self.edited[row.rank] = text
            self.vibe.tell("Edited: a applies your version.")
            self.show_selected()

    def action_toggle_view(self) -> None:
        if self.result.mode == "code":
            super().action_toggle_view()
