"""Settings: the engine/model (registry models, or any engine spec), pulling a model with a
progress bar, K, the time budget, the sandbox backend and the solution file. Changes hold for
this session of the app."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Input,
    Label,
    OptionList,
    ProgressBar,
    RadioButton,
    RadioSet,
    Static,
)
from textual.widgets.option_list import Option

from vibecode.config import Settings
from vibecode.errors import UsageError, VibecodeError
from vibecode.models import ModelStatus, list_models
from vibecode.sandbox import BACKENDS
from vibecode.tui import jobs
from vibecode.tui.messages import JobUpdate
from vibecode.tui.widgets import KeyFooter, StatusBar, escape

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp


def model_prompt(status: ModelStatus) -> str:
    m = status.manifest
    where = "[$text-success]on this machine[/]" if status.present else f"[dim]not downloaded · {m.size_bytes / 1e9:.1f} GB[/dim]"
    return f"[b]{escape(m.id)}[/b]  {where}\n  [dim]{escape(m.description)}[/dim]"


def engine_spec_for(model_id: str) -> str:
    return "tiny" if model_id == "tiny" else f"llama:{model_id}"


def parse_settings_form(base: Settings, *, spec: str, k: str, budget: str, sandbox: str) -> Settings:
    """New settings from the form's text; a bad value is a UsageError that says which."""
    try:
        n = int(k)
    except ValueError:
        raise UsageError(f"K must be a whole number, got {k!r}.") from None
    if not 1 <= n <= 256:
        raise UsageError(f"K must be between 1 and 256, got {n}.")
    seconds: float | None = None
    if budget.strip():
        try:
            seconds = float(budget)
        except ValueError:
            raise UsageError(f"The time budget must be a number of seconds, got {budget!r}.") from None
        if seconds <= 0:
            raise UsageError("The time budget must be positive (leave it empty for no limit).")
    if sandbox not in BACKENDS:
        raise UsageError(f"Unknown sandbox {sandbox!r}.")
    engine = spec.strip() or None
    if engine is not None:
        from vibecode.engine.spec import parse_spec

        parse_spec(engine)  # raises EngineSpecError with the accepted forms
    return dataclasses.replace(base, engine=engine, n=n, time_budget_s=seconds, sandbox=sandbox)


class SettingsScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.models: list[ModelStatus] = []
        self.pulling = False

    @property
    def vibe(self) -> VibecodeApp:
        return cast("VibecodeApp", self.app)

    def compose(self) -> ComposeResult:
        s = self.vibe.settings
        yield Static("[b]Settings[/b]  [dim]Ctrl+S saves · Esc back · scroll ↓ for K, budget, sandbox[/dim]",
                     classes="title")
        with VerticalScroll(id="settings-form"):
            yield Label("Model [dim](Enter picks it)[/dim]", classes="field-label")
            yield OptionList(id="model-list")
            yield Label("Engine spec [dim](llama:<model or .gguf> · openai:<url> · replay:<file> · tiny)[/dim]",
                        classes="field-label")
            yield Input(s.engine or "", placeholder="default model", id="engine-spec")
            yield Label("Pull a model [dim](registry id or hf://owner/repo/file.gguf)[/dim]", classes="field-label")
            with Horizontal(classes="row"):
                yield Input(placeholder="vibethinker-3b", id="pull-ref")
                yield Button("Pull", id="pull", variant="primary")
            bar = ProgressBar(id="pull-progress", show_eta=False)
            bar.display = False  # shown once a pull starts: an idle indeterminate bar looks busy
            yield bar
            yield Static("", id="pull-status")
            with Horizontal(classes="row"):
                with Vertical(classes="field"):
                    yield Label("K (candidates)", classes="field-label")
                    yield Input(str(s.n), id="k", type="integer")
                with Vertical(classes="field"):
                    yield Label("Time budget, s", classes="field-label")
                    yield Input("" if s.time_budget_s is None else f"{s.time_budget_s:g}", placeholder="no limit",
                                id="budget", type="number")
            yield Label("Sandbox", classes="field-label")
            with RadioSet(id="sandbox"):
                for kind in BACKENDS:
                    yield RadioButton(kind, value=kind == s.sandbox, id=f"sandbox-{kind}")
            yield Label("Solution file [dim](what a applies to)[/dim]", classes="field-label")
            yield Input(self.vibe.solution_label(), id="solution")
            with Horizontal(classes="row"):
                yield Button("Save", id="save", variant="success")
                yield Button("Back", id="back")
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.refresh_models()
        self.query_one("#model-list", OptionList).focus()

    def refresh_models(self) -> None:
        try:
            self.models = list_models()
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Cannot list the models")
            self.models = []
        options = self.query_one("#model-list", OptionList)
        options.clear_options()
        for status in self.models:
            options.add_option(Option(model_prompt(status), id=status.manifest.id))
        if self.models:
            current = self.vibe.settings.model or (self.vibe.settings.engine or "").removeprefix("llama:")
            ids = [m.manifest.id for m in self.models]
            options.highlighted = ids.index(current) if current in ids else 0

    @on(OptionList.OptionHighlighted, "#model-list")
    def model_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and not self.pulling:
            self.query_one("#pull-ref", Input).value = event.option.id

    @on(OptionList.OptionSelected, "#model-list")
    def model_selected(self, event: OptionList.OptionSelected) -> None:
        model_id = event.option.id or ""
        status = next((m for m in self.models if m.manifest.id == model_id), None)
        self.query_one("#engine-spec", Input).value = engine_spec_for(model_id)
        if status is not None and not status.present:
            self.vibe.tell(f"{model_id} is not downloaded yet: Pull fetches it.", "warning")

    @on(Button.Pressed, "#pull")
    def pull_pressed(self) -> None:
        self.action_pull()

    @on(Input.Submitted, "#pull-ref")
    def pull_submitted(self) -> None:
        self.action_pull()

    @on(Button.Pressed, "#save")
    def save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#back")
    def back_pressed(self) -> None:
        self.action_back()

    def action_pull(self) -> None:
        ref = self.query_one("#pull-ref", Input).value.strip()
        if not ref:
            self.vibe.tell("Type a model id or an hf:// file to pull.", "warning")
            return
        if self.pulling:
            self.vibe.tell("A download is already running.", "warning")
            return
        self.pulling = True
        bar = self.query_one("#pull-progress", ProgressBar)
        bar.update(total=None, progress=0)
        bar.display = True
        self.query_one("#pull-status", Static).update(f"pulling {escape(ref)}…")
        self.vibe.launch_pull(self, ref)

    def on_job_update(self, message: JobUpdate) -> None:
        update = message.update
        bar = self.query_one("#pull-progress", ProgressBar)
        status = self.query_one("#pull-status", Static)
        if isinstance(update, jobs.PullProgress):
            bar.update(total=update.total, progress=update.done)
            total = f" of {update.total / 1e6:.1f} MB" if update.total else ""
            status.update(f"{update.done / 1e6:.1f} MB{total}")
        elif isinstance(update, jobs.PullEnded):
            self.pulling = False
            if update.path is not None:
                status.update(f"[$text-success]downloaded[/] {escape(str(update.path))}")
                self.vibe.tell(f"Pulled {update.path.name}.")
                self.refresh_models()
            elif update.error is not None:
                status.update(f"[$text-error]{escape(update.error.message)}[/]")
                self.vibe.tell_error(update.error, "Download failed")
            else:
                status.update(f"[$text-error]{escape(update.crash or 'failed')}[/]")
                self.vibe.tell(f"Download failed: {update.crash}", "error")

    def action_save(self) -> None:
        pressed = self.query_one("#sandbox", RadioSet).pressed_button
        sandbox = str(pressed.label) if pressed is not None else self.vibe.settings.sandbox
        try:
            settings = parse_settings_form(
                self.vibe.settings,
                spec=self.query_one("#engine-spec", Input).value,
                k=self.query_one("#k", Input).value,
                budget=self.query_one("#budget", Input).value,
                sandbox=sandbox,
            )
            solution = self.query_one("#solution", Input).value.strip()
            if not solution:
                raise UsageError("Give a solution file (what a applies to).")
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Settings not saved")
            return
        self.vibe.apply_settings(settings, Path(solution))
        self.vibe.tell("Settings saved for this session.")
        self.dismiss()

    def action_back(self) -> None:
        self.dismiss()
