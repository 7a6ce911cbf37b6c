"""``vibecode ask "..."``: stream an answer from the selected model."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from vibecode.cli.common import add_engine_args, open_engine, print_json, settings_from_args
from vibecode.engine.text import ThinkSplitter
from vibecode.errors import UsageError
from vibecode.termsafe import visible
from vibecode.types import ChatMessage, Completion, Phase, StreamEvent, TokenDelta

ORDER = 10
DIM, RESET = "\x1b[2m", "\x1b[0m"


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "ask",
        help="ask the model a free question (streams the answer)",
        description="Stream an answer from the selected model. Reasoning is hidden unless "
        "--show-thinking is given; the last line gives tokens/s.",
    )
    parser.add_argument("prompt", nargs="?", help="the question; '-' or nothing reads stdin")
    parser.add_argument(
        "--n", type=int, default=1, metavar="K", help="completions to sample (batched)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of streaming"
    )
    parser.add_argument(
        "--show-thinking", action="store_true", help="show the model's reasoning, dimmed"
    )
    parser.add_argument("--max-tokens", type=int, metavar="N", help="tokens per completion")
    parser.add_argument(
        "--ignore-eos",
        action="store_true",
        help="generate exactly --max-tokens tokens (benchmarks)",
    )
    parser.add_argument("--temperature", type=float, help="sampling temperature (0 = greedy)")
    parser.add_argument("--system", help="a system message to send first")
    add_engine_args(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vibecode.engine.meter import StreamMeter
    from vibecode.engine.params import sampling_params

    prompt = args.prompt
    if prompt is None or prompt == "-":
        prompt = sys.stdin.read()
    if not prompt.strip():
        raise UsageError(
            "Nothing to ask: the prompt is empty.", 'Usage: vibecode ask "your question"'
        )
    if args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}.")
    settings = settings_from_args(args, max_tokens=args.max_tokens, temperature=args.temperature)
    opened = open_engine(settings)
    params = sampling_params(settings, opened.manifest, ignore_eos=args.ignore_eos or None)
    messages = [ChatMessage("user", prompt)]
    if args.system:
        messages.insert(0, ChatMessage("system", args.system))
    meter = StreamMeter()
    if args.json:
        completions = opened.engine.sample(messages, params, args.n, on_event=meter)
        stats = getattr(opened.engine, "stats", None)
        print_json(
            {
                "completions": [_completion_json(c) for c in completions],
                "tokens_per_s": round(meter.tokens_per_s, 2),
                "ttft_s": round(meter.ttft_s or 0.0, 4),
                "prompt_tokens_evaluated": getattr(stats, "prompt_tokens_evaluated", None)
                if stats is not None
                else (completions[0].prompt_tokens if completions else 0),
                "generation_s": round(meter.elapsed_s, 3),
                "engine": opened.engine.info().engine,
                "model": opened.engine.info().model,
            }
        )
        return 0
    render = _Renderer(sys.stdout, args.show_thinking, args.n)

    def on_event(event: StreamEvent) -> None:
        meter(event)
        render(event)

    completions = opened.engine.sample(messages, params, args.n, on_event=on_event)
    render.finish(completions)
    print(
        f"[{meter.total_tokens} tokens, {meter.tokens_per_s:.1f} tokens/s, "
        f"first token after {meter.ttft_s or 0:.2f} s]",
        file=sys.stderr,
    )
    return 0


def _completion_json(c: Completion) -> dict[str, Any]:
    return {
        "text": c.text,
        "reasoning": c.reasoning,
        "answer": c.answer,
        "tokens": c.completion_tokens,
        "finish_reason": c.finish_reason,
        "budget_forced": c.budget_forced,
        "seed": c.seed,
    }


class _Renderer:
    """Streams one completion as it grows; with several, prints them when they are done.

    Reasoning is hidden unless asked for, and dimmed on a terminal; think tags are not shown.
    """

    def __init__(self, out: TextIO, show_thinking: bool, n: int) -> None:
        self.out = out
        self.show_thinking = show_thinking
        self.n = n
        self.tty = out.isatty()
        self.splitter = ThinkSplitter()
        self.dim = False

    def __call__(self, event: StreamEvent) -> None:
        if self.n == 1 and isinstance(event, TokenDelta) and event.text:
            self._write(self.splitter.feed(event.text))

    def _write(self, pieces: list[tuple[Phase, str]]) -> None:
        for phase, text in pieces:
            thinking = phase == "thinking"
            if thinking and not self.show_thinking:
                continue
            if self.tty and thinking != self.dim:
                self.out.write(DIM if thinking else RESET)
                self.dim = thinking
            self.out.write(visible(text))
        self.out.flush()

    def finish(self, completions: list[Completion]) -> None:
        if self.n == 1:
            self._write(self.splitter.flush())
            self.out.write((RESET if self.dim else "") + "\n")
            return
        for c in completions:
            self.out.write(
                f"--- completion {c.seq} ({c.completion_tokens} tokens, {c.finish_reason}) ---\n"
            )
            if self.show_thinking and c.reasoning:
                self.out.write(
                    (DIM if self.tty else "") + visible(c.reasoning) + (RESET if self.tty else "") + "\n\n"
                )
            self.out.write(visible(c.answer) + "\n")
