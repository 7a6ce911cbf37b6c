"""A free question: the answer streams in, the reasoning in a dimmed, collapsible panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Collapsible, Input, Static

from vibecode.engine.meter import MIN_SPAN_S, Throughput
from vibecode.tui import jobs
from vibecode.tui.messages import JobUpdate
from vibecode.tui.state import CandidateRow
from vibecode.tui.widgets import KeyFooter, StatusBar
from vibecode.types import ChatMessage, SequenceDone, TokenDelta

if TYPE_CHECKING:
    from vibecode.tui.app import VibecodeApp


class AskScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+t", "toggle_reasoning", "Reasoning", tooltip="Show or hide the reasoning"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[ChatMessage] = []
        self.job: jobs.Run | None = None
        self.reply = CandidateRow(0)  # the answer being streamed (think tags split off)
        self.tokens = 0
        self.prompt_tokens = 0
        self.meter = Throughput()

    @property
    def vibe(self) -> VibecodeApp:
        return cast("VibecodeApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static("[b]Ask a free question[/b]  [dim]Enter sends · Ctrl+C stops the answer · Esc goes back[/dim]",
                     classes="title")
        with VerticalScroll(id="conversation"):
            yield Static("", id="history")
            with Collapsible(title="Reasoning", collapsed=True, id="ask-reasoning-box"):
                yield Static("", id="ask-reasoning")
            yield Static("", id="ask-answer")
        yield Input(placeholder="Your question", id="question")
        yield StatusBar()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#question", Input).focus()

    def on_unmount(self) -> None:
        if self.job is not None and not self.job.finished.is_set():
            self.job.cancel()

    @property
    def busy(self) -> bool:
        return self.job is not None and not self.job.finished.is_set()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        if self.busy:
            self.vibe.tell("The model is still answering; Ctrl+C stops it.", "warning")
            return
        event.input.value = ""
        self._archive()
        self.messages.append(ChatMessage("user", question))
        self.reply, self.tokens, self.meter = CandidateRow(0), 0, Throughput()
        self.query_one("#ask-answer", Static).update(Content.from_markup("[dim]…[/dim]"))
        self._show_history()
        self.job = self.vibe.launch_ask(self, list(self.messages))

    def _archive(self) -> None:
        """The last answer joins the history once a new question is asked."""
        answer = self.reply.answer_text()
        if answer and self.messages and self.messages[-1].role == "user":
            self.messages.append(ChatMessage("assistant", answer))
        self.query_one("#ask-answer", Static).update("")
        self.query_one("#ask-reasoning", Static).update("")

    def _show_history(self) -> None:
        parts: list[Content] = []
        for m in self.messages:
            who = "[b $text-primary]you[/]" if m.role == "user" else "[b $text-accent]model[/]"
            parts.append(Content.from_markup(f"{who} $text\n", text=m.content))
        self.query_one("#history", Static).update(Content("\n").join(parts))

    def on_job_update(self, message: JobUpdate) -> None:
        if message.run is not self.job:
            return
        update = message.update
        if isinstance(update, jobs.AskEvents):
            for event in update.events:
                if isinstance(event, TokenDelta):
                    self.tokens = event.tokens
                    self.meter.observe(event.tokens)
                    if event.text:
                        self.reply.feed(event.text, event.phase)
                elif isinstance(event, SequenceDone):
                    self.tokens = event.completion.completion_tokens
                    self.prompt_tokens = event.completion.prompt_tokens
                    self.reply.close()
            self._show_answer()
        elif isinstance(update, jobs.AskEnded):
            if update.completion is not None and not self.reply.answer and not self.reply.reasoning:
                self.reply.reasoning, self.reply.answer = [update.completion.reasoning], [update.completion.answer]
            self._show_answer(final=True)
            if update.cancelled:
                self.vibe.tell("Answer stopped.", "warning")
            elif update.error is not None:
                self.vibe.tell_error(update.error, "The question failed")
            elif update.crash is not None:
                self.vibe.tell(f"Internal error: {update.crash}", "error")

    def _show_answer(self, final: bool = False) -> None:
        reasoning = self.reply.reasoning_text()
        self.query_one("#ask-reasoning", Static).update(Content.styled(reasoning, "dim italic"))
        box = self.query_one("#ask-reasoning-box", Collapsible)
        box.title = f"Reasoning ({len(reasoning.split())} words)" if reasoning else "Reasoning"
        self.query_one("#ask-answer", Static).update(Content(self.reply.answer_text()))
        if self.meter.started:
            if final:  # the answer is complete: its whole span is the measure, however short
                self.meter.observe(self.tokens)
            self.vibe.tokens_per_s = self.meter.rate(min_span=0.0 if final else MIN_SPAN_S)
        self.vibe.context_used = self.prompt_tokens + self.tokens
        self.query_one("#conversation", VerticalScroll).scroll_end(animate=False, immediate=False)

    def action_back(self) -> None:
        self.dismiss()

    def action_toggle_reasoning(self) -> None:
        box = self.query_one("#ask-reasoning-box", Collapsible)
        box.collapsed = not box.collapsed
