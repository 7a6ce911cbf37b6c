"""The help screen: every key binding, by screen, read from the screens' own BINDINGS."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from vibecode.tui.widgets import escape

KEY_NAMES = {"question_mark": "?", "escape": "Esc", "enter": "Enter", "comma": ","}


def key_label(key: str) -> str:
    names = [KEY_NAMES.get(k, k) for k in key.split(",")]
    return " / ".join("Ctrl+" + n[5:].upper() if n.startswith("ctrl+") else n for n in names)


def binding_rows(bindings: list[BindingType]) -> list[tuple[str, str]]:
    rows = []
    for b in bindings:
        if isinstance(b, Binding):
            if b.description:
                rows.append((key_label(b.key), b.description))
        elif isinstance(b, tuple) and len(b) >= 3:
            rows.append((key_label(str(b[0])), str(b[2])))
    return rows


def help_sections() -> list[tuple[str, list[tuple[str, str]]]]:
    from vibecode.tui.app import GLOBAL_KEYS, VibecodeApp
    from vibecode.tui.screens.ask import AskScreen
    from vibecode.tui.screens.proposals import ProposalsScreen
    from vibecode.tui.screens.run import RunScreen
    from vibecode.tui.screens.settings import SettingsScreen
    from vibecode.tui.screens.start import StartScreen

    screens: list[tuple[str, Any]] = [
        ("Start", StartScreen), ("Run view", RunScreen), ("Proposals", ProposalsScreen),
        ("Ask", AskScreen), ("Settings", SettingsScreen),
    ]
    everywhere = binding_rows(list(VibecodeApp.BINDINGS)) + GLOBAL_KEYS
    return [("Everywhere", everywhere)] + [(name, binding_rows(list(cls.BINDINGS))) for name, cls in screens]


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static("[b]Keys[/b]  [dim]Esc or ? closes[/dim]", classes="box-title")
            for title, rows in help_sections():
                lines = "\n".join(f"  [b $text-accent]{escape(k):>9}[/]  {escape(d)}" for k, d in rows)
                yield Static(f"[b]{title}[/b]\n{lines}", classes="help-section")

    def action_close(self) -> None:
        self.dismiss()
