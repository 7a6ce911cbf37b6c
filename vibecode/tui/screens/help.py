"""The help screen: every key binding, by screen, read from the screens' own BINDINGS."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from vibecode.tui.widgets import escape

NARROW_BELOW = 110  # terminal width under which the help has one column
NUMBERING = ("[dim]#N is always a candidate's number, from 0 in sampling order (the JSON's index); "
             "proposals and clusters are ranked 1st, 2nd, ...[/dim]")
KEY_NAMES = {"question_mark": "?", "escape": "Esc", "enter": "Enter", "comma": ","}


def key_label(key: str) -> str:
    names = [KEY_NAMES.get(k, k) for k in key.split(",")]
    return " / ".join("Ctrl+" + n[5:].upper() if n.startswith("ctrl+") else n for n in names)


def binding_rows(bindings: list[BindingType]) -> list[tuple[str, str]]:
    """(keys, what they do) per action: keys bound to the same action share a row; the
    binding's tooltip, when it has one, is the longer description."""
    rows: dict[str, tuple[list[str], str]] = {}
    for b in bindings:
        if not isinstance(b, Binding) or not b.description:
            continue
        rows.setdefault(b.action, ([], b.tooltip or b.description))[0].append(key_label(b.key))
    return [(" / ".join(keys), text) for keys, text in rows.values()]


def help_sections(everywhere: list[tuple[str, str]]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The help's sections: ``everywhere`` (the app's own keys, which the app passes in, so that no
    screen imports the app), then each screen's bindings."""
    from vibecode.tui.fix.proposals import FixProposalsScreen
    from vibecode.tui.screens.ask import AskScreen
    from vibecode.tui.screens.proposals import ProposalsScreen
    from vibecode.tui.screens.run import RunScreen
    from vibecode.tui.screens.settings import SettingsScreen
    from vibecode.tui.screens.start import StartScreen

    screens: list[tuple[str, Any]] = [
        ("Start", StartScreen), ("Run view (solve, fix)", RunScreen), ("Proposals", ProposalsScreen),
        ("Fix proposals", FixProposalsScreen), ("Ask", AskScreen), ("Settings", SettingsScreen),
    ]
    return [("Everywhere", everywhere)] + [(name, binding_rows(list(cls.BINDINGS))) for name, cls in screens]


class HelpScreen(Screen[None]):
    """A full screen (not a modal: no dimmed screen to render beneath), built once and reused."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close"),
    ]

    def __init__(self, everywhere: list[tuple[str, str]]) -> None:
        super().__init__()
        self.everywhere = everywhere

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog", classes="dialog"):
            yield Static("[b]Keys[/b]  [dim]Esc or ? closes · Ctrl+P searches every command[/dim]",
                         classes="box-title")
            yield Static(NUMBERING, id="help-numbering")
            sections = help_sections(self.everywhere)
            with Horizontal(id="help-columns"):
                for column in (sections[0::2], sections[1::2]):
                    with Vertical(classes="help-column"):
                        for title, rows in column:
                            lines = "\n".join(f"[b $text-accent]{escape(k):>11}[/]  {escape(d)}" for k, d in rows)
                            yield Static(f"[b]{title}[/b]\n{lines}", classes="help-section")

    def on_resize(self, event: events.Resize) -> None:
        # two columns need room: below NARROW_BELOW columns their text would wrap into each other
        self.query_one("#help-columns").set_class(event.size.width < NARROW_BELOW, "narrow")

    def action_close(self) -> None:
        self.app.pop_screen()
