"""The project's standard, "ruff and mypy clean", checked with the rest of the suite.

ruff covers the package, the tests and the scripts; a bare ``mypy`` covers the package and
``scripts/*.py`` (``files`` in pyproject.toml's ``[tool.mypy]``). Both come with the dev extra
(scripts/setup installs it): a missing tool fails the test, it is never skipped.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.conftest import REPO


def run_tool(tool: str, *args: str) -> None:
    """``python -m <tool> <args>`` from the repository root; fails with the tool's output."""
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed for {sys.executable}: install the dev extra "
                    "(pip install -e '.[dev]', as scripts/setup does)", pytrace=False)
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=REPO, capture_output=True,
                          text=True, check=False)
    command = " ".join([tool, *args])
    assert done.returncode == 0, (
        f"`{command}` exited {done.returncode}:\n{done.stdout}{done.stderr}")


def test_ruff_clean() -> None:
    run_tool("ruff", "check", "vibecode", "tests", "scripts")


def test_mypy_clean() -> None:
    run_tool("mypy")
