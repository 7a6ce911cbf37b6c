"""`vibecode fix` and the pre-commit hook on real open-source projects (issue 15).

Four real projects at the commit before a real bug fix (tests/data/projects/, see
tests/fix/realprojects.py): cachetools (src layout, editable install), filelock (src layout,
hatch-vcs's generated version.py, multiprocessing and threads in its tests), python-slugify
(flat layout, a test.py that pytest's default patterns skip) and humanize (hatch-vcs's
_version.py, pytest 9's [tool.pytest]). Each is a real git repository with a real .venv made by
pip; the CLI runs as a user runs it, with no per-project flag.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import site
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fix.realprojects import (
    NAMES,
    apply_real_fix,
    build,
    build_all,
    copy_project,
    load,
    make_project_venv,
    tree_and_index,
)
from tests.fix.test_environment import user_env
from tests.fix.test_fix_cli import WORKTREE, vibecode
from tests.repo.gitutil import git

Built = Callable[[str], Path]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Each project built once for the session, all at once (the fix runs leave them untouched),
    plus ``cachetools-hook``: a second cachetools for the hook test, which commits to it."""
    wanted = [*NAMES, HOOK]
    roots = {name: tmp_path_factory.mktemp(name) / name for name in wanted}
    build_all([(name.removesuffix("-hook"), root) for name, root in roots.items()])
    return roots.__getitem__


HOOK = "cachetools-hook"


def fix_json(root: Path, pool: Path, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], Any]:
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "6", "--json", cwd=root, env=env or user_env())
    assert done.returncode == 0, done.stderr[-4000:]
    return done, json.loads(done.stdout)


def check_choice(name: str, data: Any) -> None:
    """The real fix or its variant wins, verified; the test edit is never chosen; the regression,
    the irrelevant patch and the whitespace drift are each seen for what they are."""
    project = load(name)
    assert data["status"] == "verified", data["reason"]
    best = data["best"]
    assert data["ranking"][0] == best["index"]
    assert best["index"] in project.indices("real_fix", "variant", "whitespace"), best
    assert not best["test_edit"] and best["regressions"] == 0 and best["fixed"] == len(project.failing)
    assert sorted(f["nodeid"] for f in data["failing"]) == sorted(project.failing)
    cands = {c["index"]: c for c in data["candidates"]}
    edit = cands[project.index("test_edit")]
    assert edit["test_edit"] and edit["rank"] not in (None, 0)  # rank 0 is the best
    assert cands[project.index("regression")]["regressions"] > 0
    assert cands[project.index("irrelevant")]["fixed"] == 0
    drift, real = cands[project.index("whitespace")], cands[project.index("real_fix")]
    assert drift["parsed"] and (drift["duplicate_of"] == real["index"] or drift["diff"] == real["diff"]), drift
    assert data["environment"]["kind"] == ".venv"


@pytest.mark.parametrize("name", NAMES)
def test_fix_with_no_flags_chooses_the_real_fix_and_leaves_tree_and_index_alone(name: str, built: Built) -> None:
    root = built(name)
    before = tree_and_index(root)
    _, data = fix_json(root, load(name).pool)
    check_choice(name, data)
    assert tree_and_index(root) == before


def test_the_generated_version_files_are_git_ignored_and_still_imported(built: Built) -> None:
    for name, path in (("filelock", "src/filelock/version.py"), ("humanize", "src/humanize/_version.py")):
        root = built(name)
        assert (root / path).is_file(), f"hatch-vcs did not write {path}"
        assert git(root, "check-ignore", path).strip() == path
        assert git(root, "ls-files", path) == ""


def test_hard_hook_blocks_a_staged_bug_with_the_fix_left_unstaged_on_the_editable_project(built: Built) -> None:
    root = built(HOOK)
    editable = [p.name for p in (root / ".venv").glob("lib/python*/site-packages/__editable__*")]
    assert editable, "pip install -e . made no editable install"
    path, buggy, fixed = apply_real_fix("cachetools", root)
    git(root, "commit", "-qam", "the real fix")
    env = user_env(VIBECODE_ENGINE=f"replay:{load('cachetools').pool}")
    installed = vibecode("hook", "install", "--mode", "hard", "--", "--n", "6", cwd=root, env=env)
    assert installed.returncode == 0, installed.stderr
    (root / path).write_text(buggy)  # the bug, staged
    git(root, "add", path)
    (root / path).write_text(fixed)  # the fix, only in the working tree (where the .pth points)
    head = git(root, "rev-parse", "HEAD")
    staged = git(root, "ls-files", "-s")
    done = subprocess.run(["git", "commit", "-m", "bug"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert git(root, "rev-parse", "HEAD") == head and git(root, "ls-files", "-s") == staged
    assert "1 test(s) fail on the staged changes" in output and "test_autospec_no_warnings" in output, output
    assert (root / path).read_text() == fixed


def test_soft_hook_never_blocks_because_of_vibecodes_own_failure(built: Built, tmp_path: Path) -> None:
    root = copy_project(built("slugify"), tmp_path / "slugify")  # no editable install: its venv copies
    path, buggy, _ = apply_real_fix("slugify", root)
    git(root, "commit", "-qam", "the real fix")
    (root / path).write_text(buggy)
    git(root, "add", path)  # a real bug staged: the tests fail
    missing = tmp_path / "missing.jsonl"
    env = user_env(VIBECODE_ENGINE=f"replay:{missing}")
    assert vibecode("hook", "install", "--mode", "soft", cwd=root, env=env).returncode == 0
    head = git(root, "rev-parse", "HEAD")
    done = subprocess.run(["git", "commit", "-m", "bug"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output  # vibecode could not look for a fix: soft mode lets it through
    assert git(root, "rev-parse", "HEAD") != head
    assert "test_accented_text" in output and "missing.jsonl does not exist" in output, output
    # Nothing to run the tests with at all (the interpreter named is gone): still not blocked.
    (root / path).write_text(buggy + "\n# again\n")
    git(root, "add", path)
    gone = vibecode("precommit", "--mode", "soft", "--test-cmd", "nowhere/bin/python -m pytest", cwd=root, env=env)
    assert gone.returncode == 0 and "not blocked" in gone.stderr, gone.stderr


@pytest.fixture
def regular_user() -> Iterator[pwd.struct_passwd]:
    assert os.geteuid() == 0, "this test creates a user: run it as root"
    assert shutil.which("useradd") and shutil.which("setpriv"), "needs useradd and setpriv"
    name = f"vbf{os.getpid() % 100000}"
    home = Path(f"/var/tmp/vibecode-fix-{name}")
    subprocess.run(["useradd", "-m", "-d", str(home), "-s", "/bin/sh", name], check=True, capture_output=True)
    try:
        yield pwd.getpwnam(name)
    finally:
        subprocess.run(["userdel", "-r", name], check=False, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def test_a_regular_user_fixes_the_editable_project_in_their_home(regular_user: pwd.struct_passwd) -> None:
    """As a non-root user (setpriv), with the system Python: the user's own .venv, an editable
    install, a project under a home only they may enter; the same choice as root."""
    home = Path(regular_user.pw_dir)
    os.chmod(home, 0o700)
    root = build("cachetools", home / "cachetools", venv=False)
    subprocess.run(["chown", "-R", f"{regular_user.pw_uid}:{regular_user.pw_gid}", str(home)], check=True)
    as_user = ["setpriv", "--reuid", str(regular_user.pw_uid), "--regid", str(regular_user.pw_gid), "--init-groups"]
    env = {**user_env(), "HOME": str(home), "USER": regular_user.pw_name,
           "PATH": "/usr/local/bin:/usr/bin:/bin", "TMPDIR": str(home),
           "PYTHONPATH": os.pathsep.join([str(WORKTREE), *site.getsitepackages()])}
    make_project_venv(root, load("cachetools").install, base="/usr/bin/python3", prefix=as_user, env=env)
    before = tree_and_index(root)
    pool = home / "pool.jsonl"
    shutil.copy(load("cachetools").pool, pool)
    os.chown(pool, regular_user.pw_uid, regular_user.pw_gid)
    done = subprocess.run([*as_user, "/usr/bin/python3", "-m", "vibecode", "fix", "--engine", f"replay:{pool}",
                           "--n", "6", "--json"], cwd=root, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    data = json.loads(done.stdout)
    check_choice("cachetools", data)
    assert data["environment"]["python"] == str(root / ".venv/bin/python")
    assert tree_and_index(root) == before
