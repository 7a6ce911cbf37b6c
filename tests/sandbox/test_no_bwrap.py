"""Without bubblewrap, solve, fix and sandbox run refuse to run candidate code (no silent downgrade).

Each command runs as a real subprocess with a PATH that holds only the interpreter and git (no
bwrap); the refusal is the SandboxError exit code (5) with one paragraph that names the fix.
The explicit opt-in (--isolation unshare) runs, and says so in its output.
"""

from __future__ import annotations

import json
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


def test_solve_and_fix_json_name_the_weaker_isolation(no_bwrap_path: str, source: Path,
                                                      tmp_path: Path) -> None:
    """--isolation unshare, chosen explicitly: every result carries it (--json and the human
    output), besides the warning before anything runs."""
    problem = tmp_path / "p.md"
    problem.write_text(
        "# Add\n\nReturn a + b.\n\n```python\ndef add(a: int, b: int) -> int:\n```\n\n"
        "Example 1:\nInput: a = 1, b = 2\nOutput: 3\n",
        encoding="utf-8",
    )
    answer = "<think>sum</think>\n```python\ndef add(a: int, b: int) -> int:\n    return a + b\n```\n"
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"kind": "candidate", "text": answer}) + "\n", encoding="utf-8")
    solve = _vibecode(no_bwrap_path, "solve", str(problem), "--engine", f"replay:{replay}",
                      "--n", "1", "--no-model-checks", "--json", "--isolation", "unshare",
                      cwd=tmp_path)
    assert solve.returncode == 0, solve.stderr
    found = json.loads(solve.stdout)["isolation"]
    assert found["kind"] == "unshare" and found["weaker_than_default"], found
    assert "chosen explicitly" in found["notes"][0]
    before = tree_hash(source)
    fix = _vibecode(no_bwrap_path, "fix", "--repo", str(source), "--json", "--isolation",
                    "unshare", cwd=source)
    assert fix.returncode == 0, fix.stderr
    assert json.loads(fix.stdout)["isolation"]["kind"] == "unshare"
    human = _vibecode(no_bwrap_path, "fix", "--repo", str(source), "--isolation", "unshare",
                      cwd=source)
    assert human.returncode == 0, human.stderr
    assert "sandbox: isolation unshare (chosen explicitly)" in human.stdout
    assert tree_hash(source) == before


def test_results_in_the_default_isolation_carry_no_isolation_key() -> None:
    from tests.sandbox.helpers import get_backend
    from vibecode.cli.cmd_sandbox import isolation_json

    assert isolation_json(get_backend("local")) == {}
    assert isolation_json(get_backend("docker")) == {}
    assert isolation_json(None) == {}  # solve --math runs no sandbox
