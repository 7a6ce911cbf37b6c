"""The project's own environment: found by itself, used in the sandbox, editable installs
redirected to the workspace (issue 15, items 1, 3, 4, 13). Real venvs, real editable installs,
real pytest in the real sandbox, `vibecode fix` and `git commit` as a user runs them."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.fix.repos import answer, sr
from tests.fix.test_fix_cli import WORKTREE, vibecode
from tests.fix.venvs import develop, editable_finder, make_venv
from tests.repo.gitutil import GIT_ENV, git, make_repo
from vibecode.errors import SandboxError
from vibecode.fix.environment import find_environment
from vibecode.fix.suite import SuiteCommand, parse_test_cmd, run_tests, with_environment
from vibecode.sandbox import Sandbox

CORE = '''"""Interval arithmetic."""


def overlap(a, b):
    """The length of the overlap of the closed intervals a and b (0 when they are apart)."""
    lo = max(a[0], b[0])
    hi = min(a[1], b[1])
    return hi - lo
'''
FIXED = CORE.replace("    return hi - lo", "    return max(0, hi - lo)")
TESTS = '''from spans.core import overlap


def test_inside():
    assert overlap((0, 10), (2, 5)) == 3


def test_apart():
    assert overlap((0, 1), (5, 9)) == 0
'''
FILES = {
    "pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
                      '[project]\nname = "spans"\nversion = "0.1"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n\n'
                      '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "setup.py": "from setuptools import setup\n\nsetup()\n",
    ".gitignore": ".venv/\n*.egg-info/\n",
    "src/spans/__init__.py": "",
    "src/spans/core.py": CORE,
    "tests/test_core.py": TESTS,
}
POOL = [
    answer("The overlap cannot be negative.", sr("src/spans/core.py", "    return hi - lo", "    return max(0, hi - lo)")),
    answer("The test is wrong.", sr("tests/test_core.py", "    assert overlap((0, 1), (5, 9)) == 0",
                                    "    assert overlap((0, 1), (5, 9)) == -4")),
    answer("Clamp it.", sr("src/spans/core.py", "    return hi - lo", "    return hi - lo if hi > lo else 0")),
]


def editable_project(root: Path, finder: bool = False) -> Path:
    """The src-layout project as a git repository with its own .venv and an editable install."""
    make_repo(root, {k: v.encode() for k, v in FILES.items()})
    python = make_venv(root / ".venv")
    if finder:
        editable_finder(python, "spans", root / "src" / "spans")
    else:
        develop(python, root)
    assert git(root, "status", "--porcelain") == ""
    return python


def user_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in GIT_ENV.items() if k != "VIRTUAL_ENV"}
    return {**env, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(WORKTREE), **extra}


def tree(root: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.split("/")[0] in (".git", ".vibecode", ".venv") or not path.is_file():
            continue
        out[rel] = path.read_bytes()
    return {**out, ".git/index": (root / ".git" / "index").read_bytes()}


def test_the_project_venv_is_found_and_the_editable_install_points_at_the_workspace(tmp_path: Path,
                                                                                     sandbox: Sandbox) -> None:
    root = tmp_path / "proj"
    python = editable_project(root)
    env = find_environment(root, None, {"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert env.kind == ".venv" and env.python == str(python) and env.pytest
    assert env.editable == ("src",)  # the easy-install.pth line, inside the repository
    # The real fix in a copy: the copy is what the venv imports, not the user's src/.
    (tmp_path / "copy").mkdir()
    for rel, text in {**FILES, "src/spans/core.py": FIXED}.items():
        (tmp_path / "copy" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "copy" / rel).write_text(text)
    command = with_environment(SuiteCommand(), root, sandbox, root)
    with sandbox.prepare(tmp_path / "copy") as ws:
        fixed = run_tests(sandbox, ws, command, None, 120)
    with sandbox.prepare(root) as ws:
        broken = run_tests(sandbox, ws, command, None, 120)
    assert sorted(fixed.passed) == ["tests/test_core.py::test_apart", "tests/test_core.py::test_inside"], fixed
    assert [c.nodeid for c in broken.cases if c.outcome == "failed"] == ["tests/test_core.py::test_apart"]


def test_a_pep660_editable_finder_is_redirected_too(tmp_path: Path, sandbox: Sandbox) -> None:
    root = tmp_path / "proj"
    editable_project(root, finder=True)
    env = find_environment(root, None, {"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert env.editable == ("src",)
    (tmp_path / "copy").mkdir()
    for rel, text in {**FILES, "src/spans/core.py": FIXED}.items():
        (tmp_path / "copy" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "copy" / rel).write_text(text)
    command = with_environment(SuiteCommand(), root, sandbox, root)
    with sandbox.prepare(tmp_path / "copy") as ws:
        fixed = run_tests(sandbox, ws, command, None, 120)
    assert len(fixed.passed) == 2 and not fixed.failed, fixed


def test_fix_with_no_flags_uses_the_venv_and_verifies_the_real_fix(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    editable_project(root)
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps(x) + "\n" for x in POOL))
    before = tree(root)
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "3", "--json", cwd=root, env=user_env())
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified", data["reason"]
    assert data["best"]["index"] in (0, 2) and not data["best"]["test_edit"]
    assert data["environment"]["kind"] == ".venv" and data["environment"]["python"] == str(root / ".venv/bin/python")
    assert data["environment"]["editable"] == ["src"]
    assert tree(root) == before
    text = vibecode("fix", "--engine", f"replay:{pool}", "--n", "3", cwd=root, env=user_env())
    assert f"environment: the project's .venv environment: {root}/.venv/bin/python" in text.stderr


def test_a_relative_venv_interpreter_in_test_cmd_is_resolved_against_the_root(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    editable_project(root)
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps(x) + "\n" for x in POOL))
    sub = root / "tests"  # run from a subfolder: still relative to the repository root
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "3", "--json", "--repo", str(root),
                    "--test-cmd", ".venv/bin/python -m pytest", cwd=sub, env=user_env())
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified" and data["environment"]["kind"] == "test-cmd"
    missing = vibecode("fix", "--engine", f"replay:{pool}", "--test-cmd", "env/bin/python -m pytest", cwd=root,
                       env=user_env())
    assert missing.returncode >= 2 and "env/bin/python, does not exist" in missing.stderr
    assert "bwrap" not in missing.stderr and "bubblewrap" not in missing.stderr and "Traceback" not in missing.stderr


def test_python_in_test_cmd_is_never_vibecodes_own_interpreter(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    python = editable_project(root)
    command = parse_test_cmd("python -m pytest -q")
    assert command.python == "python"
    env = find_environment(root, command.python, {"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert env.python == str(python) and env.python != sys.executable
    bare = tmp_path / "bare"
    bare.mkdir()
    other = find_environment(bare, "python3", {"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    assert other.kind == "system" and other.python != sys.executable


def test_an_active_virtual_env_is_used(tmp_path: Path) -> None:
    venv = tmp_path / "elsewhere"
    python = make_venv(venv)
    bare = tmp_path / "bare"
    bare.mkdir()
    env = find_environment(bare, None, {"PATH": os.environ["PATH"], "VIRTUAL_ENV": str(venv), "HOME": str(tmp_path)})
    assert env.kind == "VIRTUAL_ENV" and env.python == str(python)
    assert str(venv.resolve()) in env.ro_paths  # made visible in the sandbox


def test_a_missing_interpreter_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="does not exist"):
        find_environment(tmp_path, ".venv/bin/python", {"PATH": os.environ["PATH"]})


def test_hard_hook_blocks_a_staged_bug_with_the_fix_left_unstaged(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    editable_project(root)
    (root / "src/spans/core.py").write_text(FIXED)
    git(root, "commit", "-qam", "fixed")
    pool = tmp_path / "pool.jsonl"
    pool.write_text("".join(json.dumps(x) + "\n" for x in POOL))
    env = user_env(VIBECODE_ENGINE=f"replay:{pool}")
    assert vibecode("hook", "install", "--mode", "hard", "--", "--n", "3", cwd=root, env=env).returncode == 0
    (root / "src/spans/core.py").write_text(CORE)  # the bug, staged
    git(root, "add", "src/spans/core.py")
    (root / "src/spans/core.py").write_text(FIXED)  # the fix, left in the working tree only
    head = git(root, "rev-parse", "HEAD")
    import subprocess

    done = subprocess.run(["git", "commit", "-m", "bug"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert git(root, "rev-parse", "HEAD") == head
    assert "1 test(s) fail on the staged changes" in output and "test_apart" in output
