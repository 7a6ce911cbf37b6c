"""Getting a task in: a file picker, and a text box for a pasted problem or a math question."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DirectoryTree, Input, Label, Static, TextArea

from vibecode.tui.widgets import KeyFooter, StatusBar

PROBLEM_SUFFIXES = (".md", ".txt", ".py")


class ProblemTree(DirectoryTree):
    """A directory tree that lists folders and problem files (.md, .txt, .py) only."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and
                (p.is_dir() or p.suffix.lower() in PROBLEM_SUFFIXES)]


def check_problem_file(text: str, root: Path) -> tuple[Path | None, str]:
    """The file the user typed, or why it cannot be opened."""
    if not text.strip():
        return None, "Type a file name, or pick one in the tree."
    path = Path(text.strip()).expanduser()
    path = path if path.is_absolute() else root / path
    if not path.is_file():
        return None, f"{path} is not a file."
    if path.suffix.lower() not in PROBLEM_SUFFIXES:
        return None, f"{path.name} is not a problem file ({', '.join(PROBLEM_SUFFIXES)})."
    return path, ""


class OpenFileScreen(ModalScreen[Path | None]):
    """Type a path (Enter opens it) or pick a file in the tree."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Cancel")]

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def compose(self) -> ComposeResult:
        with Vertical(id="open-dialog", classes="dialog"):
            yield Label("Open a problem file [dim](.md, .txt, .py)[/dim]", classes="box-title")
            yield Input(placeholder="path/to/problem.md", id="open-path")
            yield Static("", id="open-error", classes="error-line")
            yield ProblemTree(self.root, id="open-tree")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#open-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path, why = check_problem_file(event.value, self.root)
        if path is None:
            self.query_one("#open-error", Static).update(why)
            return
        self.dismiss(path)

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        path, why = check_problem_file(str(event.path), self.root)
        if path is None:
            self.query_one("#open-error", Static).update(why)
            return
        self.dismiss(path)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class TextTaskScreen(Screen[str | None]):
    """A text box for a pasted problem or a math question; Ctrl+S starts the run."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Solve", priority=True),
        Binding("escape", "dismiss_none", "Back"),
    ]

    def __init__(self, kind: str, initial: str = "") -> None:
        super().__init__()
        self.kind = kind
        self.initial = initial

    def compose(self) -> ComposeResult:
        what = ("Paste a problem: statement, examples (Input/Output) and the starter code"
                if self.kind == "code" else "A math question (the answer goes in \\boxed{})")
        yield Static(f"[b]{what}[/b]  [dim]Ctrl+S solves, Esc goes back[/dim]", classes="title")
        yield TextArea(self.initial, id="task-text", soft_wrap=True, tab_behavior="indent")
        yield Static("", id="task-error", classes="error-line")
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#task-text", TextArea).focus()

    def action_submit(self) -> None:
        text = self.query_one("#task-text", TextArea).text
        if not text.strip():
            self.query_one("#task-error", Static).update("Nothing to solve yet: paste or type the problem.")
            return
        self.dismiss(text)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
