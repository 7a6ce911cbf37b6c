"""What the two proposals screens share (solve: ProposalsScreen, fix: FixProposalsScreen): the
status colours, the diff colours, $EDITOR and the save dialog."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp

STATUS_VAR = {"verified": "success", "plausible": "warning", "failed": "error"}

DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("+", "$text-success"), ("-", "$text-error"),
               ("@@", "$text-accent"), ("diff ", "bold"), ("new file", "dim"), ("deleted file", "dim"),
               ("#", "dim italic"))


def diff_content(diff: str) -> Content:
    """A unified diff coloured with the theme: additions, removals, hunk headers."""
    lines = []
    for line in diff.rstrip("\n").split("\n"):
        style = next((style for prefix, style in DIFF_STYLES if line.startswith(prefix)), "")
        lines.append(Content.styled(line, style) if style else Content(line))
    return Content("\n").join(lines)


def run_editor(app: VibecodeApp, paths: Sequence[Path]) -> int | None:
    """Run ``$VISUAL`` (or ``$EDITOR``, or vi) on ``paths`` with the app suspended: the editor's
    exit status, or None when it could not run (the app was told why). A failed editor is told too."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        with app.suspend():
            code = subprocess.call([*shlex.split(editor), *(str(p) for p in paths)])
    except SuspendNotSupported:
        app.tell("This terminal cannot hand the screen to an editor.", "error")
        return None
    except OSError as exc:
        app.tell(f"Cannot start the editor {editor!r}: {exc.strerror or exc}.", "error")
        return None
    app.refresh()
    if code != 0:
        app.tell(f"The editor exited with status {code}; the proposal is unchanged.", "warning")
    return code


class SaveScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, suggestion: str) -> None:
        super().__init__()
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(id="save-dialog", classes="dialog"):
            yield Label("Save the proposal to a new file [dim](Enter saves, Esc cancels)[/dim]")
            yield Input(self.suggestion, id="save-name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
