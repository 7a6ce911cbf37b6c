"""``vibecode precommit`` and ``vibecode hook`` end to end: real `git commit`s through the hook."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.fix.repos import OFF_BY_ONE, PAGING, state
from tests.fix.test_fix_cli import WORKTREE, vibecode
from tests.repo.gitutil import GIT_ENV, git
from vibecode.repo.proposals import list_proposals, load_proposal

FIXED = PAGING.replace("start = number * size", "start = (number - 1) * size")


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository whose committed tests pass, and the environment its hook runs with."""
    root = OFF_BY_ONE.build(tmp_path / "repo")
    (root / "textkit" / "paging.py").write_text(FIXED)
    git(root, "commit", "-qam", "fix paging")
    pool = OFF_BY_ONE.write_pool(tmp_path / "pool.jsonl")
    env = {**GIT_ENV, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(WORKTREE), "VIBECODE_ENGINE": f"replay:{pool}"}
    return root, env


def commit(root: Path, env: dict[str, str], message: str = "change") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "commit", "-m", message], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def tree_and_staged(root: Path) -> tuple[object, str]:
    """The working tree's files and the index's entries. (`git commit` itself refreshes the
    index file's stat cache before running the hook, so its raw bytes may change; its entries
    must not.)"""
    return state(root)[0], git(root, "ls-files", "-s")


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").strip()


def stage_bug(root: Path) -> None:
    (root / "textkit" / "paging.py").write_text(PAGING + "\n# staged with the bug\n")
    git(root, "add", "textkit/paging.py")


def test_hard_mode_blocks_failing_staged_content_even_with_a_fix_in_the_working_tree(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    installed = vibecode("hook", "install", "--mode", "hard", "--", "--no-plugin-autoload", "--n", "2", cwd=root, env=env)
    assert installed.returncode == 0, installed.stderr
    assert "installed" in installed.stdout and os.access(root / ".git" / "hooks" / "pre-commit", os.X_OK)
    stage_bug(root)
    (root / "textkit" / "paging.py").write_text(FIXED + "\n# fixed again, not staged\n")  # an unstaged fix
    before, old_head = tree_and_staged(root), head(root)
    done = commit(root, env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert head(root) == old_head  # nothing was committed
    assert tree_and_staged(root) == before  # the working tree and the staged entries as they were
    assert "2 test(s) fail on the staged changes" in output
    assert "tests/test_paging.py::test_first_page: assert [3, 4] == [1, 2]" in output
    assert "Proposed fix (verified, reliability" in output and "+    start = (number - 1) * size" in output
    assert "the commit is blocked (hard mode)" in output
    proposal = output.split("Take it with: vibecode apply ")[1].split()[0]
    saved = load_proposal(root, proposal)
    assert saved.base["kind"] == "index" and saved.evidence["best"] is True
    assert output.count("test(s) fail on the staged changes") == 2  # the notice, then the report


def test_soft_mode_lets_the_commit_through_with_the_report(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    assert vibecode("hook", "install", "--mode", "soft", "--", "--no-plugin-autoload", "--n", "2", cwd=root, env=env).returncode == 0
    stage_bug(root)
    old_head = head(root)
    done = commit(root, env, "buggy but allowed")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert head(root) != old_head
    assert "2 test(s) fail on the staged changes" in output and "warning: committing with failing tests (soft mode)" in output
    proposal = output.split("Take it with: vibecode apply ")[1].split()[0]
    applied = vibecode("apply", proposal, cwd=root, env=env)  # the proposal applies to what was committed
    assert applied.returncode == 0, applied.stderr
    assert "start = (number - 1) * size" in (root / "textkit" / "paging.py").read_text()


def test_a_passing_commit_goes_through_quickly(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    assert vibecode("hook", "install", "--", "--no-plugin-autoload", "--n", "2", cwd=root, env=env).returncode == 0
    (root / "textkit" / "paging.py").write_text(FIXED + "\n\ndef first(items):\n    return items[:1]\n")
    git(root, "add", "-A")
    done = commit(root, env, "add first")
    assert done.returncode == 0, done.stderr
    assert "4 test(s) pass on the staged changes" in done.stderr
    assert list_proposals(root) == []
    # The check's own cost beyond the test run (scripts/bench_precommit.py measures it properly).
    (root / "README.md").write_text("# textkit\n\nPaging.\n")
    git(root, "add", "README.md")
    before = state(root)
    checked = vibecode("precommit", "--json", "--no-plugin-autoload", cwd=root, env=env)
    assert state(root) == before  # run directly, the index file is byte-identical too
    assert checked.returncode == 0, checked.stderr
    data = json.loads(checked.stdout)
    assert data["outcome"] == "passed" and data["tests_run"] == 4 and data["changed"] == ["README.md"]
    overhead = data["timing"]["total"] - data["timing"]["test_run"]
    assert 0 <= overhead < 3.0, data["timing"]


def test_an_existing_hook_is_chained_and_restored(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    hooks = root / ".git" / "hooks"
    mine = "#!/bin/sh\necho 'my own hook ran' > \"$(git rev-parse --show-toplevel)/hook-ran.txt\"\nexit 0\n"
    (hooks / "pre-commit").write_text(mine)
    os.chmod(hooks / "pre-commit", 0o755)
    installed = vibecode("hook", "install", "--", "--no-plugin-autoload", "--n", "2", cwd=root, env=env)
    assert installed.returncode == 0 and "runs first" in installed.stdout
    assert (hooks / "pre-commit.vibecode-chained").read_text() == mine
    (root / "notes.md").write_text("notes\n")
    git(root, "add", "notes.md")
    done = commit(root, env)
    assert done.returncode == 0, done.stderr
    assert (root / "hook-ran.txt").read_text() == "my own hook ran\n"
    assert "test(s) pass on the staged changes" in done.stderr
    status = vibecode("hook", "status", "--json", cwd=root, env=env)
    assert json.loads(status.stdout)["installed"] is True and json.loads(status.stdout)["mode"] == "hard"
    removed = vibecode("hook", "uninstall", cwd=root, env=env)
    assert removed.returncode == 0 and "back in place" in removed.stdout
    assert (hooks / "pre-commit").read_text() == mine
    assert stat.S_IMODE((hooks / "pre-commit").stat().st_mode) == 0o755
    assert not (hooks / "pre-commit.vibecode-chained").exists()
    # A hook that is not vibecode's is never removed, and never overwritten when a chain exists.
    refused = vibecode("hook", "uninstall", cwd=root, env=env)
    assert refused.returncode != 0 and "not vibecode's hook" in refused.stderr
    (hooks / "pre-commit.vibecode-chained").write_text("#!/bin/sh\nexit 0\n")
    refused = vibecode("hook", "install", cwd=root, env=env)
    assert refused.returncode != 0 and "would lose one" in refused.stderr
    assert (hooks / "pre-commit").read_text() == mine


def test_a_failing_chained_hook_still_blocks(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    hooks = root / ".git" / "hooks"
    (hooks / "pre-commit").write_text("#!/bin/sh\necho 'lint failed' >&2\nexit 3\n")
    os.chmod(hooks / "pre-commit", 0o755)
    assert vibecode("hook", "install", "--mode", "soft", cwd=root, env=env).returncode == 0
    (root / "notes.md").write_text("notes\n")
    git(root, "add", "notes.md")
    done = commit(root, env)
    assert done.returncode != 0 and "lint failed" in done.stderr


def test_vibecode_failures_never_block_in_soft_mode(project: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    root, env = project
    stage_bug(root)
    no_model = {**env, "VIBECODE_ENGINE": f"replay:{tmp_path / 'missing.jsonl'}"}
    soft = vibecode("precommit", "--mode", "soft", "--no-plugin-autoload", cwd=root, env=no_model)
    assert soft.returncode == 0
    assert "No fix proposed: vibecode could not look for a fix" in soft.stdout and "missing.jsonl does not exist" in soft.stdout
    hard = vibecode("precommit", "--mode", "hard", "--no-plugin-autoload", cwd=root, env=no_model)
    assert hard.returncode == 1 and "the commit is blocked" in hard.stdout  # the tests do fail
    # Outside a repository nothing can be checked: soft mode lets it go, hard mode blocks.
    elsewhere = tmp_path / "plain"
    elsewhere.mkdir()
    soft = vibecode("precommit", "--mode", "soft", cwd=elsewhere, env=env)
    assert soft.returncode == 0 and "could not check the staged changes" in soft.stderr and "not blocked" in soft.stderr
    hard = vibecode("precommit", "--mode", "hard", cwd=elsewhere, env=env)
    assert hard.returncode == 1 and "--no-verify" in hard.stderr
    # An exhausted budget is said, and does not block in soft mode.
    quick = vibecode("precommit", "--mode", "soft", "--budget", "0.001", "--no-plugin-autoload", "--json", cwd=root, env=env)
    assert quick.returncode == 0, quick.stderr
    data = json.loads(quick.stdout)
    assert data["outcome"] == "failed" and data["exit_code"] == 0 and "budget" in data["message"]


def _check(root: Path, **options: object) -> object:
    from vibecode.config import Settings
    from vibecode.engine.deferred import DeferredEngine
    from vibecode.events import PrecommitReady
    from vibecode.fix.suite import SuiteCommand
    from vibecode.precommit.check import PrecommitOptions
    from vibecode.sandbox import make_sandbox
    from vibecode.session import Session

    def no_model() -> object:
        raise AssertionError("a passing check must not open the model")

    session = Session(DeferredEngine(no_model), make_sandbox("local", Settings()), Settings())  # type: ignore[arg-type]
    opts = PrecommitOptions(command=SuiteCommand(autoload_plugins=False), **options)  # type: ignore[arg-type]
    events = list(session.precommit(root, opts))
    assert isinstance(events[-1], PrecommitReady)
    return events[-1].result


def test_only_the_affected_tests_run_when_the_suite_is_not_cheap(tmp_path: Path) -> None:
    from tests.repo.gitutil import make_repo

    files = {"pkg/__init__.py": b"", "tests/test_b.py": b"from pkg.b import g\n\n\ndef test_g():\n    assert g() == 2\n"}
    files["pkg/a.py"] = b"def f():\n    return 1\n"
    files["pkg/b.py"] = b"def g():\n    return 2\n"
    files["tests/test_a.py"] = b"from pkg.a import f\n\n\ndef test_f():\n    assert f() == 1\n\n\ndef test_f_again():\n    assert f() + 1 == 2\n"
    root = make_repo(tmp_path / "repo", files)
    (root / ".git" / "vibecode").mkdir()
    (root / ".git" / "vibecode" / "precommit.json").write_text('{"suite_s": 600}')  # last full run: slow
    (root / "pkg" / "b.py").write_text("def g():\n    return 1 + 1\n")
    git(root, "add", "pkg/b.py")
    (root / "pkg" / "a.py").write_text("def f():\n    return 'unstaged and broken'\n")
    before = state(root)
    result = _check(root)
    assert state(root) == before
    assert result.outcome == "passed" and result.exit_code == 0  # type: ignore[attr-defined]
    assert result.changed == ("pkg/b.py",) and result.selection == "affected"  # type: ignore[attr-defined]
    assert result.selected == ("tests/test_b.py",) and result.tests_run == 1  # type: ignore[attr-defined]
    # Once the suite is known to be cheap, the whole suite runs.
    (root / ".git" / "vibecode" / "precommit.json").write_text('{"suite_s": 0.5}')
    result = _check(root)
    assert result.selection == "all" and result.tests_run == 3  # type: ignore[attr-defined]


def test_the_first_commit_of_a_repository(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    git(root, "add", "test_one.py")
    result = _check(root)
    assert result.outcome == "passed" and result.changed == ("test_one.py",) and result.tests_run == 1  # type: ignore[attr-defined]
