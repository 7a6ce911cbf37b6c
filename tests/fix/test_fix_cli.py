"""``vibecode fix`` as a user runs it: a subprocess in the repository, a replay engine."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fix.repos import OFF_BY_ONE, WRONG_COMPARISON, BuggyRepo, state
from tests.repo.gitutil import GIT_ENV, git
from vibecode.repo.proposals import list_proposals

WORKTREE = Path(__file__).resolve().parents[2]


def vibecode(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m vibecode ARGS`` in ``cwd``, importing this checkout's vibecode."""
    full = {**GIT_ENV, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(WORKTREE), **(env or {})}
    return subprocess.run([sys.executable, "-m", "vibecode", *args], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=timeout, check=False)


def setup(repo: BuggyRepo, tmp_path: Path, pool: list[dict[str, str]] | None = None) -> tuple[Path, Path]:
    root = repo.build(tmp_path / "repo")
    spec = dataclasses.replace(repo, pool=pool if pool is not None else repo.pool)
    return root, spec.write_pool(tmp_path / "pool.jsonl")


def test_json_output_has_the_solve_shape(tmp_path: Path) -> None:
    root, pool = setup(OFF_BY_ONE, tmp_path)
    before = state(root)
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "8", "--no-plugin-autoload", "--json", cwd=root)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "verified" and data["mode"] == "fix"
    best = data["best"]
    assert {"index", "diff", "reliability", "fixed", "regressions"} <= set(best)
    assert best["index"] in OFF_BY_ONE.correct and best["fixed"] == 2 and best["regressions"] == 0
    assert best["diff"].startswith("diff --git a/textkit/paging.py")
    assert best["proposal_id"] in list_proposals(root)
    assert len(data["candidates"]) == 8 and data["applied"] is None
    assert [f["nodeid"] for f in data["failing"]] == list(OFF_BY_ONE.failing)
    assert state(root) == before


def test_table_output_then_apply_the_proposal(tmp_path: Path) -> None:
    root, pool = setup(WRONG_COMPARISON, tmp_path)
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "6", "--no-plugin-autoload", cwd=root)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("status: verified")
    assert "rank  cand  fixed  regr" in out and " 2/2 " in out
    assert "running the tests" in done.stderr and "verifying the patches in the sandbox" in done.stderr
    line = next(x for x in out.splitlines() if x.startswith("Apply it with"))
    proposal = line.split("`vibecode apply ")[1].split("`")[0]
    applied = vibecode("apply", proposal, cwd=root)
    assert applied.returncode == 0, applied.stderr
    assert "return level <= threshold" in (root / "inventory" / "stock.py").read_text()


def test_apply_flag_applies_a_verified_fix_through_the_journal(tmp_path: Path) -> None:
    root, pool = setup(WRONG_COMPARISON, tmp_path)
    original = (root / "inventory" / "stock.py").read_bytes()
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "6", "--no-plugin-autoload", "--apply", "--json", cwd=root)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["applied"]["applied"] is True and data["applied"]["files"] == ["inventory/stock.py"]
    assert (root / "inventory" / "stock.py").read_bytes() != original
    assert git(root, "status", "--porcelain") == " M inventory/stock.py\n"
    undone = vibecode("undo", cwd=root)
    assert undone.returncode == 0, undone.stderr
    assert (root / "inventory" / "stock.py").read_bytes() == original


def test_apply_flag_refuses_what_is_not_verified(tmp_path: Path) -> None:
    root, pool = setup(OFF_BY_ONE, tmp_path, pool=[OFF_BY_ONE.pool[6], OFF_BY_ONE.pool[3]])
    before = state(root)
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "2", "--no-plugin-autoload", "--apply", cwd=root)
    assert done.returncode == 1
    assert "status: failed" in done.stdout and "Not applied: the best proposal is failed, not verified." in done.stdout
    assert state(root) == before


def test_nothing_fails_exits_0_without_opening_the_model(tmp_path: Path) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")
    paging = root / "textkit" / "paging.py"
    paging.write_text(paging.read_text().replace("start = number * size", "start = (number - 1) * size"))
    git(root, "commit", "-qam", "fixed")
    # The engine spec names a file that does not exist: opening it would fail. Plugins autoload here.
    done = vibecode("fix", "--engine", f"replay:{tmp_path / 'missing.jsonl'}", cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Nothing to fix. Nothing fails: 4 test(s) pass.")


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    done = vibecode("fix", "--n", "0", cwd=tmp_path)
    assert done.returncode == 2 and "--n must be at least 1" in done.stderr and "Traceback" not in done.stderr
    done = vibecode("fix", "--repo", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 2 and "is not a folder" in done.stderr
    root, _ = setup(OFF_BY_ONE, tmp_path)
    done = vibecode("fix", "--engine", f"replay:{tmp_path / 'missing.jsonl'}", "--no-plugin-autoload", cwd=root)
    assert done.returncode != 0 and "missing.jsonl does not exist" in done.stderr and "Traceback" not in done.stderr
    assert list_proposals(root) == []

