"""The pre-commit framework itself (https://pre-commit.com) with vibecode's ``.pre-commit-hooks.yaml``.

The manifest declares ``language: python``: a user's pre-commit installs vibecode from its
repository into a fresh virtualenv, which needs the package index (and builds llama-cpp-python).
A test must run offline from a clean clone, so it checks the manifest with pre-commit's own
validator and then runs the manifest's hook definition through the framework as a ``repo: local``
hook whose language is ``system`` and whose entry is this interpreter running this checkout's
vibecode: every other field (id, name, stages, pass_filenames, require_serial, always_run) comes
from the manifest unchanged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fix.repos import OFF_BY_ONE, PAGING
from tests.fix.test_fix_cli import WORKTREE
from tests.repo.gitutil import GIT_ENV, git

MANIFEST = WORKTREE / ".pre-commit-hooks.yaml"
FIXED = PAGING.replace("start = number * size", "start = (number - 1) * size")


def pre_commit() -> str:
    exe = Path(sys.executable).with_name("pre-commit")
    if not exe.exists():
        pytest.fail(f"The pre-commit framework is not installed next to {sys.executable}; "
                    "install the dev extra (pip install -e '.[dev]').")
    return str(exe)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_the_manifest_is_valid_and_says_what_the_issue_asks() -> None:
    import yaml

    done = run([pre_commit(), "validate-manifest", str(MANIFEST)], WORKTREE, dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    [hook] = yaml.safe_load(MANIFEST.read_text())
    assert hook["id"] == "vibecode" and hook["language"] == "python"
    assert hook["entry"] == "vibecode precommit"
    assert hook["pass_filenames"] is False and hook["require_serial"] is True
    assert hook["stages"] == ["pre-commit", "pre-push", "manual"]


def test_the_framework_runs_the_hook_on_commits(tmp_path: Path) -> None:
    import yaml

    root = OFF_BY_ONE.build(tmp_path / "repo")
    (root / "textkit" / "paging.py").write_text(FIXED)
    [hook] = yaml.safe_load(MANIFEST.read_text())
    local = {**hook, "language": "system", "entry": f"{sys.executable} -m vibecode precommit",
             "args": ["--mode", "hard", "--no-plugin-autoload", "--n", "2"]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "fixed, with a pre-commit config")
    pool = OFF_BY_ONE.write_pool(tmp_path / "pool.jsonl")
    env = {**GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"), "VIBECODE_CONFIG": os.devnull,
           "PYTHONPATH": str(WORKTREE), "VIBECODE_ENGINE": f"replay:{pool}"}
    installed = run([pre_commit(), "install"], root, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "pre-commit" in (root / ".git" / "hooks" / "pre-commit").read_text()
    # A failing staged change is blocked, with vibecode's report in pre-commit's output.
    (root / "textkit" / "paging.py").write_text(PAGING)
    git(root, "add", "textkit/paging.py")
    head = git(root, "rev-parse", "HEAD")
    blocked = run(["git", "commit", "-m", "bug"], root, env)
    output = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, output
    assert "vibecode (tests on the staged changes, verified fixes)" in output and "Failed" in output
    assert "tests/test_paging.py::test_first_page" in output and "Take it with: vibecode apply" in output
    assert git(root, "rev-parse", "HEAD") == head
    # A passing one goes through; the manual stage runs the same hook.
    (root / "textkit" / "paging.py").write_text(FIXED + "\n# reviewed\n")
    git(root, "add", "textkit/paging.py")
    passed = run(["git", "commit", "-m", "reviewed"], root, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout + passed.stderr
    manual = run([pre_commit(), "run", "vibecode", "--hook-stage", "manual"], root, env)
    assert manual.returncode == 0 and "Passed" in manual.stdout, manual.stdout + manual.stderr
