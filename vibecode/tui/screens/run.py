"""The run view: K candidates growing while the model samples, then what verification found.

:class:`CandidatesScreen` is what a solve's run view (:class:`RunScreen`) and a fix's
(:class:`vibecode.tui.fix.run.FixRunScreen`) share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Collapsible, DataTable, Static

from vibecode.tui import jobs
from vibecode.tui.messages import JobUpdate
from vibecode.tui.state import CandidateRow, RunState
from vibecode.tui.widgets import (
    CandidateTable,
    KeyFooter,
    StageLine,
    StatusBar,
    candidate_details,
    escape,
)

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp

NARROW = 110  # below this width the reasoning and the details stack


class CandidatesScreen(Screen[None]):
    """What the run views share: the candidate table, the focused candidate's reasoning in a
    collapsible panel, and what verification found about it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", tooltip="Back to the start (cancels a run)"),
        Binding("p", "proposals", "Proposals", tooltip="The ranked proposals (when done)"),
        Binding("enter", "proposals", "Proposals", show=False),
        Binding("t", "toggle_reasoning", "Reasoning", tooltip="Show or hide the reasoning panel"),
    ]

    def __init__(self, n: int, state: RunState) -> None:
        super().__init__()
        self.n = n
        self.job: jobs.Run | None = None
        self.state = state
        self.focused_index = 0
        self._shown: tuple[int, int, int, str] | None = None  # what the reasoning panel shows
        self._details: Content | None = None

    @property
    def vibe(self) -> VibecodeApp:
        return cast("VibecodeApp", self.app)

    def compose_lower(self) -> ComposeResult:
        """The reasoning panel and the details box, side by side (stacked when narrow)."""
        with Horizontal(id="run-lower"):
            with Collapsible(title="Reasoning", collapsed=False, id="reasoning-box"), \
                    VerticalScroll(id="reasoning-scroll"):
                yield Static("", id="reasoning")
            with Vertical(id="details-box", classes="box"):
                yield Static("Candidate 0", id="details-title", classes="box-title")
                with VerticalScroll(id="details-scroll"):
                    yield Static("", id="details")

    def details(self, row: CandidateRow) -> Content:
        """What verification found about the focused candidate."""
        return candidate_details(row)

    def on_resize(self) -> None:
        self.set_narrow(self.size.width)

    def set_narrow(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")

    def on_unmount(self) -> None:
        if self.job is not None and self.state.running:
            self.job.cancel()

    def _tick(self) -> None:
        if self.state.running:
            self.query_one(StageLine).show(self.state)

    def refresh_view(self) -> None:
        state = self.state
        self.query_one(StageLine).show(state)
        table = self.query_one(CandidateTable)
        table.show(state)
        self.show_focused()
        self.vibe.set_status_figures(state)

    def show_focused(self) -> None:
        row = self.state.candidates.get(self.focused_index)
        if row is None:
            return
        shown = (row.index, len(row.reasoning), len(row.answer), row.state)
        if shown != self._shown:  # re-render the text only when it grew
            self._shown = shown
            parts: list[Content | tuple[str, str] | str] = []
            if row.reasoning:
                parts.append((row.reasoning_text(), "dim italic"))
            if row.answer:
                parts.append(("\n\n" if row.reasoning else "") + row.answer_text())
            reasoning = self.query_one("#reasoning", Static)
            reasoning.update(Content.assemble(*parts) if parts else Content.from_markup("[dim]waiting for tokens…[/dim]"))
            box = self.query_one("#reasoning-box", Collapsible)
            box.title = f"Reasoning · candidate {row.index} · {row.state}"
            if self.state.running:
                self.query_one("#reasoning-scroll", VerticalScroll).scroll_end(animate=False, immediate=False)
        details = self.details(row)
        if details != self._details:
            self._details = details
            self.query_one("#details-title", Static).update(f"Candidate {row.index}")
            self.query_one("#details", Static).update(details)

    @on(DataTable.RowHighlighted, "#candidates")
    def row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self.focused_index = int(event.row_key.value)
            self.show_focused()

    @on(DataTable.RowSelected, "#candidates")
    def row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_proposals()

    # -- actions -------------------------------------------------------------------------

    def action_back(self) -> None:
        if self.state.running and self.job is not None:
            self.job.cancel()
            self.vibe.tell("Run cancelled.", "warning")
        self.dismiss()

    def action_proposals(self) -> None:
        """Each run view opens its own proposals when they exist; before, this says when."""
        if self.state.running:
            self.vibe.tell("The proposals appear when the run is done.", "information")
        elif self.state.status == "cancelled":
            self.vibe.tell("The run was cancelled before it proposed anything: r runs it again.", "warning")
        else:
            self.vibe.tell("This run ended without proposals (see its status above): r runs it again.", "warning")

    def action_toggle_reasoning(self) -> None:
        box = self.query_one("#reasoning-box", Collapsible)
        box.collapsed = not box.collapsed


class RunScreen(CandidatesScreen):
    """A solve's run view."""

    def __init__(self, task: jobs.Task, n: int) -> None:
        super().__init__(n, RunState(n, mode=task.kind))
        self.request = task

    def compose(self) -> ComposeResult:
        source = self.request.source.name if self.request.source else ("pasted problem" if self.request.kind == "code"
                                                                   else "math question")
        yield Static(f"[b]{escape(source)}[/b]  [dim]K = {self.n}[/dim]", id="run-title", classes="title")
        yield StageLine(id="stages")
        yield CandidateTable(id="candidates")
        yield from self.compose_lower()
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.state = RunState(self.n, clock=self.vibe.clock, mode=self.request.kind)
        self.vibe.set_status_figures(self.state)
        self.set_narrow(self.app.size.width)
        self.job = self.vibe.launch_solve(self)
        self.refresh_view()
        self.set_interval(0.5, self._tick)

    # -- updates from the worker ---------------------------------------------------------

    def on_job_update(self, message: JobUpdate) -> None:
        if message.run is not self.job:
            return
        update = message.update
        state = self.state
        if isinstance(update, jobs.RunStarted):
            state.prompt_tokens, state.max_tokens, state.n_ctx = update.prompt_tokens, update.max_tokens, update.info.n_ctx
            state.plan_rates, state.seen = update.plan_rates, update.seen
            state.time_budget_s, state.budget_started = self.vibe.settings.time_budget_s, state.clock()
            if state.status == "starting":
                state.status = "running"
            title = self.query_one("#run-title", Static)
            title.update(Content.from_markup(f"[b]$title[/b]  [dim]K = {self.n} · $source[/dim]", title=update.title,
                                             source=self.request.source.name if self.request.source else "pasted"))
        elif isinstance(update, jobs.RunEvents):
            state.apply_all(update.events)
        elif isinstance(update, jobs.RunEnded):
            self.vibe.run_ended(self, update)
        self.refresh_view()

    def action_proposals(self) -> None:
        if self.state.result is not None:
            self.vibe.show_proposals(self)
        else:
            super().action_proposals()
