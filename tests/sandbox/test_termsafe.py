"""No candidate's or model's terminal escape reaches the terminal raw (OSC 52, title, clear, cursor)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from vibecode.termsafe import is_safe, visible

REPO = Path(__file__).resolve().parents[2]
HOSTILE = (
    "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # OSC 52: write the clipboard
    "\x1b]0;owned title\x07"  # window title
    "\x1b[2J\x1b[H"  # clear the screen, cursor home
    "\x1b[3A\x1b[2K"  # cursor up three lines, erase the line
    "\x9b31m"  # an 8-bit CSI
    "safe\rhidden\u202eevil"  # a carriage return and a bidi override
)


def test_visible_shows_every_control_and_keeps_newlines_and_tabs() -> None:
    shown = visible(HOSTILE + "\nline\ttab\r\n")
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert "\r" not in shown and "\u202e" not in shown
    assert "\\x1b]52;c;" in shown and "\\u202e" in shown
    assert shown.endswith("\nline\ttab\n")
    assert is_safe(shown) and not is_safe(HOSTILE)


def test_sandbox_run_shows_a_candidates_escapes_on_a_pty(tmp_path: Path) -> None:
    code = f"import sys; sys.stdout.write({HOSTILE!r}); sys.stderr.write({HOSTILE!r})"
    primary, secondary = pty.openpty()
    env = {**os.environ, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "vibecode", "sandbox", "run", "--workdir", str(tmp_path),
         "--", "python3", "-c", code],
        stdin=subprocess.DEVNULL, stdout=secondary, stderr=secondary, env=env,
    )
    os.close(secondary)
    data = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 120)
        if not ready:
            proc.kill()
            break
        try:
            chunk = os.read(primary, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.close(primary)
    assert proc.wait(timeout=60) == 0, data
    text = data.decode("utf-8", "replace")
    assert text.count("\\x1b]52;c;") == 2  # stdout and stderr, both shown as text
    for raw in ("\x1b]", "\x1b[2J", "\x1b[3A", "\x07", "\u202e", "\x9b"):
        assert raw not in text, (raw, text)
    assert "\r" not in text.replace("\r\n", "\n")  # the pty turns \n into \r\n; nothing else
