"""bubblewrap's own setup failures (seen on a busy machine) are retried, not blamed on the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibecode.sandbox import local
from vibecode.sandbox.local import LocalSandbox
from vibecode.sandbox.process import ProcessOutcome

SETUP_ERROR = b"bwrap: Can't bind mount /oldroot/etc on /newroot/etc: Invalid argument\n"


def _outcome(stderr: bytes, reported: bool, exit_code: int = 1) -> ProcessOutcome:
    return ProcessOutcome(exit_code, None, False, b"", stderr, 0, len(stderr), 0.01, None, (), reported)


def test_only_bwrap_setup_errors_count() -> None:
    bwrap = LocalSandbox(isolation="bwrap").mode
    assert local._setup_failed(bwrap, _outcome(SETUP_ERROR, reported=False))
    assert not local._setup_failed(bwrap, _outcome(SETUP_ERROR, reported=True))  # the command ran
    assert not local._setup_failed(bwrap, _outcome(b"Traceback ...", reported=False))


def test_a_run_whose_setup_failed_once_is_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sandbox = LocalSandbox(isolation="bwrap")
    real = local.run_process
    calls = []

    def flaky(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:  # the first setup fails, as bwrap's mounts sometimes do under load
            return _outcome(SETUP_ERROR, reported=False)
        return real(*args, **kwargs)

    monkeypatch.setattr(local, "run_process", flaky)
    (tmp_path / "x.txt").write_text("hi")
    with sandbox.prepare(tmp_path) as ws:
        result = sandbox.run(ws, [sandbox.python, "-c", "print(open('x.txt').read())"])
    assert len(calls) == 2
    assert result.exit_code == 0 and result.stdout.strip() == "hi"
