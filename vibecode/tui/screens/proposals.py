"""Proposals: ranked with reliability badges, a diff or code view, the evidence, and the actions
(apply, undo, copy, save, rerun, edit, reject), each on one key."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.screen import Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from vibecode.clr.claim_check import claim_counts
from vibecode.errors import VibecodeError
from vibecode.repo.workspace import undo
from vibecode.tui.review import (
    ProposalRow,
    apply_solution,
    band,
    proposal_rows,
    save_text,
    solution_diff,
    suggested_name,
)
from vibecode.tui.screens.proposals_base import STATUS_VAR, SaveScreen, diff_content, run_editor
from vibecode.tui.widgets import BAND_VAR, KeyFooter, StatusBar, escape
from vibecode.types import SolveResult

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp
    from vibecode.tui.screens.run import RunScreen


def badge(row: ProposalRow) -> str:
    """A coloured reliability badge (the top proposal) or the cluster's agreement."""
    if row.reliability is not None:
        var = BAND_VAR[band(row.reliability)]
        return f"[b $text on ${var}-muted] {row.reliability:.2f} [/]"
    return f"[dim] {len(row.members)} agree [/dim]"


def row_prompt(row: ProposalRow, rejected: bool, k: int) -> str:
    status = f"[${STATUS_VAR[row.status]}]{row.status}[/]"
    line = f"#{row.rank + 1} {badge(row)} {status}\n   cand {row.candidate.index} · {len(row.members)}/{k}"
    if row.examples_total:
        line += f" · ex {row.examples_passed}/{row.examples_total}"
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


class ProposalsScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "apply", "Apply", tooltip="Apply to the solution file (undoable)"),
        Binding("u", "undo", "Undo", tooltip="Undo the last apply"),
        Binding("c", "copy", "Copy", tooltip="Copy the proposal to the clipboard"),
        Binding("s", "save", "Save", tooltip="Save the proposal to a new file"),
        Binding("r", "rerun", "Rerun", tooltip="Rerun with twice the samples"),
        Binding("e", "edit", "Edit", tooltip="Edit the proposal in $EDITOR"),
        Binding("x", "reject", "Reject", tooltip="Reject the proposal"),
        Binding("v", "toggle_view", "Diff/code", tooltip="Show the diff or the whole code"),
        Binding("escape", "back", "Run view", tooltip="Back to the run view (all candidates)"),
    ]

    def __init__(self, result: SolveResult, run_screen: RunScreen) -> None:
        super().__init__()
        self.result = result
        self.run_screen = run_screen
        self.rows = proposal_rows(result)
        self.rejected: set[int] = set()
        self.edited: dict[int, str] = {}  # rank -> text changed in $EDITOR
        self.selected = 0
        self.view = "diff" if result.mode == "code" else "code"
        self.view_text = ""  # the diff or code on screen, as plain text
        self.confirm_apply: int | None = None  # a failed proposal applies on the second a

    @property
    def vibe(self) -> VibecodeApp:
        from vibecode.tui.app import VibecodeApp

        assert isinstance(self.app, VibecodeApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static(Content.from_markup(verdict_markup(self.result)), id="verdict", classes="title")
        with Horizontal(id="proposal-body"):
            with Vertical(id="proposal-side", classes="box"):
                yield Label("Proposals", classes="box-title")
                yield OptionList(id="proposal-list")
            with Vertical(id="proposal-main"):
                yield Static("", id="view-title", classes="box-title")
                with VerticalScroll(id="code-scroll"):
                    yield Static("", id="code-view")
                yield Static("", id="evidence", classes="box")
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.refresh_list()
        plist = self.query_one("#proposal-list", OptionList)
        plist.focus()
        if self.rows:
            plist.highlighted = 0
        self.show_selected()

    def refresh_list(self) -> None:
        plist = self.query_one("#proposal-list", OptionList)
        keep = plist.highlighted
        plist.clear_options()
        if not self.rows:
            plist.add_option(Option("[dim]No candidate produced code that parses.[/dim]", disabled=True))
        for row in self.rows:
            plist.add_option(Option(row_prompt(row, row.rank in self.rejected, self.result.decision.k),
                                    id=f"p{row.rank}"))
        if keep is not None and self.rows:
            plist.highlighted = min(keep, len(self.rows) - 1)

    @on(OptionList.OptionHighlighted, "#proposal-list")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id.startswith("p"):
            self.selected = int(event.option.id[1:])
            self.show_selected()

    def current(self) -> ProposalRow | None:
        return next((r for r in self.rows if r.rank == self.selected), None)

    def text_of(self, row: ProposalRow) -> str:
        return self.edited.get(row.rank, row.text)

    def show_selected(self) -> None:
        row = self.current()
        title = self.query_one("#view-title", Static)
        view = self.query_one("#code-view", Static)
        evidence = self.query_one("#evidence", Static)
        if row is None:
            title.update("")
            view.update("")
            evidence.update(Content.from_markup(f"[dim]{escape(self.result.decision.reason)}[/dim]"))
            return
        text = self.text_of(row)
        edited = " [dim](edited)[/dim]" if row.rank in self.edited else ""
        if self.result.mode == "math":
            title.update(Content.from_markup(f"Answer of candidate {row.candidate.index}{edited}"))
            self.view_text = text
            view.update(Content.assemble((text or "(no answer)", "bold"), "\n\n",
                                         (row.candidate.completion.reasoning[-3000:], "dim")))
        elif self.view == "diff":
            try:
                diff = solution_diff(self.vibe.root, self.vibe.solution, text)
            except VibecodeError as exc:
                diff = f"# {exc.message}\n"
            diff = diff or "# the file already holds this solution\n"
            name = escape(self.vibe.solution_label())
            title.update(Content.from_markup(f"Diff: a applies to [b]{name}[/b]{edited}  [dim]v shows the code[/dim]"))
            self.view_text = diff
            view.update(diff_content(diff))
        else:
            title.update(Content.from_markup(f"Code of candidate {row.candidate.index}{edited}  [dim]v shows the diff[/dim]"))
            self.view_text = text
            view.update(highlight(text.rstrip("\n"), language="python"))
        evidence.update(Content.from_markup(evidence_markup(self.result, row)))

    # -- actions -------------------------------------------------------------------------

    def action_apply(self) -> None:
        row = self.current()
        if row is None:
            return
        if self.result.mode != "code":
            self.vibe.tell("A math answer has nothing to apply: c copies it, s saves it.", "warning")
            return
        if row.rank in self.rejected:
            self.vibe.tell("This proposal was rejected; pick another one.", "warning")
            return
        if row.status == "failed" and self.confirm_apply != row.rank:
            self.confirm_apply = row.rank
            self.vibe.tell("This proposal failed the checks. Press a again to apply it anyway.", "warning")
            return
        self.confirm_apply = None
        try:
            report = apply_solution(self.vibe.root, self.vibe.solution, self.text_of(row), self.result.problem.title)
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Not applied")
            return
        self.vibe.tell(f"Applied candidate {row.candidate.index} to {', '.join(report.files)}; u undoes it.")
        self.show_selected()

    def action_undo(self) -> None:
        try:
            report = undo(self.vibe.root)
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Nothing undone")
            return
        self.vibe.tell(f"Restored {', '.join(report.files)}.")
        self.show_selected()

    def action_copy(self) -> None:
        row = self.current()
        if row is not None:
            self.app.copy_to_clipboard(self.text_of(row).rstrip() + "\n")
            self.vibe.tell(f"Copied candidate {row.candidate.index} to the clipboard.")

    def action_save(self) -> None:
        row = self.current()
        if row is None:
            return

        def save(name: str | None) -> None:
            if name is None:
                return
            try:
                path = save_text(self.vibe.root, name, self.text_of(row))
            except VibecodeError as exc:
                self.vibe.tell_error(exc, "Not saved")
                return
            self.vibe.tell(f"Saved candidate {row.candidate.index} to {path}.")

        self.app.push_screen(SaveScreen(suggested_name(self.result)), save)

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

    def action_reject(self) -> None:
        row = self.current()
        if row is None:
            return
        self.rejected.add(row.rank)
        left = [r for r in self.rows if r.rank not in self.rejected]
        self.refresh_list()
        if left:
            self.query_one("#proposal-list", OptionList).highlighted = self.rows.index(left[0])
            self.vibe.tell(f"Rejected candidate {row.candidate.index}.")
        else:
            self.vibe.tell("Every proposal is rejected: r samples more candidates.", "warning")

    def action_toggle_view(self) -> None:
        if self.result.mode == "code":
            self.view = "code" if self.view == "diff" else "diff"
            self.show_selected()

    def action_back(self) -> None:
        self.dismiss()
