"""The TUI's fix flow says which environment ran the tests (issue 15, item 13: "say which one")."""

from __future__ import annotations

from vibecode.events import BaselineTested, StageStarted
from vibecode.tui.fix.state import FixState
from vibecode.tui.fix.widgets import baseline_markup


def test_the_fix_view_names_the_environment_the_tests_ran_with() -> None:
    state = FixState(4)
    state.apply(StageStarted("environment", "the project's .venv environment: /p/.venv/bin/python (pytest 9.2.0)"))
    assert state.environment is not None and "/p/.venv/bin/python" in state.environment
    state.apply(BaselineTested("worktree", 3, ("tests/test_a.py::test_x",), 1.5, True, None, "all", ("E   assert 1 == 2",)))
    text = baseline_markup(state)
    assert "1 failing" in text and "environment: the project's .venv environment: /p/.venv/bin/python" in text
    assert "environment" not in baseline_markup(FixState(4))
