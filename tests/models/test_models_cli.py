"""`vibecode models ...` as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.models.fakehub import FakeHub
from tests.models.gguf_bytes import small_gguf
from vibecode.cli import main

ROOT = Path(__file__).resolve().parents[2]
ENTRY_KEYS = {
    "id",
    "description",
    "source",
    "quantization",
    "default",
    "present",
    "path",
    "size_bytes",
    "runs_by_default",
}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["models", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_names_every_registry_model(
    hf_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "list", "--json")

    assert code == 0
    entries = {e["id"]: e for e in json.loads(out)}
    assert set(entries) == {"vibethinker-3b", "vibethinker-3b-q8", "vibethinker-1.5b", "tiny"}
    for entry in entries.values():
        assert set(entry) == ENTRY_KEYS
        assert isinstance(entry["size_bytes"], int) and entry["size_bytes"] > 0
    assert entries["vibethinker-3b"]["default"] is True
    assert (
        entries["vibethinker-3b"]["present"] is False and entries["vibethinker-3b"]["path"] is None
    )
    tiny = entries["tiny"]
    assert tiny["present"] is True and Path(tiny["path"]).stat().st_size == tiny["size_bytes"]
    # What runs without --model is tiny while the default is absent (issue 17: not the absent one).
    assert tiny["runs_by_default"] is True and entries["vibethinker-3b"]["runs_by_default"] is False


def test_list_marks_what_runs_and_says_the_default_is_absent(
    hf_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "list")

    assert code == 0
    marked = [line.split()[1] for line in out.splitlines() if line.startswith("* ") and len(line.split()) > 1]
    assert marked[0] == "tiny"
    assert "vibethinker-3b, is not downloaded" in out and "vibecode models pull vibethinker-3b" in out


def test_path_of_tiny_prints_the_embedded_file(
    hf_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "path", "tiny")

    assert code == 0
    path = Path(out.strip())
    assert path.name.endswith(".gguf") and path.read_bytes()[:4] == b"GGUF"


def test_path_of_a_model_not_downloaded_fails_with_the_pull_command(
    hf_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "path", "vibethinker-3b")

    assert code == 3 and out == ""
    assert "not downloaded" in err and "vibecode models pull vibethinker-3b" in err


@pytest.mark.parametrize("action", ["info", "pull", "path", "rm"])
def test_an_unknown_id_is_a_clear_error(
    action: str, hf_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, action, "vibethinker-9b")

    assert code == 3
    assert err.startswith("vibecode: Unknown model id 'vibethinker-9b'.")
    assert "vibethinker-3b" in err and "Traceback" not in err


def test_info_shows_the_manifest(hf_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "info", "vibethinker-3b", "--json")

    assert code == 0
    info = json.loads(out)
    assert info["id"] == "vibethinker-3b" and info["present"] is False
    assert info["sampling"]["temperature"] == 1.0 and info["sampling"]["top_k"] == 0
    assert info["hf_uri"].endswith("/VibeThinker-3B.Q4_K_M.gguf")


def test_pull_path_and_rm_an_hf_uri(hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    uri = "hf://acme/Widget-GGUF/Widget.Q4_K_M.gguf"
    hub.add("acme/Widget-GGUF", "Widget.Q4_K_M.gguf", small_gguf())

    code, out, _ = _run(capsys, "pull", uri, "--json")
    assert code == 0
    pulled = json.loads(out)
    assert pulled["sha256"] and Path(pulled["path"]).is_file()

    code, out, _ = _run(capsys, "path", uri)
    assert (code, out.strip()) == (0, pulled["path"])

    code, out, _ = _run(capsys, "rm", uri)
    assert code == 0 and "removed" in out
    code, _, err = _run(capsys, "path", uri)
    assert code == 3 and f"vibecode models pull {uri}" in err


def test_pull_offline_is_a_clear_message(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    code, _, err = _run(capsys, "pull", "vibethinker-3b")

    assert code == 3 and "offline mode is on (HF_HUB_OFFLINE is set)" in err


def test_the_command_runs_as_a_process_and_imports_no_hub_client_for_help(hf_cache: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    listed = subprocess.run(
        [sys.executable, "-m", "vibecode", "models", "list", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 4
    probe = "import sys, vibecode.cli.cmd_models, vibecode.models; print('huggingface_hub' in sys.modules)"
    imported = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=True,
    )
    assert imported.stdout.strip() == "False"


def test_a_model_pulled_as_an_hf_uri_is_listed_under_that_uri(hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    from vibecode.models import list_models
    from vibecode.tui.screens.settings import engine_spec_for, model_prompt

    uri = "hf://acme/Widget-GGUF/sub/Widget.Q4_K_M.gguf"
    hub.add("acme/Widget-GGUF", "sub/Widget.Q4_K_M.gguf", small_gguf())
    assert _run(capsys, "pull", uri, "--json")[0] == 0
    code, out, _ = _run(capsys, "list", "--json")
    entries = {e["id"]: e for e in json.loads(out)}
    assert code == 0 and entries[uri]["present"] is True and entries[uri]["source"] == uri
    assert entries[uri]["runs_by_default"] is False and "vibethinker-3b" in entries
    code, out, _ = _run(capsys, "list")
    assert uri in out and "downloaded" in out.split(uri)[1].splitlines()[0]
    # the TUI's model picker lists the same statuses, and picking it gives an engine spec that loads it
    status = next(s for s in list_models() if s.manifest.id == uri)
    assert uri in model_prompt(status) and "on this machine" in model_prompt(status)
    assert engine_spec_for(uri) == f"llama:{uri}"
    assert _run(capsys, "rm", uri)[0] == 0
    assert uri not in {e["id"] for e in json.loads(_run(capsys, "list", "--json")[1])}
