"""`vibecode sandbox run`, make_sandbox and doctor's sandbox checks, as a user meets them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sandbox.helpers import tree_hash
from vibecode.config import Settings
from vibecode.errors import SandboxError
from vibecode.sandbox import make_sandbox

REPO = Path(__file__).resolve().parents[2]
KEYS = {
    "exit_code",
    "signal",
    "timed_out",
    "oom",
    "duration_s",
    "stdout",
    "stderr",
    "backend",
    "protections",
    "notes",
}


def vibecode(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "VIBECODE_CONFIG": os.devnull, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "vibecode", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd or REPO,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_sandbox_run_json(backend: str, source: Path) -> None:
    before = tree_hash(source)
    code = "import os, sys; open('app.py', 'w').write('gone'); print(os.getcwd() != sys.argv[1]); sys.exit(3)"
    out = vibecode(
        "sandbox",
        "run",
        "--backend",
        backend,
        "--timeout",
        "30",
        "--memory",
        "512",
        "--workdir",
        str(source),
        "--json",
        "--",
        "python3" if backend == "docker" else "python",
        "-c",
        code,
        str(source),
    )
    assert out.returncode == 0, out.stderr  # the command ran; its own exit code is in the JSON
    data = json.loads(out.stdout)
    assert set(data) == KEYS
    assert data["exit_code"] == 3 and data["backend"] == backend
    assert data["stdout"] == "True\n"
    assert all(data["protections"].values())
    assert tree_hash(source) == before


def test_sandbox_run_plain_output_and_default_folder(source: Path) -> None:
    out = vibecode(
        "sandbox",
        "run",
        "--timeout",
        "1",
        "--",
        "sh",
        "-c",
        "ls; echo oops >&2; sleep 5",
        cwd=source,
    )
    assert out.returncode == 0
    assert "app.py" in out.stdout
    assert "oops" in out.stderr and "timed out" in out.stderr


def test_sandbox_run_errors() -> None:
    out = vibecode("sandbox", "run")
    assert out.returncode == 2 and "No command" in out.stderr
    out = vibecode("sandbox", "run", "--timeout", "0", "--", "true")
    assert out.returncode == 2 and "positive" in out.stderr
    out = vibecode("sandbox", "run", "--workdir", "/nonexistent/dir", "--", "true")
    assert out.returncode == 2 and "not a folder" in out.stderr
    out = vibecode(
        "sandbox",
        "run",
        "--backend",
        "docker",
        "--",
        "true",
        env={"DOCKER_HOST": "unix:///nonexistent.sock"},
    )
    assert out.returncode == 5
    assert "Docker daemon is not reachable" in out.stderr and "scripts/docker-up" in out.stderr
    assert "Traceback" not in out.stderr


def test_make_sandbox() -> None:
    settings = Settings()
    assert make_sandbox("local", settings).name == "local"
    assert make_sandbox("docker", settings).name == "docker"
    with pytest.raises(SandboxError, match="Unknown sandbox backend"):
        make_sandbox("vm", settings)
    with pytest.raises(SandboxError, match="not present"):
        make_sandbox("docker", Settings(docker_image="vibecode-no-such-image:none"))


def test_help_and_local_sandbox_do_not_import_docker() -> None:
    code = (
        "import sys\n"
        "from vibecode.cli import build_parser\n"
        "build_parser()\n"
        "from vibecode.sandbox import make_sandbox\n"
        "from vibecode.config import Settings\n"
        "make_sandbox('local', Settings())\n"
        "print('docker' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "False"


def test_doctor_sandbox_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    from vibecode.sandbox.facilities import diagnose, docker_checks

    checks = {c.name: c for c in diagnose()}
    assert {"bubblewrap", "namespaces", "local sandbox", "docker daemon", "docker image"} <= set(
        checks
    )
    assert all(c.ok for c in checks.values()), [c for c in checks.values() if not c.ok]
    for name in ("host view", "sockets", "memory per run", "disk", "seccomp", "cleanup"):
        assert checks[name].detail.startswith("active:")
        assert checks["docker " + name].detail.startswith("active:")
    from vibecode.sandbox.facilities import protection_checks

    weak = {c.name: c for c in protection_checks({"kill_all": True})}
    assert not weak["seccomp"].ok and weak["seccomp"].fix and weak["seccomp"].detail.startswith("missing:")
    assert weak["cleanup"].ok
    from vibecode.sandbox.facilities import docker_protection_checks

    unconfined = {c.name: c for c in docker_protection_checks(["name=seccomp,profile=unconfined"], "x")}
    assert not unconfined["docker seccomp"].ok and unconfined["docker seccomp"].fix
    assert unconfined["docker cleanup"].ok
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent.sock")
    daemon, image = docker_checks("vibecode-sandbox:latest")
    assert not daemon.ok and daemon.fix is not None and "scripts/docker-up" in daemon.fix
    assert not image.ok


def test_image_build_from_a_local_base_and_offline_failure(tmp_path: Path) -> None:
    tag = "vibecode-sandbox-test:build"
    out = vibecode(
        "sandbox", "image", "build", "--tag", tag, "--base", "vibecode-sandbox:latest", cwd=tmp_path
    )
    try:
        assert out.returncode == 0, out.stderr
        assert f"built {tag}" in out.stderr
        from vibecode.sandbox.docker import DockerSandbox

        sb = DockerSandbox(tag)
        (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
        with sb.prepare(tmp_path) as ws:
            result = sb.run(ws, ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"])
        assert result.exit_code == 0 and "1 passed" in result.stdout
    finally:
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True, check=False)
    out = vibecode(
        "sandbox", "image", "build", "--tag", tag, "--base", "vibecode-no-such-base:none"
    )
    assert out.returncode == 5
    assert "failed" in out.stderr and "scripts/docker-up" in out.stderr
