"""`vibecode doctor` exits non-zero (9) when a check it needs fails, 0 when every check passes or
only optional ones warn; --json gives each check's level."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from vibecode.checks import Check
from vibecode.doctor import FAILED_EXIT, exit_status, level, levels

OK, NO = True, False


def report(**sections: list[Check]) -> dict[str, list[Check]]:
    return dict(sections)


def test_optional_features_warn_and_needed_ones_fail() -> None:
    models = [Check("hf_cache", OK, "cache"), Check("tiny", OK, "98 MB"), Check("vibethinker-3b", NO, "not downloaded")]
    sandbox = [Check("bubblewrap", OK, "/usr/bin/bwrap"), Check("docker daemon", NO, "not reachable")]
    gpu = [Check("backend", OK, "CPU"), Check("gpu_offload", NO, "CPU only")]
    fine = report(models=models, sandbox=sandbox, llama_cpp=gpu)
    assert levels(fine, "local") == {"models": ["ok", "ok", "warn"], "sandbox": ["ok", "warn"],
                                     "llama_cpp": ["ok", "warn"]}
    assert exit_status(levels(fine, "local")) == 0
    # Docker is needed when the settings choose it, and then bubblewrap is the optional one
    assert level("sandbox", sandbox[1], sandbox, "docker") == "fail"
    assert level("sandbox", Check("bubblewrap", NO, "not found"), sandbox, "docker") == "warn"
    assert level("sandbox", Check("local sandbox", NO, "missing"), sandbox, "local") == "fail"
    assert exit_status(levels(fine, "docker")) == FAILED_EXIT
    # no model at all: nothing can run
    none = [Check("hf_cache", OK, "cache"), Check("tiny", NO, "not installed"), Check("vibethinker-3b", NO, "-")]
    assert levels(report(models=none), "local") == {"models": ["ok", "fail", "fail"]}
    assert exit_status(levels(report(python=[Check("python", NO, "2.7")]), "local")) == FAILED_EXIT
    assert exit_status({"git": ["ok"], "models": ["ok", "warn"]}) == 0 and exit_status({}) == 0


def test_a_broken_config_file_fails_the_doctor_with_its_own_exit_status(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("n = \n")
    out = run_cli("doctor", env={"VIBECODE_CONFIG": str(bad)}, timeout=300)
    assert out.returncode == FAILED_EXIT == 9, out.stderr
    assert "!! config:" in out.stdout and "not valid TOML" in out.stdout and "Traceback" not in out.stderr
    assert f"failed (exit status {FAILED_EXIT})" in out.stdout


def test_doctor_help_documents_the_exit_status() -> None:
    out = run_cli("doctor", "--help")
    assert out.returncode == 0 and f"Exit status: {FAILED_EXIT} when any check" in " ".join(out.stdout.split())
