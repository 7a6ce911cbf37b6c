"""The vibecode Textual app: screens, key bindings, workers and the status figures.

The app never calls a model or a sandbox on the event loop: each request runs in a thread worker
(:mod:`vibecode.tui.jobs`) that drives a :class:`~vibecode.session.Session` and posts its events
back as :class:`~vibecode.tui.messages.JobUpdate` messages.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.actions import SkipAction
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input, TextArea

from vibecode.config import Settings
from vibecode.engine.spec import make_engine
from vibecode.errors import VibecodeError
from vibecode.tui import jobs
from vibecode.tui.fix import jobs as fix_jobs
from vibecode.tui.fix.proposals import FixProposalsScreen
from vibecode.tui.fix.run import FixRunScreen
from vibecode.tui.history import HistoryEntry, add_entry, entry_for
from vibecode.tui.messages import JobUpdate
from vibecode.tui.review import DEFAULT_SOLUTION
from vibecode.tui.screens.ask import AskScreen
from vibecode.tui.screens.help import HelpScreen, binding_rows
from vibecode.tui.screens.inputs import OpenFileScreen, TextTaskScreen
from vibecode.tui.screens.proposals import ProposalsScreen
from vibecode.tui.screens.proposals_base import ProposalsBase
from vibecode.tui.screens.run import RunScreen
from vibecode.tui.screens.settings import SettingsScreen
from vibecode.tui.screens.start import StartScreen
from vibecode.tui.state import Clock, RunState
from vibecode.types import ChatMessage, EngineInfo

if TYPE_CHECKING:
    from vibecode.fix.suite import SuiteCommand

GLOBAL_KEYS = [("Ctrl+P", "Command palette"), ("Ctrl+Q", "Quit")]
MAX_RERUN_K = 64
SHUTDOWN_WAIT_S = 15.0


def guess_kind(text: str) -> str:
    """A problem file is a math question when it asks for a ``\\boxed{}`` answer."""
    return "math" if "\\boxed" in text else "code"


class VibecodeApp(App[int]):
    CSS_PATH = "vibecode.tcss"
    TITLE = "vibecode"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "help", "Help", tooltip="This help"),
        Binding("ctrl+c", "cancel_run", "Cancel the current run", priority=True, show=False),
    ]

    engine_info: reactive[EngineInfo | None] = reactive(None)
    tokens_per_s: reactive[float | None] = reactive(None)
    context_used: reactive[int] = reactive(0)
    settings: reactive[Settings] = reactive(Settings)

    def __init__(
        self,
        root: Path | None = None,
        settings: Settings | None = None,
        *,
        solution: Path | None = None,
        problem: Path | None = None,
        engine_factory: jobs.EngineFactory = make_engine,
        clock: Clock = time.monotonic,
        open_engine: bool = True,
        test_command: SuiteCommand | None = None,
    ) -> None:
        super().__init__()
        self.root = (root or Path.cwd()).resolve()
        self.set_reactive(VibecodeApp.settings, settings or Settings())
        self.solution = self._resolve(solution or Path(DEFAULT_SOLUTION))
        self.initial_problem = problem
        self.engines = jobs.EngineHolder(engine_factory)
        self.sandboxes = jobs.SandboxHolder()
        self.clock = clock
        self.open_engine_on_start = open_engine
        self.test_command = test_command  # how a fix runs the tests (None: pytest)
        self.active_run: jobs.Run | None = None
        self.notices: list[tuple[str, str]] = []  # (severity, text) of every notification
        self._told_notice: str | None = None

    def get_default_screen(self) -> Screen[None]:
        return StartScreen()

    def on_mount(self) -> None:
        self.install_screen(HelpScreen(binding_rows(list(self.BINDINGS)) + GLOBAL_KEYS), "help")  # built once: opening it is only a switch
        if self.open_engine_on_start:
            self.open_engine()
        if self.initial_problem is not None:
            self.open_problem(self.initial_problem)

    async def on_unmount(self) -> None:
        run = self.active_run
        if run is not None:
            run.cancel()
            await asyncio.to_thread(run.finished.wait, SHUTDOWN_WAIT_S)
        self.engines.close()

    # -- notifications -------------------------------------------------------------------

    def tell(self, text: str, severity: str = "information", title: str = "") -> None:
        self.notices.append((severity, text))
        timeout = 10.0 if severity == "error" else None
        self.notify(text, title=title, severity=severity, markup=False,  # type: ignore[arg-type]
                    timeout=timeout)

    def tell_error(self, exc: VibecodeError, title: str = "") -> None:
        self.tell(exc.message + (f" {exc.hint}" if exc.hint else ""), "error", title)

    # -- paths ---------------------------------------------------------------------------

    def _resolve(self, path: Path) -> Path:
        path = path.expanduser()
        return (path if path.is_absolute() else self.root / path).resolve()

    def solution_label(self) -> str:
        try:
            return self.solution.relative_to(self.root).as_posix()
        except ValueError:
            return str(self.solution)

    # -- workers -------------------------------------------------------------------------

    def _emitter(self, run: jobs.Run | None, target: Screen[None] | None) -> jobs.Emit:
        def emit(update: jobs.Update) -> None:
            to = self if target is None or isinstance(update, jobs.EngineReady) else target
            to.post_message(JobUpdate(run, update))

        return emit

    def open_engine(self) -> None:
        """Open the engine in the background, so the status bar knows it and the first run is warm."""
        self.run_worker(partial(jobs.open_engine, self.engines, self.settings, self._emitter(None, None)),
                        name="engine", group="engine", thread=True, exit_on_error=False)

    def launch_solve(self, screen: RunScreen) -> jobs.Run:
        run = jobs.Run(screen.request, screen.n)
        self.active_run = run
        work = partial(jobs.solve, run, self.settings, self.engines, self.sandboxes, self._emitter(run, screen))
        self.run_worker(work, name="solve", group="run", thread=True, exit_on_error=False)
        return run

    def launch_fix(self, screen: FixRunScreen) -> jobs.Run:
        run = jobs.Run(None, screen.n)
        self.active_run = run
        work = partial(fix_jobs.fix, run, self.root, self.settings, self.engines, self.sandboxes,
                       self._emitter(run, screen), command=self.test_command)
        self.run_worker(work, name="fix", group="run", thread=True, exit_on_error=False)
        return run

    def launch_ask(self, screen: AskScreen, messages: list[ChatMessage]) -> jobs.Run:
        run = jobs.Run(None, 1)
        self.active_run = run
        work = partial(jobs.ask, run, messages, self.settings, self.engines, self._emitter(run, screen))
        self.run_worker(work, name="ask", group="run", thread=True, exit_on_error=False)
        return run

    def launch_pull(self, screen: SettingsScreen, ref: str) -> None:
        self.run_worker(partial(jobs.pull, ref, self._emitter(None, screen)), name="pull", group="pull",
                        thread=True, exit_on_error=False)

    def on_job_update(self, message: JobUpdate) -> None:
        update = message.update
        if isinstance(update, jobs.EngineReady):
            self.engine_info = update.info
            if update.notice and update.notice != self._told_notice:
                self._told_notice = update.notice
                if isinstance(self.screen, StartScreen):
                    self.notices.append(("warning", update.notice))
                    self.screen.show_notice(update.notice)
                else:
                    self.tell(update.notice, "warning")
        elif isinstance(update, jobs.RunEnded):  # the engine could not be opened at start
            if update.error is not None:
                self.tell_error(update.error, "The engine could not be opened")
            elif update.crash is not None:
                self.tell(f"Internal error while opening the engine: {update.crash}", "error")

    def set_status_figures(self, state: RunState) -> None:
        self.tokens_per_s = state.tokens_per_s()
        self.context_used = state.context_used

    # -- runs ----------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        run = self.active_run
        return run is not None and not run.finished.is_set()

    def _free(self) -> bool:
        """Nothing runs (else say so): a new run may start, on top of the start screen."""
        if self.busy:
            stopping = self.active_run is not None and self.active_run.cancelled
            self.tell("The last run is still stopping; try again in a moment." if stopping
                      else "A run is in progress: Ctrl+C cancels it first.", "warning")
            return False
        while len(self.screen_stack) > 1:
            self.pop_screen()
        return True

    def start_solve(self, task: jobs.Task, n: int | None = None) -> None:
        if self._free():
            self.push_screen(RunScreen(task, n or self.settings.n))

    def open_problem(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.tell(f"Cannot read {path}: {exc}.", "error")
            return
        kind = guess_kind(text)
        self.start_solve(jobs.Task("math" if kind == "math" else "code", text, path))

    def run_ended(self, screen: RunScreen, update: jobs.RunEnded) -> None:
        state = screen.state
        info = self.engine_info
        engine = f"{info.engine}:{Path(info.model).name}" if info is not None else ""
        record = partial(entry_for, kind=screen.request.kind, title=_title(screen), text=screen.request.text,
                         n=screen.n, engine=engine, source=screen.request.source)
        if update.result is not None:
            state.finish(update.result)
            add_entry(record(update.result))
            if self.screen is screen:
                self.show_proposals(screen)
            else:
                self.tell("The proposals are ready: p in the run view shows them.")
        elif update.cancelled:
            state.stop("cancelled")
            add_entry(record(None, status="cancelled"))
            self.tell("Run cancelled.", "warning")
        elif update.error is not None:
            state.stop("failed", update.error.message)
            self.tell_error(update.error, "Run failed")
        else:
            state.stop("failed", update.crash)
            self.tell(f"Internal error: {update.crash}. The app keeps running.", "error", "Run failed")

    def show_proposals(self, run_screen: RunScreen) -> None:
        if run_screen.state.result is not None:
            self.push_screen(ProposalsScreen(run_screen.state.result, run_screen))

    def rerun(self, run_screen: RunScreen, more: bool = True) -> None:
        n = min(run_screen.n * 2, MAX_RERUN_K) if more else run_screen.n
        self.start_solve(run_screen.request, n)

    def rerun_entry(self, entry: HistoryEntry) -> None:
        if entry.kind == "fix":
            if entry.source and Path(entry.source).resolve() != self.root:
                self.tell(f"That fix ran in {entry.source}: open vibecode there to run it again.", "warning")
            else:
                self.start_fix(entry.n)
            return
        source = Path(entry.source) if entry.source else None
        text = entry.text
        if source is not None and source.is_file():
            try:
                text = source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = entry.text
        if not text.strip():
            self.tell("That run's problem text was not kept; open the file again.", "warning")
            return
        self.start_solve(jobs.Task("math" if entry.kind == "math" else "code", text, source), entry.n)

    def start_fix(self, n: int | None = None) -> None:
        """Fix the failing tests of the folder the app was opened in (its git working tree)."""
        if self._free():
            self.push_screen(FixRunScreen(self.root, n or self.settings.n))

    def show_fix_proposals(self, run_screen: FixRunScreen) -> None:
        if run_screen.fix_state.fix_result is not None:
            self.push_screen(FixProposalsScreen(run_screen.fix_state.fix_result, run_screen))

    def rerun_fix(self, run_screen: FixRunScreen) -> None:
        self.start_fix(min(run_screen.n * 2, MAX_RERUN_K))

    def apply_settings(self, settings: Settings, solution: Path) -> None:
        engine_changed = jobs.engine_key(settings) != jobs.engine_key(self.settings)
        self.settings = settings
        self.solution = self._resolve(solution)
        if engine_changed and not self.busy:
            self.engine_info = None
            self.open_engine()

    # -- actions -------------------------------------------------------------------------

    def action_open_problem(self) -> None:
        self.push_screen(OpenFileScreen(self.root), self.open_problem)

    def action_paste_problem(self) -> None:
        self.push_screen(TextTaskScreen("code"), partial(self._text_task, "code"))

    def action_math_question(self) -> None:
        self.push_screen(TextTaskScreen("math"), partial(self._text_task, "math"))

    def _text_task(self, kind: str, text: str | None) -> None:
        if text is not None:
            self.start_solve(jobs.Task("math" if kind == "math" else "code", text))

    def action_ask(self) -> None:
        self.push_screen(AskScreen())

    def action_settings(self) -> None:
        self.push_screen(SettingsScreen())

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
        else:
            self.push_screen("help")

    def action_cancel_run(self) -> None:
        run = self.active_run
        if run is not None and not run.finished.is_set():
            if not run.cancelled:
                run.cancel()
                self.tell("Cancelling the run…", "warning")
            return
        if isinstance(self.focused, (Input, TextArea)):
            raise SkipAction()  # let the text box copy
        self.tell("Nothing is running. q quits.")

    async def action_quit(self) -> None:
        if self.active_run is not None:
            self.active_run.cancel()
        self.exit(0)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        commands: list[tuple[str, str, Callable[[], object]]] = [
            ("Open a problem file", "Solve a problem from a .md, .txt or .py file", self.action_open_problem),
            ("Paste a problem", "Type or paste a problem statement", self.action_paste_problem),
            ("Math question", "Ask a math question with a checked answer", self.action_math_question),
            ("Fix failing tests", "Verified patches for this folder's failing tests", self.start_fix),
            ("Ask a free question", "Chat with the model", self.action_ask),
            ("Settings", "Model, K, time budget, sandbox, solution file", self.action_settings),
            ("Help", "Every key binding", self.action_help),
        ]
        if self.busy:
            commands.append(("Cancel the run", "Stop the engine and the sandbox runs", self.action_cancel_run))
        if isinstance(screen, ProposalsBase):
            commands += screen.palette_commands()
        for title, help_text, callback in commands:
            yield SystemCommand(title, help_text, callback)


def _title(screen: RunScreen) -> str:
    result = screen.state.result
    if result is not None and result.problem.title:
        return result.problem.title
    if screen.request.source is not None:
        return screen.request.source.name
    first = screen.request.text.strip().splitlines()[0] if screen.request.text.strip() else ""
    return first.lstrip("# ")[:60]
