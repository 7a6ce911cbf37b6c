"""The CLI as a user runs it: real subprocesses, the real tiny model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli

HEAVY = ("llama_cpp", "huggingface_hub", "docker", "git", "textual", "tree_sitter", "sympy")


def test_help_imports_no_heavy_dependency() -> None:
    """Its speed (< 0.5 s) is measured by scripts/bench_startup.py, not by a timed test."""
    code = (
        "import sys\n"
        "from vibecode.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stderr.strip().splitlines()[-1] == "[]"
    assert "solve" in out.stdout and "ask" in out.stdout


def test_ask_streams_an_answer_from_the_tiny_model() -> None:
    out = run_cli("ask", "--temperature", "0", "--max-tokens", "24", "What is 2+2? Answer briefly.")
    assert out.returncode == 0, out.stderr
    assert "4" in out.stdout
    assert "tokens/s" in out.stderr
    assert "tiny model" in out.stderr  # the notice that answers will be weak


def test_ask_n_json_has_the_documented_keys() -> None:
    out = run_cli(
        "ask", "--n", "3", "--json", "--max-tokens", "16", "--ignore-eos", "--seed", "1", "Say hi."
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"completions", "tokens_per_s", "ttft_s", "prompt_tokens_evaluated"} <= set(data)
    assert len(data["completions"]) == 3
    for c in data["completions"]:
        assert {"text", "reasoning", "answer", "tokens", "finish_reason"} <= set(c)
        assert c["tokens"] == 16 and c["finish_reason"] == "length"
    assert data["tokens_per_s"] > 0 and data["prompt_tokens_evaluated"] > 0


def _random_bytes(tmp_path: Path) -> Path:
    path = tmp_path / "random.gguf"
    path.write_bytes(os.urandom(4096))
    return path


def _truncated_gguf(tmp_path: Path) -> Path:
    from vibecode.models import resolve_model

    source = resolve_model("tiny").path
    path = tmp_path / "truncated.gguf"
    with source.open("rb") as fh:
        path.write_bytes(fh.read(3_000_000))
    return path


@pytest.mark.parametrize(
    ("make_args", "needle"),
    [
        (lambda p: ["--model", str(p / "missing.gguf")], "does not exist"),
        (lambda p: ["--engine", f"llama:{_random_bytes(p)}"], "not a GGUF model file"),
        (lambda p: ["--engine", f"llama:{_truncated_gguf(p)}"], "could not load"),
        (lambda p: ["--engine", "llama:/etc/hostname"], "not a GGUF model file"),
        (lambda p: ["--model", "no-such-model"], "Unknown model id 'no-such-model'"),
        (lambda p: ["--engine", "gpt:4"], "Bad engine spec"),
    ],
    ids=["missing-file", "random-bytes", "corrupt-gguf", "not-gguf", "unknown-id", "bad-spec"],
)
def test_bad_model_input_is_one_clear_paragraph(tmp_path: Path, make_args, needle: str) -> None:  # type: ignore[no-untyped-def]
    out = run_cli("ask", *make_args(tmp_path), "hi")
    assert out.returncode != 0
    assert "Traceback" not in out.stderr
    assert needle in out.stderr
    assert out.stderr.startswith("vibecode: ") or "\nvibecode: " in out.stderr


def test_doctor_json_names_the_backend() -> None:
    out = run_cli("doctor", "--json")
    assert "Traceback" not in out.stderr
    report = json.loads(out.stdout)
    assert {"python", "llama_cpp", "models", "git"} <= set(report)
    for checks in report.values():
        for check in checks:
            assert set(check) == {"name", "ok", "detail", "fix", "level"}
            assert isinstance(check["ok"], bool)
            assert check["level"] == "ok" if check["ok"] else check["level"] in ("warn", "fail")
    failed = any(c["level"] == "fail" for checks in report.values() for c in checks)
    assert out.returncode == (9 if failed else 0), out.stderr
    backend = next(c for c in report["llama_cpp"] if c["name"] == "backend")
    assert backend["detail"].split()[0] in ("CPU", "CUDA", "Metal", "Vulkan")
    tiny = next(c for c in report["models"] if c["name"] == "tiny")
    assert tiny["ok"]
