"""Widgets shared by the screens: the status bar, the candidate table, the stage line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import App
from textual.content import Content
from textual.widgets import DataTable, Footer, Static

from vibecode.engine.plan import left_text
from vibecode.tui.review import band
from vibecode.tui.state import CandidateRow, RunState
from vibecode.types import Claim, EngineInfo

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp

BAR_WIDTH = 10
COMPACT_BELOW = 110  # terminal width under which the footer is compact
PALETTE_HINT_FROM = 100  # terminal width from which the footer shows the command palette's key
VERDICT_ICON = {"verified": "✓", "failed": "✗", "unchecked": "·"}
BAND_VAR = {"high": "success", "medium": "warning", "low": "error"}
STATE_VAR = {"thinking": "text-primary", "answering": "text-accent", "done": "text-success",
             "budget-forced": "text-warning", "cut off": "text-warning", "waiting": "",
             "stopped": "text-warning"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st: how ranks are written (``#`` is always a
    candidate's number, from 0 as in the JSON ``index``)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def palette(app: App[Any]) -> dict[str, str]:
    """Theme colours for Rich text (DataTable cells cannot use $variables)."""
    v = app.get_css_variables()
    return {name: v.get(name, "") for name in
            ("text-success", "text-error", "text-warning", "text-primary", "text-accent")}


def human_tokens(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def short_model(info: EngineInfo) -> str:
    if info.engine == "replay":
        return Path(info.model).name
    if info.engine == "llama":
        return Path(info.model).stem if info.model.endswith(".gguf") else info.model
    return info.model


def status_markup(app: VibecodeApp) -> str:
    """One line: engine and model, backend and GPU layers, tokens/s, context, sandbox."""
    info = app.engine_info
    parts = []
    if info is None:
        spec = app.settings.engine or (f"llama:{app.settings.model}" if app.settings.model else "default model")
        parts.append(f"[b]engine[/b] {escape(spec)} [dim](opens on first use)[/dim]")
    else:
        parts.append(f"[b]{escape(info.engine)}[/b] {escape(short_model(info))}")
        backend = info.backend
        if info.gpu_layers:
            backend += f" · {info.gpu_layers} GPU layers"
        parts.append(escape(backend))
    rate = app.tokens_per_s
    parts.append(f"{rate:.1f} tok/s" if rate is not None else "– tok/s")
    n_ctx = info.n_ctx if info is not None else 0
    ctx = human_tokens(app.context_used)
    parts.append(f"ctx {ctx}/{human_tokens(n_ctx)}" if n_ctx else f"ctx {ctx}")
    parts.append(f"sandbox {escape(app.settings.sandbox)}")
    return "  │  ".join(parts)


def escape(text: str) -> str:
    from textual.markup import escape as _escape

    from vibecode.termsafe import visible

    return _escape(visible(text))


class StatusBar(Static):
    """Engine, model, backend, live tokens/s, context used, sandbox: follows the app's figures."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def on_mount(self) -> None:
        for name in ("engine_info", "tokens_per_s", "context_used", "settings"):
            self.watch(self.app, name, self._changed, init=False)
        self._changed()

    def _changed(self, *_: object) -> None:
        self.update(status_markup(cast("VibecodeApp", self.app)))


class KeyFooter(Footer):
    """The footer, compact on narrow terminals so that the screen's keys fit."""

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < COMPACT_BELOW
        # under 100 columns the "^p palette" hint would push the screen's own keys off the edge
        # (Ctrl+P still opens the palette, and the help screen says so)
        self.show_command_palette = event.size.width >= PALETTE_HINT_FROM


class StageLine(Static):
    """sample ● extract ○ ... with the elapsed time."""

    DEFAULT_CSS = """
    StageLine { height: 1; padding: 0 1; }
    """

    def show(self, state: RunState) -> None:
        status = {
            "starting": "[dim]starting…[/dim]",
            "running": f"{state.sampled}/{state.k} sampled" + eta_part(state),
            "done": "[$text-success]done[/]",
            "cancelled": "[$text-warning]cancelled[/]",
            "failed": "[$text-error]failed[/]",
        }[state.status]
        tail = f"  {status}  {state.elapsed():.1f} s"
        line = Content.from_markup(stage_words(state, named=True) + tail)
        room = self.size.width - 2  # the padding
        if 0 < room < line.cell_length:  # narrow (the time left makes it longer): pending stages as dots
            line = Content.from_markup(stage_words(state, named=False) + tail)
        self.update(line)


def stage_words(state: RunState, named: bool) -> str:
    """✓ done ▸ active · pending, each with its name (or, unless ``named``, pending ones as dots)."""
    words = []
    for stage, mark in state.stage_marks():
        if mark == "done":
            words.append(f"[$text-success]✓ {stage}[/]")
        elif mark == "active":
            words.append(f"[b $text-primary]▸ {stage}[/]")
        else:
            words.append(f"[dim]· {stage}[/dim]" if named else "[dim]·[/dim]")
    return " ".join(words)


def eta_part(state: RunState) -> str:
    """" · up to 6 min of sampling left" (or "about 2 min (up to 6 min) ...", from the model's
    recorded completion lengths) while sampling, once the run's tokens/s is measurable; else ""."""
    left = state.sampling_left_s()
    return "" if left is None else f" · [b]{left_text(left, state.likely_left_s())}[/b]"


def example_marks(row: CandidateRow, colors: dict[str, str]) -> Text:
    if row.examples is None:
        return Text("")
    text = Text()
    for e in row.examples:
        text.append("✓" if e.passed else "✗", style=colors["text-success"] if e.passed else colors["text-error"])
    return text


def claim_marks(claims: tuple[Claim, ...] | None, colors: dict[str, str], limit: int = 6) -> Text:
    if claims is None:
        return Text("")
    if not claims:
        return Text("none", style="dim")
    text = Text()
    style = {"verified": colors["text-success"], "failed": colors["text-error"], "unchecked": "dim"}
    for c in claims[:limit]:
        text.append(VERDICT_ICON[c.verdict], style=style[c.verdict])
    if len(claims) > limit:
        text.append(f"+{len(claims) - limit}", style="dim")
    return text


def progress_bar(tokens: int, max_tokens: int, width: int = BAR_WIDTH) -> str:
    if max_tokens <= 0:
        return ""
    filled = min(width, round(width * tokens / max_tokens))
    return "█" * filled + "░" * (width - filled)


COLUMNS = ("#", "state", "tokens", "progress", "parsed", "examples", "cluster", "claims", "r")
# The sampling columns change on every batch of tokens; fixed widths keep the table from
# shifting as a state or a token count grows (an auto width only ever grows, so it would
# depend on which states the view happened to catch).
FIXED_WIDTHS = {"state": max(map(len, STATE_VAR)), "tokens": len("tokens"), "progress": BAR_WIDTH}


class CandidateTable(DataTable[Any]):
    """One row per candidate: live tokens, a progress bar and a state while sampling, then what
    verification found (parsed, duplicate of, examples, cluster, claims, r_k)."""

    columns_shown: ClassVar[tuple[str, ...]] = COLUMNS

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, cell_padding=1, **kwargs)
        self.max_tokens = 0

    def on_mount(self) -> None:
        for name in self.columns_shown:
            self.add_column(name, key=name, width=FIXED_WIDTHS.get(name))

    def show(self, state: RunState) -> None:
        colors = palette(self.app)
        self.max_tokens = state.max_tokens
        for index in sorted(state.candidates):
            row = state.candidates[index]
            cells = self.row_cells(row, colors)
            key = str(index)
            if key not in self.rows:
                self.add_row(*cells, key=key)
                continue
            for name, value in zip(self.columns_shown, cells, strict=True):
                if self.get_cell(key, name) != value:
                    self.update_cell(key, name, value, update_width=True)

    def sampling_cells(self, row: CandidateRow, colors: dict[str, str]) -> tuple[Text, Text, Text, Text]:
        """#, state, tokens and the progress bar: what every run view shows while sampling."""
        state = row.state
        state_style = colors.get(STATE_VAR.get(state, ""), "") or ("dim" if state == "waiting" else "")
        return (
            Text(str(row.index), style="bold"),
            Text(state, style=state_style),
            Text(str(row.tokens), justify="right"),
            Text(progress_bar(self.max_tokens if row.finished else row.tokens, self.max_tokens), style=state_style or "dim"),
        )

    def row_cells(self, row: CandidateRow, colors: dict[str, str]) -> tuple[object, ...]:
        """The cells of one row, in the order of :attr:`columns_shown`."""
        return (
            *self.sampling_cells(row, colors),
            parsed_cell(row, colors),
            example_marks(row, colors),
            Text("" if row.cluster is None else ordinal(row.cluster + 1)),
            claim_marks(row.claims, colors),
            r_cell(row, colors),
        )


def parsed_cell(row: CandidateRow, colors: dict[str, str]) -> Text:
    """✓, "= #n" for a duplicate, or ✗ and why it was dropped (empty until extraction ran)."""
    if row.parsed is None:
        return Text("")
    if not row.parsed:
        return Text("✗ " + short(row.error or "dropped", 10), style=colors["text-error"])
    if row.duplicate_of is not None:
        return Text(f"= #{row.duplicate_of}", style="dim")
    return Text("✓", style=colors["text-success"])


def r_cell(row: CandidateRow, colors: dict[str, str]) -> Text:
    return Text("") if row.r is None else Text(f"{row.r:.2f}", style=band_color(row.r, colors))


def short(text: str, width: int) -> str:
    text = text.splitlines()[0] if text else ""
    return text if len(text) <= width else text[: width - 1] + "…"


def band_color(value: float, colors: dict[str, str]) -> str:
    return colors["text-" + BAND_VAR[band(value)]]


def candidate_details(row: CandidateRow) -> Content:
    """The focused candidate's verification: examples with expected/actual, claims with method."""
    lines: list[Content] = []
    if row.error:
        lines.append(Content.from_markup("[$text-error]dropped:[/] $error", error=row.error))
    if row.duplicate_of is not None:
        lines.append(Content.from_markup("[dim]same code as candidate $n (after normalizing)[/dim]",
                                         n=str(row.duplicate_of)))
    for e in row.examples or ():
        mark = "[$text-success]✓[/]" if e.passed else "[$text-error]✗[/]"
        got = repr(e.actual) if e.status == "ok" else (e.error.strip().splitlines() or [e.status])[-1]
        lines.append(Content.from_markup(f"{mark} example {e.index + 1}: expected $exp, got $got",
                                         exp=short(repr(e.expected), 30), got=short(got, 40)))
    if row.examples is not None:
        lines.append(Content.from_markup("[dim]$n shared inputs run, $f crashed or timed out[/dim]",
                                         n=str(row.inputs_run), f=str(row.failures)))
    for c in row.claims or ():
        color = {"verified": "$text-success", "failed": "$text-error"}.get(c.verdict, "dim")
        lines.append(Content.from_markup(
            f"[{color}]{VERDICT_ICON[c.verdict]}[/] [dim]$method:[/dim] $text",
            method=c.method if c.verdict != "unchecked" else "unchecked", text=short(c.text, 80)))
    if row.r is not None:
        lines.append(Content.from_markup("r_k = $r", r=f"{row.r:.3f}"))
    if not lines:
        return Content.from_markup("[dim]nothing checked yet[/dim]")
    return Content("\n").join(lines)
