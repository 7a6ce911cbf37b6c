"""A test.py / tests.py that pytest's default patterns skip (python-slugify keeps its tests in
one test.py at the root): found when the project sets no python_files, never inside a venv."""

from __future__ import annotations

from pathlib import Path

from vibecode.fix.discover import unlisted_test_files


def test_unittest_style_files_are_found_but_not_inside_environments(tmp_path: Path) -> None:
    for rel in ("test.py", "app/tests.py", "app/views.py", "test_other.py", ".venv/lib/site/test.py",
                "env/pyvenv.cfg", "env/lib/tests.py", ".git/tests.py", "node_modules/x/test.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert unlisted_test_files(tmp_path) == ("app/tests.py", "test.py")


def test_a_python_files_setting_is_the_projects_choice(tmp_path: Path) -> None:
    (tmp_path / "test.py").write_text("")
    (tmp_path / "pytest.ini").write_text("[pytest]\npython_files = check_*.py\n")
    assert unlisted_test_files(tmp_path) == ()
