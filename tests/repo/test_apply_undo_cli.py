"""The commands: patch extract, apply (file or proposal id), undo; and proposals on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.repo.gitutil import GIT_ENV, git, snapshot
from vibecode.patch.diff import render_diff
from vibecode.repo.proposals import list_proposals, load_proposal, save_proposal
from vibecode.types import FileChange, Patch

ROOT = Path(__file__).resolve().parents[2]
ANSWER = """<think>
f returns 1 but should return 2. ```python
def f(): return 0
```
</think>
a.py
```python
<<<<<<< SEARCH
    return 1
=======
    return 2
>>>>>>> REPLACE
```
"""


def vibecode(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vibecode", *args], cwd=cwd, env={**GIT_ENV, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, input=stdin,
    )


def test_patch_extract_code_and_edit_json(repo: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(ANSWER)
    out = vibecode("patch", "extract", str(answer), "--repo", str(repo), "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kind"] == "edit"
    assert data["files"] == {"a.py": "def f():\n    return 2\n"}
    assert data["diff"].startswith("diff --git a/a.py b/a.py\n")
    code = tmp_path / "code.jsonl"
    code.write_text(json.dumps({"kind": "solve", "text": "<think>x</think>\n```py\ndef g():\n    return 3\n```"}) + "\n")
    out = vibecode("patch", "extract", str(code), "--entry", "g", "--json", cwd=tmp_path)
    assert json.loads(out.stdout) == {"kind": "code", "code": "def g():\n    return 3\n"}
    out = vibecode("patch", "extract", "-", "--entry", "g", cwd=tmp_path, stdin="```python\ndef g(): pass\n```\n")
    assert out.stdout == "def g(): pass\n"


def test_patch_extract_error_json_and_plain(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("<think>hmm</think>\nNo code today.\n")
    out = vibecode("patch", "extract", str(answer), "--json", cwd=tmp_path)
    assert out.returncode == 1
    assert "no code block" in json.loads(out.stdout)["error"]
    out = vibecode("patch", "extract", str(answer), cwd=tmp_path)
    assert out.returncode == 6 and "Traceback" not in out.stderr
    assert out.stderr.startswith("vibecode: The answer has no code block")
    missing = vibecode("patch", "extract", str(tmp_path / "nope.txt"), cwd=tmp_path)
    assert missing.returncode == 2 and "is not a file" in missing.stderr


def test_apply_file_dry_run_then_apply_then_undo(repo: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(ANSWER)
    before = snapshot(repo)
    dry = vibecode("apply", str(answer), "--dry-run", cwd=repo)
    assert dry.returncode == 0, dry.stderr
    assert "+    return 2" in dry.stdout and "Nothing was written" in dry.stdout
    assert snapshot(repo) == before
    applied = vibecode("apply", str(answer), cwd=repo)
    assert applied.returncode == 0, applied.stderr
    assert (repo / "a.py").read_text() == "def f():\n    return 2\n"
    again = vibecode("apply", str(answer), cwd=repo)
    assert again.returncode == 6 and "applied already" in again.stderr
    undone = vibecode("undo", cwd=repo)
    assert undone.returncode == 0 and "restored a.py" in undone.stdout
    assert snapshot(repo) == before
    nothing = vibecode("undo", "--all", cwd=repo)
    assert nothing.returncode == 6 and "nothing to undo" in nothing.stderr


def test_apply_refuses_over_unstaged_changes(repo: Path) -> None:
    proposal = save_proposal(repo, Patch((FileChange("a.py", "def f():\n    return 1\n", "def f():\n    return 2\n"),)), title="fix f")
    (repo / "a.py").write_text("def f():\n    return 1  # mine\n")
    out = vibecode("apply", proposal.id, cwd=repo)
    assert out.returncode == 6
    assert "unstaged changes that the patch does not expect" in out.stderr
    assert (repo / "a.py").read_text() == "def f():\n    return 1  # mine\n"


def test_proposal_format_roundtrip_and_apply_by_id(repo: Path) -> None:
    patch = Patch((
        FileChange("a.py", "def f():\n    return 1\n", "def f():\n    return 2\n"),
        FileChange("bin.dat", None, "\udcff\udcfe raw\r\n"),
        FileChange("b.txt", "hello\n", None),
    ))
    proposal = save_proposal(repo, patch, title="fix f", reliability=0.87, evidence={"tests": {"passed": 3}})
    folder = repo / ".git" / "vibecode" / "proposals" / proposal.id
    data = json.loads((folder / "proposal.json").read_text())
    assert data["format"] == 1 and data["title"] == "fix f" and data["reliability"] == 0.87
    assert data["files"][1]["encoding"] == "base64"
    assert (folder / "patch.diff").read_bytes() == render_diff(patch).encode("utf-8", "surrogateescape")
    check = subprocess.run(["git", "apply", "--check", str(folder / "patch.diff")], cwd=repo, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert load_proposal(repo, proposal.id).patch == patch
    assert list_proposals(repo) == [proposal.id]
    out = vibecode("apply", proposal.id, "--commit", "vibecode: fix f", "--json", cwd=repo)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["files"] == ["a.py", "bin.dat", "b.txt"] and result["commit"]
    assert (repo / "bin.dat").read_bytes() == b"\xff\xfe raw\r\n"
    assert git(repo, "status", "--porcelain") == ""
    unknown = vibecode("apply", "no-such-id", cwd=repo)
    assert unknown.returncode == 6 and "There is no proposal" in unknown.stderr


def test_help_imports_no_heavy_dependency(tmp_path: Path) -> None:
    code = "import sys; from vibecode.cli import build_parser; build_parser(); print(sorted(m for m in ('git', 'tree_sitter', 'tree_sitter_python') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr
