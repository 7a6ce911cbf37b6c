"""What the two proposals screens share (solve: ProposalsScreen, fix: FixProposalsScreen): the
keys, the layout, the ranked list with its rejections, the view and evidence panes, the apply that
asks twice, and the actions that work alike (undo, copy, save, reject, toggle, back); and the
helpers both use (diff colours, $EDITOR, the save dialog). Each screen fills in its rows, its
texts and how apply, edit, rerun and its views work."""

from __future__ import annotations

import os
import shlex
import subprocess
from abc import abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Generic, Literal, Protocol, TypeVar, cast

from textual import on
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from vibecode.errors import VibecodeError
from vibecode.repo.workspace import ApplyReport, WorktreeConflict, undo
from vibecode.tui.review import save_text
from vibecode.tui.widgets import KeyFooter, StatusBar, escape

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp

PaletteAction = Literal["apply", "undo", "copy", "save", "rerun", "edit", "reject"]
Palette = tuple[tuple[str, str, PaletteAction], ...]  # (title, help, action) in the command palette

UNDO_CONFLICT_HINT = ("Nothing was changed. Save your edits elsewhere (or commit them), then press u again; "
                      "to restore anyway, run `vibecode undo --force` in a shell.")
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


def proposal_bindings(*, apply: str, copy: str, save: str, rerun: str, edit: str, reject: str,
                      view: tuple[str, str], back: tuple[str, str]) -> list[BindingType]:
    """The keys of a proposals screen, the same on both: each argument is its key's tooltip, or
    (label, tooltip) for the two keys whose label differs."""
    return [
        Binding("a", "apply", "Apply", tooltip=apply),
        Binding("u", "undo", "Undo", tooltip="Undo the last apply"),
        Binding("c", "copy", "Copy", tooltip=copy, show=False),  # in the help; the footer must fit 80 columns
        Binding("s", "save", "Save", tooltip=save),
        Binding("r", "rerun", "Rerun", tooltip=rerun),
        Binding("e", "edit", "Edit", tooltip=edit),
        Binding("x", "reject", "Reject", tooltip=reject),
        Binding("v", "toggle_view", view[0], tooltip=view[1]),
        Binding("escape", "back", back[0], tooltip=back[1]),
    ]


class Indexed(Protocol):
    @property
    def index(self) -> int: ...


class Row(Protocol):
    """What the shared code reads of a proposal: its rank, its status and its candidate's index."""

    @property
    def rank(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def candidate(self) -> Indexed: ...


RowT = TypeVar("RowT", bound=Row)
EditT = TypeVar("EditT")  # what $EDITOR makes of a proposal: the code, or a patch


class ProposalsBase(Screen[None], Generic[RowT, EditT]):
    """Ranked proposals (``RowT``) with the user's edits of them (``EditT``). A subclass sets the
    class texts below and ``BINDINGS`` (from :func:`proposal_bindings`), and fills in the abstract
    methods; ``files_changed`` redraws after apply and undo where the view depends on the files."""

    LIST_TITLE: ClassVar[str]  # the title of the list of proposals
    NOTHING: ClassVar[str]  # the list's one line when no candidate made a proposal
    NOUN: ClassVar[str]  # what the messages call one proposal
    ALT_VIEW: ClassVar[str]  # what v shows instead of the diff
    SAVE_EXACT: ClassVar[bool] = False  # s saves byte for byte (a diff) rather than as a source file
    PALETTE: ClassVar[Palette]  # this screen's entries in the command palette

    def __init__(self, rows: list[RowT], view: str) -> None:
        super().__init__()
        self.rows = rows
        self.rejected: set[int] = set()
        self.edited: dict[int, EditT] = {}  # rank -> the proposal as the user edited it
        self.selected = 0
        self.view = view
        self.view_text = ""  # what the view shows, as plain text
        self.confirm_apply: int | None = None  # the rank that applies on the second a

    @property
    def vibe(self) -> VibecodeApp:
        return cast("VibecodeApp", self.app)

    # -- what each screen fills in ---------------------------------------------------------

    @abstractmethod
    def verdict(self) -> str:
        """The markup of the verdict line at the top."""

    @abstractmethod
    def prompt(self, row: RowT, rejected: bool) -> str:
        """The markup of the row in the list."""

    @abstractmethod
    def evidence(self, row: RowT) -> str:
        """The markup of the evidence pane."""

    @abstractmethod
    def reason(self) -> str:
        """Why the result is what it is: the evidence pane when there is no proposal."""

    @abstractmethod
    def view_of(self, row: RowT, edited: str) -> tuple[str, str, Content]:
        """What the view shows of ``row`` (``edited`` marks an edited one): the title's markup,
        the plain text (for copying from the screen) and the content."""

    @abstractmethod
    def apply_warning(self, row: RowT) -> str | None:
        """Why applying ``row`` asks for a second a, or None when the first one applies it."""

    @abstractmethod
    def apply_row(self, row: RowT) -> ApplyReport:
        """Apply the proposal (or the user's edit of it) through the journal."""

    @abstractmethod
    def subject(self, row: RowT) -> str:
        """What copy and save say they copied or saved."""

    @abstractmethod
    def clipboard_text(self, row: RowT) -> str:
        """What c copies."""

    @abstractmethod
    def saved_text(self, row: RowT) -> str:
        """What s saves."""

    @abstractmethod
    def save_name(self, row: RowT) -> str:
        """The file name the save dialog suggests."""

    @abstractmethod
    def action_rerun(self) -> None: ...

    @abstractmethod
    def action_edit(self) -> None: ...

    def files_changed(self) -> None:
        """The files changed (apply, undo); by default the view does not depend on them."""

    def palette_commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        """(title, help, callback) for the command palette."""
        return [(title, help_text, getattr(self, f"action_{action}")) for title, help_text, action in self.PALETTE]

    # -- layout, list and view -----------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(Content.from_markup(self.verdict()), id="verdict", classes="title")
        with Horizontal(id="proposal-body"):
            with Vertical(id="proposal-side", classes="box"):
                yield Label(self.LIST_TITLE, classes="box-title")
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
            plist.add_option(Option(f"[dim]{self.NOTHING}[/dim]", disabled=True))
        for row in self.rows:
            plist.add_option(Option(self.prompt(row, row.rank in self.rejected), id=f"p{row.rank}"))
        if keep is not None and self.rows:
            plist.highlighted = min(keep, len(self.rows) - 1)

    @on(OptionList.OptionHighlighted, "#proposal-list")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id and event.option.id.startswith("p"):
            self.selected = int(event.option.id[1:])
            self.show_selected()

    def current(self) -> RowT | None:
        return next((r for r in self.rows if r.rank == self.selected), None)

    def show_selected(self) -> None:
        row = self.current()
        title = self.query_one("#view-title", Static)
        view = self.query_one("#code-view", Static)
        evidence = self.query_one("#evidence", Static)
        if row is None:
            title.update("")
            view.update("")
            evidence.update(Content.from_markup(f"[dim]{escape(self.reason())}[/dim]"))
            return
        edited = " [dim](edited)[/dim]" if row.rank in self.edited else ""
        heading, self.view_text, content = self.view_of(row, edited)
        title.update(Content.from_markup(heading))
        view.update(content)
        evidence.update(Content.from_markup(self.evidence(row)))

    # -- actions -------------------------------------------------------------------------

    def action_apply(self) -> None:
        row = self.current()
        if row is None:
            return
        if row.rank in self.rejected:
            self.vibe.tell(f"This {self.NOUN} was rejected; pick another one.", "warning")
            return
        warning = self.apply_warning(row)
        if warning is not None and self.confirm_apply != row.rank:
            self.confirm_apply = row.rank
            self.vibe.tell(f"{warning} Press a again to apply it anyway.", "warning")
            return
        self.confirm_apply = None
        try:
            report = self.apply_row(row)
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Not applied")
            return
        self.vibe.tell(f"Applied candidate {row.candidate.index} to {', '.join(report.files)}; u undoes it.")
        self.files_changed()

    def action_undo(self) -> None:
        try:
            report = undo(self.vibe.root)
        except WorktreeConflict as exc:
            # the CLI's hint names `vibecode undo --force`, which the TUI has no key for
            self.vibe.tell_error(WorktreeConflict(exc.message, UNDO_CONFLICT_HINT), "Nothing undone")
            return
        except VibecodeError as exc:
            self.vibe.tell_error(exc, "Nothing undone")
            return
        self.vibe.tell(f"Restored {', '.join(report.files)}.")
        self.files_changed()

    def action_copy(self) -> None:
        row = self.current()
        if row is not None:
            self.app.copy_to_clipboard(self.clipboard_text(row))
            self.vibe.tell(f"Copied {self.subject(row)} to the clipboard.")

    def action_save(self) -> None:
        row = self.current()
        if row is None:
            return

        def save(name: str | None) -> None:
            if name is None:
                return
            try:
                path = save_text(self.vibe.root, name, self.saved_text(row), exact=self.SAVE_EXACT)
            except VibecodeError as exc:
                self.vibe.tell_error(exc, "Not saved")
                return
            self.vibe.tell(f"Saved {self.subject(row)} to {path}.")

        self.app.push_screen(SaveScreen(self.save_name(row)), save)

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
            self.vibe.tell(f"Every {self.NOUN} is rejected: r samples more candidates.", "warning")

    def action_toggle_view(self) -> None:
        self.view = self.ALT_VIEW if self.view == "diff" else "diff"
        self.show_selected()

    def action_back(self) -> None:
        self.dismiss()


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
