"""The proposals of a fix: ranked patches with reliability badges and a status, the diff, the
evidence (tests fixed x/y, regressions z and their scope, agreement, claims), and the actions:
apply through the journal, undo, copy, save, rerun, edit the patched files, reject."""

from __future__ import annotations

from collections.abc import Callable
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
from vibecode.tui.fix_review import (
    FixProposal,
    apply_fix,
    diff_name,
    edit_patch,
    fix_proposals,
    patch_diff,
    patched_files,
    proposal_patch,
)
from vibecode.tui.fix_widgets import SCOPE_WORDS
from vibecode.tui.review import band, save_text
from vibecode.tui.screens.proposals_base import STATUS_VAR, SaveScreen, diff_content, run_editor
from vibecode.tui.widgets import BAND_VAR, KeyFooter, StatusBar, escape
from vibecode.types import FixResult, Patch

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp
    from vibecode.tui.screens.fix import FixRunScreen

EVIDENCE_TESTS = 4  # failing tests and regressions listed by name in the evidence


def fix_badge(p: FixProposal) -> str:
    var = BAND_VAR[band(p.reliability)] if p.status != "failed" else "error"
    return f"[b $text on ${var}-muted] {p.reliability:.2f} [/]"


def fix_row_prompt(p: FixProposal, rejected: bool, k: int) -> str:
    """Three lines (four with a flag): rank, badge and status; tests; candidate and agreement."""
    status = f"[${STATUS_VAR[p.status]}]{p.status}[/]"
    c = p.candidate
    regr = f" · regr {len(c.regressions)}" if c.fixes_all else ""
    line = (f"#{p.rank + 1} {fix_badge(p)} {status}\n"
            f"   fixed {c.fixed}/{c.failing_total}{regr}\n"
            f"   cand {c.index} · {len(p.members)}/{k} agree")
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
    lines.append(f"agreement    {len(p.members)} of {result.k} candidates behave alike{dupes}")
    v, f_, u = claim_counts(c.claims)
    lines.append(f"claims       [$text-success]{v} verified[/] · [$text-error]{f_} failed[/] · [dim]{u} unchecked[/dim]"
                 + (f" · r_k {c.r:.2f}" if c.r is not None else ""))
    if c.proposal_id:
        lines.append(f"saved as     {escape(c.proposal_id)} [dim](vibecode apply {escape(c.proposal_id)})[/dim]")
    for note in result.notes[:2]:
        lines.append(f"[dim]note: {escape(note)}[/dim]")
    return "\n".join(lines)


class FixProposalsScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "apply", "Apply", tooltip="Apply to your files (undoable)"),
        Binding("u", "undo", "Undo", tooltip="Undo the last apply"),
        Binding("c", "copy", "Copy", tooltip="Copy the diff to the clipboard"),
        Binding("s", "save", "Save", tooltip="Save the diff to a new file"),
        Binding("r", "rerun", "Rerun", tooltip="Fix again with twice the samples"),
        Binding("e", "edit", "Edit", tooltip="Edit the patched files in $EDITOR"),
        Binding("x", "reject", "Reject", tooltip="Reject the patch"),
        Binding("v", "toggle_view", "Diff/files", tooltip="Show the diff or the patched files"),
        Binding("escape", "back", "Fix view", tooltip="Back to the fix view (all candidates)"),
    ]

    def __init__(self, result: FixResult, run_screen: FixRunScreen) -> None:
        super().__init__()
        self.result = result
        self.run_screen = run_screen
        self.rows = fix_proposals(result)
        self.rejected: set[int] = set()
        self.edited: dict[int, Patch] = {}  # rank -> the patch as the user edited it
        self.selected = 0
        self.view = "diff"
        self.view_text = ""  # the diff or files on screen, as plain text
        self.confirm_apply: int | None = None  # what is not verified applies on the second a

    @property
    def vibe(self) -> VibecodeApp:
        from vibecode.tui.app import VibecodeApp

        assert isinstance(self.app, VibecodeApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static(Content.from_markup(fix_verdict_markup(self.result)), id="verdict", classes="title")
        with Horizontal(id="proposal-body"):
            with Vertical(id="proposal-side", classes="box"):
                yield Label("Patches", classes="box-title")
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
            plist.add_option(Option("[dim]No candidate produced a patch that applies.[/dim]", disabled=True))
        for row in self.rows:
            plist.add_option(Option(fix_row_prompt(row, row.rank in self.rejected, self.result.k), id=f"p{row.rank}"))
        if keep is not None and self.rows:
            plist.highlighted = min(keep, len(self.rows) - 1)

    @on(OptionList.OptionHighlighted, "#proposal-list")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id.startswith("p"):
            self.selected = int(event.option.id[1:])
            self.show_selected()

    def current(self) -> FixProposal | None:
        return next((r for r in self.rows if r.rank == self.selected), None)

    def diff_of(self, row: FixProposal) -> str:
        edited = self.edited.get(row.rank)
        return patch_diff(edited) if edited is not None else row.diff

    def show_selected(self) -> None:
        row = self.current()
        title = self.query_one("#view-title", Static)
        view = self.query_one("#code-view", Static)
        evidence = self.query_one("#evidence", Static)
        if row is None:
            title.update("")
            view.update("")
            evidence.update(Content.from_markup(f"[dim]{escape(self.result.reason)}[/dim]"))
            return
        edited = " [dim](edited)[/dim]" if row.rank in self.edited else ""
        files = escape(", ".join(row.files))
        if self.view == "diff":
            self.view_text = self.diff_of(row)
            title.update(Content.from_markup(f"Diff of candidate {row.candidate.index}: a applies it to [b]{files}[/b]"
                                             f"{edited}  [dim]v shows the files[/dim]"))
            view.update(diff_content(self.view_text or "# an empty patch\n"))
        else:
            title.update(Content.from_markup(f"Patched files of candidate {row.candidate.index}{edited}  "
                                             "[dim]v shows the diff[/dim]"))
            self.view_text, content = self._files_view(row)
            view.update(content)
        evidence.update(Content.from_markup(fix_evidence_markup(self.result, row)))

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

    def action_apply(self) -> None:
        row = self.current()
        if row is None:
            return
        if row.rank in self.rejected:
            self.vibe.tell("This patch was rejected; pick another one.", "warning")
            return
        edited = self.edited.get(row.rank)
        if (row.status != "verified" or edited is not None) and self.confirm_apply != row.rank:
            self.confirm_apply = row.rank
            why = "your edit of it was not checked" if edited is not None else f"this patch is {row.status}, not verified"
            self.vibe.tell(f"Careful: {why}. Press a again to apply it anyway.", "warning")
            return
        self.confirm_apply = None
        try:
            report = apply_fix(self.vibe.root, row, edited)
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Not applied")
            return
        self.vibe.tell(f"Applied candidate {row.candidate.index} to {', '.join(report.files)}; u undoes it.")

    def action_undo(self) -> None:
        try:
            report = undo(self.vibe.root)
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Nothing undone")
            return
        self.vibe.tell(f"Restored {', '.join(report.files)}.")

    def action_copy(self) -> None:
        row = self.current()
        if row is not None:
            text = self.diff_of(row).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            self.app.copy_to_clipboard(text)
            self.vibe.tell(f"Copied the diff of candidate {row.candidate.index} to the clipboard.")

    def action_save(self) -> None:
        row = self.current()
        if row is None:
            return

        def save(name: str | None) -> None:
            if name is None:
                return
            try:
                path = save_text(self.vibe.root, name, self.diff_of(row), exact=True)
            except VibecodeError as exc:
                self.vibe.tell_error(exc, "Not saved")
                return
            self.vibe.tell(f"Saved the diff of candidate {row.candidate.index} to {path}.")

        self.app.push_screen(SaveScreen(diff_name(row)), save)

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
            self.vibe.tell("Every patch is rejected: r samples more candidates.", "warning")

    def action_toggle_view(self) -> None:
        self.view = "files" if self.view == "diff" else "diff"
        self.show_selected()

    def action_back(self) -> None:
        self.dismiss()

    def palette_commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        """(title, help, callback) for the command palette."""
        return [
            ("Apply the patch", "To your files, through the journal (undoable)", self.action_apply),
            ("Undo the last apply", "Restore the files exactly", self.action_undo),
            ("Copy the diff", "To the clipboard", self.action_copy),
            ("Save the diff", "To a new file", self.action_save),
            ("Rerun the fix with more samples", "Twice the candidates", self.action_rerun),
            ("Edit the patched files", "In $EDITOR", self.action_edit),
            ("Reject the patch", "Mark it rejected", self.action_reject),
        ]
