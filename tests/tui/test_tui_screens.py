"""Pilot tests of the other screens: math, ask, settings (with a real download from a fake hub),
the command palette and the start screen's entry to the fix flow."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import Input, OptionList, ProgressBar, RadioSet, Static, TextArea

from tests.models.fakehub import FakeHub
from tests.models.gguf_bytes import big_gguf
from tests.tui.helpers import EXAMPLES, wait_for
from vibecode.config import Settings
from vibecode.tui.app import VibecodeApp
from vibecode.tui.fix.run import FixRunScreen
from vibecode.tui.screens.ask import AskScreen
from vibecode.tui.screens.inputs import OpenFileScreen, TextTaskScreen
from vibecode.tui.screens.proposals import ProposalsScreen
from vibecode.tui.screens.settings import SettingsScreen
from vibecode.tui.screens.start import FIX_FLOW_MODULE, fix_flow_available


def replay(tmp_path: Path, lines: list[str], name: str = "lines.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps({"kind": "candidate", "text": t}) + "\n" for t in lines))
    return path


HALF = "<think>\nAnn leaves 2/3. Ben eats 1/4 of 2/3, so 2/3 - 1/6 = 1/2.\n</think>\nThe answer is \\boxed{1/2}."
WRONG = "<think>\n1 - 1/3 - 1/4 = 5/12.\n</think>\n\\boxed{5/12}"


def test_a_math_question_from_a_file(project: Path, tmp_path: Path) -> None:
    pool = replay(tmp_path, [HALF, HALF, WRONG, HALF])
    (project / "pizza.md").write_text((EXAMPLES / "math_fraction.md").read_text())

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}", n=4))
        async with app.run_test(size=(120, 40)) as pilot:
            app.open_problem(project / "pizza.md")  # asks for \boxed{}: a math question
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 30, "the proposals")
            screen = app.screen
            assert isinstance(screen, ProposalsScreen)
            assert screen.result.mode == "math" and screen.rows[0].text == "1/2"
            assert screen.rows[0].members == (0, 1, 3)
            assert screen.view_text == "1/2"
            await pilot.press("a")
            assert app.notices[-1] == ("warning", "A math answer has nothing to apply: c copies it, s saves it.")
            await pilot.press("c")
            assert app.clipboard == "1/2\n"

    asyncio.run(scenario())


def test_a_pasted_math_question(project: Path, tmp_path: Path) -> None:
    pool = replay(tmp_path, [HALF, HALF])

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}", n=2))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("m")
            assert isinstance(app.screen, TextTaskScreen) and app.screen.kind == "math"
            await pilot.press("ctrl+s")  # empty: refused, says why
            assert "Nothing to solve" in str(app.screen.query_one("#task-error", Static).render())
            app.screen.query_one(TextArea).text = (EXAMPLES / "math_fraction.md").read_text()
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ProposalsScreen), 30, "the proposals")
            assert isinstance(app.screen, ProposalsScreen) and app.screen.result.status == "verified"

    asyncio.run(scenario())


def test_ask_streams_the_answer_and_hides_the_think_tags(project: Path, tmp_path: Path) -> None:
    pool = replay(tmp_path, ["<think>\nThe capital of France.\n</think>\nParis is the capital."])

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AskScreen)
            await pilot.press(*"capital of france?", "enter")
            await wait_for(pilot, lambda: screen.job is not None and screen.job.finished.is_set(), 10, "the answer")
            await pilot.pause()
            assert str(screen.query_one("#ask-answer", Static).render()).strip() == "Paris is the capital."
            assert str(screen.query_one("#ask-reasoning", Static).render()).strip() == "The capital of France."
            assert app.tokens_per_s is not None
            await pilot.press(*"and italy?", "enter")  # the replay file has no second answer
            await wait_for(pilot, lambda: any(s == "error" for s, _ in app.notices), 10, "the error")
            assert "0 unused candidate line" in app.notices[-1][1]
            assert [m.role for m in screen.messages] == ["user", "assistant", "user"]
            await pilot.press("escape")
            assert not isinstance(app.screen, AskScreen)

    asyncio.run(scenario())


def test_settings_change_k_budget_and_sandbox(project: Path, pool: Path) -> None:
    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}", n=9))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("s")
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            ids = [screen.query_one("#model-list", OptionList).get_option_at_index(i).id
                   for i in range(screen.query_one("#model-list", OptionList).option_count)]
            assert "tiny" in ids and "vibethinker-3b" in ids
            await pilot.press("enter")  # pick the highlighted model: its engine spec is filled in
            assert screen.query_one("#engine-spec", Input).value == ("tiny" if ids[0] == "tiny" else f"llama:{ids[0]}")
            screen.query_one("#engine-spec", Input).value = f"replay:{pool}"
            screen.query_one("#k", Input).value = "0"
            await pilot.press("ctrl+s")
            assert app.notices[-1][0] == "error" and "K must be between 1 and 256" in app.notices[-1][1]
            assert app.settings.n == 9 and isinstance(app.screen, SettingsScreen)
            screen.query_one("#k", Input).value = "3"
            screen.query_one("#budget", Input).value = "12.5"
            screen.query_one("#solution", Input).value = "answers/best.py"
            screen.query_one("#sandbox", RadioSet).focus()
            await pilot.press("down", "enter")
            assert str(screen.query_one("#sandbox", RadioSet).pressed_button.label) == "docker"  # type: ignore[union-attr]
            await pilot.press("ctrl+s")
            assert not isinstance(app.screen, SettingsScreen)
            s = app.settings
            assert (s.n, s.time_budget_s, s.sandbox, s.engine) == (3, 12.5, "docker", f"replay:{pool}")
            assert app.solution == project / "answers" / "best.py"
            assert "sandbox docker" in str(app.screen.query_one("StatusBar").render())

    asyncio.run(scenario())


def test_pull_a_model_with_a_progress_bar(project: Path, pool: Path, hub: FakeHub) -> None:
    data = big_gguf()
    hub.add("acme/Widget-7B-GGUF", "Widget-7B.Q4_K_M.gguf", data)

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("s")
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            screen.query_one("#pull-ref", Input).value = "hf://acme/Widget-7B-GGUF/Widget-7B.Q4_K_M.gguf"
            screen.query_one("#pull-ref", Input).focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: not screen.pulling, 60, "the download")
            bar = screen.query_one("#pull-progress", ProgressBar)
            assert bar.total == len(data) and bar.progress == len(data)
            assert app.notices[-1] == ("information", "Pulled Widget-7B.Q4_K_M.gguf.")
            screen.query_one("#pull-ref", Input).value = "hf://acme/Widget-7B-GGUF/missing.gguf"
            await pilot.press("enter")
            await wait_for(pilot, lambda: not screen.pulling, 60, "the failed download")
            assert app.notices[-1][0] == "error" and "missing.gguf" in app.notices[-1][1]

    asyncio.run(scenario())


def test_the_command_palette_has_the_main_actions(project: Path, pool: Path) -> None:
    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            titles = [c.title for c in app.get_system_commands(app.screen)]
            for wanted in ("Open a problem file", "Paste a problem", "Math question", "Ask a free question",
                           "Settings", "Help"):
                assert wanted in titles
            await pilot.press("ctrl+p")
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*"open a problem")
            await pilot.pause(0.3)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, OpenFileScreen), 5, "the file picker")
            await pilot.press("escape")
            assert not isinstance(app.screen, OpenFileScreen)

    asyncio.run(scenario())


def test_the_file_picker_refuses_what_is_not_a_problem_file(project: Path, pool: Path) -> None:
    (project / "data.json").write_text("{}")

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("o", *"data.json", "enter")
            screen = app.screen
            assert isinstance(screen, OpenFileScreen)
            assert "not a problem file" in str(screen.query_one("#open-error", Static).render())
            tree_files = {node.data.path.name for node in screen.query_one("#open-tree").root.children
                          if node.data is not None}  # type: ignore[attr-defined]
            assert "coin_change.md" in tree_files and "data.json" not in tree_files

    asyncio.run(scenario())


def test_fix_failing_tests_is_offered_on_the_start_screen(project: Path, pool: Path) -> None:
    """The fix flow is installed: the start screen offers it, and f runs it on the app's folder
    (this one has no tests, so nothing fails)."""
    assert FIX_FLOW_MODULE == "vibecode.fix.pipeline" and fix_flow_available()

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            option = app.screen.query_one("#task-list", OptionList).get_option("fix")
            assert not option.disabled and "Fix failing tests" in str(option.prompt)
            await pilot.press("f")
            screen = app.screen
            assert isinstance(screen, FixRunScreen) and screen.root == project
            await wait_for(pilot, lambda: screen.fix_state.status == "done", 60, "the test run")
            assert screen.fix_state.passing
            assert app.notices[-1][1] == "No tests were collected, so nothing was checked. There is nothing to fix."

    asyncio.run(scenario())


def test_help_lists_every_binding_of_every_screen(project: Path, pool: Path) -> None:
    from vibecode.tui.screens.help import HelpScreen, help_sections

    async def scenario() -> None:
        app = VibecodeApp(project, Settings(engine=f"replay:{pool}"))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            shown = "\n".join(str(s.render()) for s in app.screen.query(".help-section"))
            for title, rows in help_sections(app.screen.everywhere):
                assert title in shown
                for keys, text in rows:
                    assert text in shown and keys.split(" / ")[0] in shown, (title, keys)
            assert "Apply to the solution file (undoable)" in shown and "Ctrl+C" in shown
            await pilot.press("question_mark")
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("question_mark", "escape")
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())
