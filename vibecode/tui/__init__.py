"""The Textual terminal UI (the only package that imports textual).

``run_tui`` opens the app; :mod:`vibecode.tui.app` has :class:`VibecodeApp`. The logic that needs
no terminal lives in plain modules beside it: :mod:`~vibecode.tui.state` (run view data),
:mod:`~vibecode.tui.review` (proposals, apply, save), :mod:`~vibecode.tui.history` (recent runs)
and :mod:`~vibecode.tui.jobs` (what the worker threads do); for fixing failing tests,
:mod:`~vibecode.tui.fix.state`, :mod:`~vibecode.tui.fix.review` and :mod:`~vibecode.tui.fix.jobs`
(:mod:`~vibecode.tui.fix.widgets` and ``screens/fix*.py`` show them).
"""

from __future__ import annotations

from pathlib import Path

from vibecode.config import Settings


def run_tui(root: Path, settings: Settings, *, solution: Path | None = None, problem: Path | None = None) -> int:
    """Run the app in this terminal until the user quits; the exit status."""
    from vibecode.tui.app import VibecodeApp

    app = VibecodeApp(root, settings, solution=solution, problem=problem)
    app.run()
    return int(app.return_code or 0)
