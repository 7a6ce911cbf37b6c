"""The fix run view: the failing tests, then K candidate patches growing while the model samples,
then each patch's verification in the sandbox (fixed x/y, regressions, test edits, cluster,
claims, r_k). When the run is done the ranked proposals open
(:class:`~vibecode.tui.fix.proposals.FixProposalsScreen`)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from vibecode.tui import jobs
from vibecode.tui.fix.state import NOTHING_TO_FIX, FixState
from vibecode.tui.fix.widgets import FixCandidateTable, baseline_markup, fix_details
from vibecode.tui.history import add_entry, fix_entry
from vibecode.tui.messages import JobUpdate
from vibecode.tui.screens.run import CandidatesScreen
from vibecode.tui.state import CandidateRow
from vibecode.tui.widgets import KeyFooter, StageLine, StatusBar, escape


class FixRunScreen(CandidatesScreen):
    """A fix's run view, on the folder the app was opened in."""

    def __init__(self, root: Path, n: int) -> None:
        state = FixState(n)
        super().__init__(n, state)
        self.root = root
        self.fix_state = state

    def compose(self) -> ComposeResult:
        yield Static(f"[b]Fix failing tests[/b] · {escape(self.root.name or str(self.root))}  [dim]K = {self.n}[/dim]",
                     id="run-title", classes="title")
        yield StageLine(id="stages")
        with VerticalScroll(id="baseline-box", classes="box") as box:
            box.border_title = "Tests before any patch"
            yield Static("", id="baseline")
        yield FixCandidateTable(id="candidates")
        yield from self.compose_lower()
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.fix_state = FixState(self.n, clock=self.vibe.clock)
        self.state = self.fix_state
        self.vibe.set_status_figures(self.state)
        self.set_narrow(self.app.size.width)
        self.job = self.vibe.launch_fix(self)
        self.query_one(FixCandidateTable).focus()  # the keys move through the candidates
        self.refresh_view()
        self.set_interval(0.5, self._tick)

    def details(self, row: CandidateRow) -> Content:
        return fix_details(row, self.fix_state.checks.get(row.index))

    def refresh_view(self) -> None:
        self.query_one("#baseline", Static).update(Content.from_markup(baseline_markup(self.fix_state)))
        passing = self.fix_state.passing
        for selector in ("#candidates", "#run-lower"):
            self.query_one(selector).display = not passing
        super().refresh_view()

    # -- updates from the worker ---------------------------------------------------------

    def on_job_update(self, message: JobUpdate) -> None:
        if message.run is not self.job:
            return
        update = message.update
        state = self.fix_state
        if isinstance(update, jobs.RunStarted):  # the model was opened: a test failed
            state.max_tokens, state.n_ctx = update.max_tokens, update.info.n_ctx
            state.plan_rates, state.seen = update.plan_rates, update.seen
            if state.status == "starting":
                state.status = "running"
        elif isinstance(update, jobs.RunEvents):
            state.apply_all(update.events)
        elif isinstance(update, jobs.FixEnded):
            self.ended(update)
        self.refresh_view()

    def ended(self, update: jobs.FixEnded) -> None:
        state, vibe = self.fix_state, self.vibe
        info = vibe.engine_info
        engine = f"{info.engine}:{Path(info.model).name}" if info is not None else ""
        if update.result is not None:
            result = update.result
            state.finish_fix(result)
            add_entry(fix_entry(result, self.root, self.n, engine))
            if result.status in NOTHING_TO_FIX:
                vibe.tell(f"{result.reason} There is nothing to fix.", "information", "Nothing fails")
            elif vibe.screen is self:
                vibe.show_fix_proposals(self)
            else:
                vibe.tell("The fix proposals are ready: p in the fix view shows them.")
        elif update.cancelled:
            state.stop("cancelled")
            add_entry(fix_entry(None, self.root, self.n, engine, status="cancelled"))
            vibe.tell("Run cancelled.", "warning")
        elif update.error is not None:
            state.stop("failed", update.error.message)
            vibe.tell_error(update.error, "Fix failed")
        else:
            state.stop("failed", update.crash)
            what = update.crash or "the run ended without a result"
            vibe.tell(f"Internal error: {what}. The app keeps running.", "error", "Fix failed")

    def action_proposals(self) -> None:
        result = self.fix_state.fix_result
        if result is not None and result.status in NOTHING_TO_FIX:
            self.vibe.tell("Nothing fails, so there is nothing to propose.")
        elif result is not None:
            self.vibe.show_fix_proposals(self)
        else:
            super().action_proposals()
