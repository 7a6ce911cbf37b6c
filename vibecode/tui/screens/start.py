"""The start screen: choose a task, or run a recent one again."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from vibecode.tui.history import HistoryEntry, load_history
from vibecode.tui.widgets import KeyFooter, StatusBar, escape

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp

# "Fix failing tests" is offered when the fix flow is installed (vibecode.fix.pipeline).
FIX_FLOW_MODULE = "vibecode.fix.pipeline"
RECENT_SHOWN = 12
STATUS_VAR = {"verified": "$text-success", "plausible": "$text-warning", "failed": "$text-error",
              "passing": "$text-success"}


def fix_flow_available() -> bool:
    try:
        return importlib.util.find_spec(FIX_FLOW_MODULE) is not None
    except (ImportError, ValueError):
        return False


TASKS = (
    ("open", "Open a problem file", "o", "LeetCode/HumanEval .md .txt .py"),
    ("paste", "Paste a problem", "p", "statement, examples, starter"),
    ("math", "Ask a math question", "m", "answers checked with sympy"),
    ("fix", "Fix failing tests", "f", "verified patches for this repo"),
    ("ask", "Ask a free question", "a", "chat with the model, unchecked"),
    ("settings", "Settings", "s", "model, K, time budget, sandbox"),
)


def recent_prompt(entry: HistoryEntry) -> str:
    color = STATUS_VAR.get(entry.status, "dim")
    score = f" {entry.reliability:.2f}" if entry.status in ("verified", "plausible") else ""
    return (f"[b]{escape(entry.title)}[/b] [dim]K={entry.n}[/dim]\n"
            f"  [{color}]{entry.status}{score}[/] [dim]{entry.label_time}[/dim]")


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "task('open')", "Open file", tooltip="Open a problem file"),
        Binding("p", "task('paste')", "Paste", tooltip="Paste a problem"),
        Binding("m", "task('math')", "Math", tooltip="Ask a math question"),
        Binding("f", "task('fix')", "Fix tests", tooltip="Fix the failing tests of this folder"),
        Binding("a", "task('ask')", "Ask", tooltip="Ask a free question"),
        Binding("s", "task('settings')", "Settings", tooltip="Model, K, time budget, sandbox"),
    ]

    @property
    def vibe(self) -> VibecodeApp:
        return cast("VibecodeApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(
            f"[b]vibecode[/b]  [dim]offline answers, checked before they are proposed[/dim]  "
            f"·  folder [b]{escape(self.vibe.root.name or str(self.vibe.root))}[/b]",
            id="start-title", classes="title",
        )
        yield Static("", id="model-notice")
        with Horizontal(id="start-body"):
            with Vertical(id="tasks", classes="box"):
                yield Label("Choose a task", classes="box-title")
                yield OptionList(*self._task_options(), id="task-list")
            with Vertical(id="recent", classes="box"):
                yield Label("Recent runs", classes="box-title")
                yield OptionList(id="recent-list")
        yield StatusBar()
        yield KeyFooter()

    def show_notice(self, text: str) -> None:
        """The model's notice (e.g. the tiny-model warning) as a line above the panes, where it
        covers nothing (a toast would sit on the recent runs at 80x24)."""
        notice = self.query_one("#model-notice", Static)
        notice.update(Content.from_markup(f"[$text-warning]note:[/] {escape(text)}"))
        notice.display = True

    def _task_options(self) -> list[Option]:
        options = []
        fix = fix_flow_available()
        for key, label, shortcut, about in TASKS:
            if key == "fix" and not fix:
                options.append(Option(f"  {label}\n    [dim]needs the fix flow[/dim]", id=key, disabled=True))
            else:
                options.append(Option(f"[b $text-accent]{shortcut}[/] {label}\n    [dim]{about}[/dim]", id=key))
        return options

    def on_mount(self) -> None:
        self.query_one("#task-list", OptionList).focus()
        self.refresh_recent()

    def on_screen_resume(self) -> None:
        self.refresh_recent()

    def refresh_recent(self) -> None:
        self.entries = load_history()[:RECENT_SHOWN]
        recent = self.query_one("#recent-list", OptionList)
        recent.clear_options()
        if not self.entries:
            recent.add_option(Option("[dim]No runs yet.[/dim]", id="none", disabled=True))
        for i, entry in enumerate(self.entries):
            recent.add_option(Option(recent_prompt(entry), id=f"recent-{i}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("recent-"):
            self.vibe.rerun_entry(self.entries[int(option_id.removeprefix("recent-"))])
        else:
            self.action_task(option_id)

    def action_task(self, name: str) -> None:
        app = self.vibe
        if name == "open":
            app.action_open_problem()
        elif name == "paste":
            app.action_paste_problem()
        elif name == "math":
            app.action_math_question()
        elif name == "fix":
            if fix_flow_available():
                app.start_fix()
            else:
                app.tell("Fixing failing tests needs the fix flow, which is not installed.", "warning")
        elif name == "ask":
            app.action_ask()
        elif name == "settings":
            app.action_settings()
