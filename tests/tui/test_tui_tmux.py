"""End to end in a real terminal: `python -m vibecode` inside tmux (a private server, fixed size),
driven with send-keys and read with capture-pane. Needs tmux (`apt-get install tmux`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.helpers import REPO

WIDTH, HEIGHT = 120, 40


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *args], capture_output=True,
                                text=True, timeout=30)
        assert result.returncode == 0, f"tmux {' '.join(args)}: {result.stderr}"
        return result.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "vibe")

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", "vibe", *keys)

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} did not appear within {timeout:.0f} s; the screen was:\n{screen}")


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed; the end-to-end TUI test needs it: run scripts/system-deps.")
    server = Tmux(f"vibecode-test-{uuid.uuid4().hex[:8]}")
    try:
        yield server
    finally:
        subprocess.run(["tmux", "-L", server.socket, "kill-server"], capture_output=True, timeout=30)


def test_solve_in_a_real_terminal(tmux: Tmux, project: Path, pool: Path, private_env: Path, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf "\\n# reviewed in the editor\\n" >> "$1"\n')
    editor.chmod(0o755)
    rc = tmp_path / "rc"
    env = {
        "VIBECODE_ENGINE": f"replay:{pool}", "VIBECODE_N": "9", "VIBECODE_DATA_DIR": str(private_env),
        "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(REPO), "EDITOR": str(editor), "TERM": "xterm-256color",
    }
    exports = " ".join(f"{k}='{v}'" for k, v in env.items())
    # COLUMNS/LINES may be set in this process (pytest plugins do); the app must measure the pane.
    command = (f"cd '{project}' && env -u COLUMNS -u LINES {exports} '{sys.executable}' -m vibecode; "
               f"echo $? > '{rc}'; sleep 30")
    tmux("new-session", "-d", "-s", "vibe", "-x", str(WIDTH), "-y", str(HEIGHT), command)

    tmux.wait_for("Choose a task", 30)
    tmux.keys("o")
    tmux.wait_for("Open a problem file (.md, .txt, .py)")
    tmux.keys("coin_change.md", "Enter")
    screen = tmux.wait_for("reliability", 90)
    # The example pool holds a wrong candidate that passes the examples too: contested.
    assert "PLAUSIBLE" in screen and "Contested" in screen
    assert "+class Solution:" in screen  # the diff of the solution file it would write

    tmux.keys("e")  # $EDITOR runs in the terminal (the app suspends), then the edit is the proposal
    tmux.wait_for("Edited: a applies your version.", 30)
    tmux.keys("a")
    tmux.wait_for("Applied candidate", 30)
    written = (project / "solution.py").read_text()
    assert "def coinChange" in written and written.endswith("# reviewed in the editor\n")

    tmux.keys("q")
    deadline = time.monotonic() + 30
    while not rc.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert rc.exists(), f"vibecode did not exit; the screen was:\n{tmux.screen()}"
    assert rc.read_text().strip() == "0"
