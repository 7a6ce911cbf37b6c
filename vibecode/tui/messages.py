"""The one Textual message the worker threads post: a :mod:`vibecode.tui.jobs` update."""

from __future__ import annotations

from textual.message import Message

from vibecode.tui.jobs import Run, Update


class JobUpdate(Message, bubble=False):
    """``update`` from the worker of ``run`` (None for jobs that are not runs: a pull)."""

    def __init__(self, run: Run | None, update: Update) -> None:
        super().__init__()
        self.run = run
        self.update = update
