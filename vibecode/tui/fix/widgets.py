"""Widgets and text of the fix run view: the baseline (the failing tests), the candidate table
with each patch's verification, and the focused candidate's details."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.content import Content

from vibecode.tui.fix.state import NOTHING_TO_FIX, FixState, PatchCheck
from vibecode.tui.state import CandidateRow, RunState
from vibecode.tui.widgets import (
    VERDICT_ICON,
    CandidateTable,
    claim_marks,
    ordinal,
    parsed_cell,
    r_cell,
    short,
)

FAILING_SHOWN = 6  # failing tests listed in the baseline box (the rest are counted)
WHERE = {"worktree": "the working tree", "index": "the staged changes", "folder": "the folder"}
SCOPE_WORDS = {
    "all": "all of them checked",
    "affected": "only the tests that import the touched modules checked",
    "none": "no other test could be checked",
}


def baseline_markup(state: FixState) -> str:
    """The tests before any patch: how many pass and fail, then each failing test with the
    telling lines of its message. "Nothing fails" says so plainly."""
    result = state.fix_result
    base = state.baseline
    env = f"\n[dim]environment: {_esc(state.environment)}[/dim]" if state.environment else ""
    if result is not None and result.status in NOTHING_TO_FIX:
        return (f"[b $text-success]✓ {_esc(result.reason)}[/] There is nothing to fix.\n"
                f"[dim]Esc goes back; f on the start screen runs the tests again.[/dim]{env}")
    if base is None:
        if not state.running:
            return "[dim]The tests did not run.[/dim]"
        return "[dim]Running the tests on a copy of the working tree…[/dim]"
    where = WHERE.get(base.label, base.label)
    lines = [f"[b $text-error]{len(state.failing)} failing[/], [$text-success]{base.passed} passed[/] "
             f"on {where} [dim]({base.duration_s:.1f} s)[/dim]"]
    if state.environment:
        lines.append(f"[dim]environment: {_esc(state.environment)}[/dim]")
    if base.collection_error:
        lines.append(f"[$text-error]collection error:[/] {_esc(short(base.collection_error, 200))}")
    for test in state.failing[:FAILING_SHOWN]:
        lines.append(f"[$text-error]✗[/] [b]{_esc(test.nodeid)}[/b]")
        lines += [f"    [dim]{_esc(short(line, 150))}[/dim]" for line in test.summary()]
    if len(state.failing) > FAILING_SHOWN:
        lines.append(f"[dim]and {len(state.failing) - FAILING_SHOWN} more[/dim]")
    return "\n".join(lines)


def _esc(text: str) -> str:
    from textual.markup import escape

    return escape(text)


def fixed_cell(check: PatchCheck | None, colors: dict[str, str]) -> Text:
    if check is None or not (check.verified or check.error):
        return Text("")
    style = colors["text-success"] if check.fixes_all else colors["text-error"] if check.fixed == 0 else colors["text-warning"]
    return Text(f"{check.fixed}/{check.failing_total}", style=style)


def regressions_cell(check: PatchCheck | None, colors: dict[str, str]) -> Text:
    if check is None or not check.verified or not check.fixes_all:
        return Text("" if check is None or not check.verified else "–", style="dim")
    n = len(check.regressions)
    return Text(str(n), style=colors["text-error"] if n else colors["text-success"])


def flags_cell(check: PatchCheck | None, colors: dict[str, str]) -> Text:
    text = Text()
    if check is None:
        return text
    if check.test_edit:
        text.append("edits tests", style=colors["text-warning"])
    if check.error:
        text.append((" · " if text else "") + "error", style=colors["text-error"])
    return text


class FixCandidateTable(CandidateTable):
    """The run view's candidate rows (tokens, progress and state while sampling), then each
    patch's verification: tests fixed x/y, regressions, test edits, cluster, claims and r_k."""

    columns_shown: ClassVar[tuple[str, ...]] = (
        "#", "state", "tokens", "progress", "patch", "fixed", "regr", "flags", "cluster", "claims", "r")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.checks: dict[int, PatchCheck] = {}

    def show(self, state: RunState) -> None:
        if isinstance(state, FixState):
            self.checks = state.checks
        super().show(state)

    def row_cells(self, row: CandidateRow, colors: dict[str, str]) -> tuple[object, ...]:
        check = self.checks.get(row.index)
        patch = parsed_cell(row, colors)
        if check is not None and check.retried and row.parsed:
            patch.append(" retry", style="dim")
        return (
            *self.sampling_cells(row, colors),
            patch,
            fixed_cell(check, colors),
            regressions_cell(check, colors),
            flags_cell(check, colors),
            Text("" if row.cluster is None else ordinal(row.cluster + 1)),
            claim_marks(row.claims, colors),
            r_cell(row, colors),
        )


def fix_details(row: CandidateRow, check: PatchCheck | None) -> Content:
    """The focused candidate: its patch, what the tests said, its claims and r_k."""
    lines: list[Content] = []
    if row.parsed is False:
        lines.append(Content.from_markup("[$text-error]dropped:[/] $error", error=short(row.error or "no patch", 300)))
    if row.duplicate_of is not None:
        lines.append(Content.from_markup("[dim]the same patch as candidate $n (after normalizing)[/dim]",
                                         n=str(row.duplicate_of)))
    if check is not None:
        lines += _check_lines(check)
    for c in row.claims or ():
        color = {"verified": "$text-success", "failed": "$text-error"}.get(c.verdict, "dim")
        lines.append(Content.from_markup(
            f"[{color}]{VERDICT_ICON[c.verdict]}[/] [dim]$method:[/dim] $text",
            method=c.method if c.verdict != "unchecked" else "unchecked", text=short(c.text, 80)))
    if row.cluster is not None:
        lines.append(Content.from_markup("cluster #$c [dim](0 = the best behaviour)[/dim]", c=str(row.cluster)))
    if row.r is not None:
        lines.append(Content.from_markup("r_k = $r", r=f"{row.r:.3f}"))
    if not lines:
        return Content.from_markup("[dim]nothing checked yet[/dim]")
    return Content("\n").join(lines)


def _check_lines(check: PatchCheck) -> list[Content]:
    lines: list[Content] = []
    if check.retried:
        lines.append(Content.from_markup("[dim]its first edit did not apply; the retry prompt's answer did[/dim]"))
    if check.files:
        lines.append(Content.from_markup("edits $files", files=", ".join(check.files)))
    if check.test_edit:
        lines.append(Content.from_markup("[$text-warning]edits test files:[/] ranked last, never proposed"))
    if check.verified or check.error:
        mark = "[$text-success]✓[/]" if check.fixes_all else "[$text-error]✗[/]"
        lines.append(Content.from_markup(f"{mark} fixes $x/$y failing tests", x=str(check.fixed), y=str(check.failing_total)))
    if check.verified and check.fixes_all:
        scope = SCOPE_WORDS.get(check.scope, check.scope)
        if check.regressions:
            lines.append(Content.from_markup("[$text-error]✗ breaks $n of $run tests that passed before[/] [dim]($scope)[/dim]",
                                             n=str(len(check.regressions)), run=str(check.regression_run), scope=scope))
            lines += [Content.from_markup("    [dim]$t[/dim]", t=t) for t in check.regressions[:4]]
        else:
            lines.append(Content.from_markup("[$text-success]✓[/] breaks none of $run tests that passed before [dim]($scope)[/dim]",
                                             run=str(check.regression_run), scope=scope))
    if check.error:
        lines.append(Content.from_markup("[$text-error]sandbox:[/] $e", e=short(check.error, 200)))
    return lines
