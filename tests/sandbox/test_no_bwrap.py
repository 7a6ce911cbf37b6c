"""Without bubblewrap, solve, fix and sandbox run refuse to run candidate code (no silent downgrade).

Each command runs as a real subprocess with a PATH that holds only the interpreter and git (no
bwrap); the refusal is the SandboxError exit code (5) with one paragraph that names the fix.
The explicit opt-in (--isolation unshare) runs, and says so in its output.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sandbox.helpers import tree_hash

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_bwrap_path(tmp_path: Path) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "unshare", "python3"):
        found = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        assert found, f"{tool} is needed by this test (run scripts/system-deps)"
        (bin_dir / tool).symlink_to(found)
    return f"{bin_dir}:{os.path.dirname(sys.executable)}"


def _vibecode(path: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": path,
        "HOME": str(cwd),
        "VIBECODE_CONFIG": os.devnull,
        "PYTHONPATH": str(REPO),
        "LANG": "C.UTF-8",
    }
    return subprocess.run(
        [sys.executable, "-m", "vibecode", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=120, check=False,
    )


def _assert_refused(out: subprocess.CompletedProcess[str]) -> None:
    assert out.returncode == 5, (out.returncode, out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    assert "bubblewrap" in out.stderr and "--sandbox docker" in out.stderr
    assert "--isolation unshare" in out.stderr
    assert "ran" not in out.stdout


def test_sandbox_run_refuses_without_bwrap(no_bwrap_path: str, source: Path) -> None:
    before = tree_hash(source)
    out = _vibecode(no_bwrap_path, "sandbox", "run", "--backend", "local", "--",
                    "sh", "-c", "echo ran > data.txt", cwd=source)
    _assert_refused(out)
    assert tree_hash(source) == before


def test_solve_refuses_without_bwrap(no_bwrap_path: str, tmp_path: Path) -> None:
    problem = tmp_path / "p.md"
    problem.write_text(
        "# Add\n\nReturn a + b.\n\n```python\ndef add(a: int, b: int) -> int:\n```\n\n"
        "Example 1:\nInput: a = 1, b = 2\nOutput: 3\n",
        encoding="utf-8",
    )
    out = _vibecode(no_bwrap_path, "solve", str(problem), "--engine", "tiny", "--n", "1",
                    cwd=tmp_path)
    _assert_refused(out)


def test_fix_refuses_without_bwrap(no_bwrap_path: str, source: Path) -> None:
    before = tree_hash(source)
    out = _vibecode(no_bwrap_path, "fix", "--repo", str(source), "--engine", "tiny", "--n", "1",
                    cwd=source)
    _assert_refused(out)
    assert tree_hash(source) == before


def test_explicit_weak_isolation_runs_and_is_named(no_bwrap_path: str, source: Path) -> None:
    out = _vibecode(no_bwrap_path, "sandbox", "run", "--backend", "local", "--isolation",
                    "unshare", "--", "python3", "-c", "print('ran')", cwd=source)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ran"
    assert "isolation unshare (chosen explicitly)" in out.stderr
