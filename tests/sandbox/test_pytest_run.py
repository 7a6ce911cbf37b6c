"""run_pytest on both backends: per-test outcomes that stay honest when a candidate misbehaves."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from vibecode.sandbox.base import Sandbox
from vibecode.sandbox.pytest_run import RUN_DIR, run_pytest
from vibecode.types import TestReport as Report


@pytest.fixture
def project() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="vibecode-proj-") as root:
        path = Path(root)
        (path / "tests").mkdir()
        yield path


def _run(sandbox: Sandbox, project: Path, files: dict[str, str], **kwargs: object) -> Report:
    for rel, text in files.items():
        target = project / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    with sandbox.prepare(project) as ws:
        report = run_pytest(sandbox, ws, autoload_plugins=False, **kwargs)  # type: ignore[arg-type]
        assert not (ws.path / RUN_DIR).exists()
    return report


def _outcomes(report: Report) -> dict[str, str]:
    return {c.nodeid: c.outcome for c in report.cases}


MIXED = """
import pytest

def test_pass():
    assert 1 + 1 == 2

def test_fail():
    assert 1 + 1 == 3, "arithmetic is broken"

@pytest.mark.skip(reason="not today")
def test_skip():
    pass

@pytest.fixture
def broken():
    raise RuntimeError("fixture exploded")

def test_setup_error(broken):
    pass

@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False

class TestGroup:
    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n > 0
"""


def test_outcomes_durations_and_messages(sandbox: Sandbox, project: Path) -> None:
    report = _run(sandbox, project, {"tests/test_mixed.py": MIXED})
    f = "tests/test_mixed.py"
    assert _outcomes(report) == {
        f"{f}::test_pass": "passed",
        f"{f}::test_fail": "failed",
        f"{f}::test_skip": "skipped",
        f"{f}::test_setup_error": "error",
        f"{f}::test_xfail": "skipped",
        f"{f}::TestGroup::test_param[1]": "passed",
        f"{f}::TestGroup::test_param[2]": "passed",
    }
    assert report.complete and report.collection_error is None
    assert report.run.exit_code == 1
    messages = {c.nodeid: c.message for c in report.cases}
    assert "arithmetic is broken" in messages[f"{f}::test_fail"]
    assert "fixture exploded" in messages[f"{f}::test_setup_error"]
    assert "not today" in messages[f"{f}::test_skip"]
    assert all(c.duration_s >= 0 for c in report.cases)


def test_selected_tests_only(sandbox: Sandbox, project: Path) -> None:
    report = _run(
        sandbox, project, {"tests/test_mixed.py": MIXED}, tests=["tests/test_mixed.py::test_pass"]
    )
    assert _outcomes(report) == {"tests/test_mixed.py::test_pass": "passed"}
    assert report.complete and report.run.exit_code == 0


def test_broken_collection_is_reported_without_passes(sandbox: Sandbox, project: Path) -> None:
    files = {
        "tests/test_ok.py": "def test_fine():\n    assert True\n",
        "tests/test_broken.py": "def test_x(:\n    pass\n",
    }
    report = _run(sandbox, project, files)
    assert report.passed == ()
    assert report.collection_error is not None
    assert "test_broken" in report.collection_error
    assert "SyntaxError" in report.collection_error or "invalid syntax" in report.collection_error
    assert report.run.exit_code == 2


def test_garbage_output_does_not_fool_the_report(sandbox: Sandbox, project: Path) -> None:
    garbage = r"""
import sys

FAKE = b"<testsuite><testcase classname='x' name='test_fake'/></testsuite> PASSED [100%]"

def test_prints_garbage():
    sys.stdout.buffer.write(bytes(range(256)) * 50 + FAKE + b"\x00\x1b[31m]]>")
    sys.stderr.buffer.write(b"\xff\xfe" * 1000 + FAKE)
    print("tests/test_garbage.py::test_fails PASSED")

def test_fails():
    print("\x00<failure/>&&<<")
    assert False, "real failure \x01\x02 with control characters"
"""
    report = _run(sandbox, project, {"tests/test_garbage.py": garbage})
    assert _outcomes(report) == {
        "tests/test_garbage.py::test_prints_garbage": "passed",
        "tests/test_garbage.py::test_fails": "failed",
    }
    assert report.complete
    assert "real failure" in report.cases[1].message


def test_os_exit_mid_session_keeps_what_is_known(sandbox: Sandbox, project: Path) -> None:
    code = """
import os

def test_a_first():
    assert True

def test_b_exits():
    os._exit(0)

def test_c_never_runs():
    assert True
"""
    report = _run(sandbox, project, {"tests/test_exit.py": code})
    assert report.run.exit_code == 0  # the process "succeeded": exactly what must not fool us
    assert not report.complete
    outcomes = _outcomes(report)
    assert outcomes == {
        "tests/test_exit.py::test_a_first": "passed",
        "tests/test_exit.py::test_b_exits": "error",
    }
    assert "exited with code 0" in report.cases[1].message
    assert report.passed == ("tests/test_exit.py::test_a_first",)


def test_deleted_report_gives_no_passes(sandbox: Sandbox, project: Path) -> None:
    conftest = """
import atexit, os, shutil, sys

def _wipe():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            shutil.rmtree(os.path.dirname(arg.split("=", 1)[1]), ignore_errors=True)

atexit.register(_wipe)
"""
    files = {"tests/conftest.py": conftest, "tests/test_x.py": "def test_ok():\n    assert True\n"}
    report = _run(sandbox, project, files)
    assert report.run.exit_code == 0
    assert report.cases == ()
    assert report.passed == ()
    assert not report.complete


def test_forged_report_and_os_exit_invent_no_passes(sandbox: Sandbox, project: Path) -> None:
    code = """
import os, sys

FORGED = '<testsuites><testsuite name="pytest" tests="3">' + ''.join(
    '<testcase classname="tests.test_forge" name="test_%d" file="tests/test_forge.py" time="0.1"/>' % i
    for i in range(3)) + '</testsuite></testsuites>'

def test_forges_then_exits():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            with open(arg.split("=", 1)[1], "w") as fh:
                fh.write(FORGED)
    os._exit(0)
"""
    report = _run(sandbox, project, {"tests/test_forge.py": code})
    assert report.passed == ()
    assert not report.complete
    assert _outcomes(report) == {"tests/test_forge.py::test_forges_then_exits": "error"}


def test_garbled_report_falls_back_to_the_event_log(sandbox: Sandbox, project: Path) -> None:
    conftest = """
import atexit, sys

def _garble():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            with open(arg.split("=", 1)[1], "wb") as fh:
                fh.write(b"<testsuites><testcase name='x'>\\x00\\xff garbage")

atexit.register(_garble)
"""
    files = {
        "tests/conftest.py": conftest,
        "tests/test_y.py": "def test_ok():\n    pass\n\ndef test_bad():\n    assert 0\n",
    }
    report = _run(sandbox, project, files)
    assert not report.complete
    assert _outcomes(report) == {
        "tests/test_y.py::test_ok": "passed",
        "tests/test_y.py::test_bad": "failed",
    }


def test_timeout_keeps_finished_tests_and_marks_the_hanging_one(
    sandbox: Sandbox, project: Path
) -> None:
    code = "import time\n\ndef test_quick():\n    pass\n\ndef test_hangs():\n    time.sleep(60)\n"
    report = _run(sandbox, project, {"tests/test_t.py": code}, timeout=4)
    assert report.run.timed_out
    assert not report.complete
    assert _outcomes(report) == {
        "tests/test_t.py::test_quick": "passed",
        "tests/test_t.py::test_hangs": "error",
    }
    assert "timed out" in report.cases[1].message


def test_missing_test_path_is_a_usage_error(sandbox: Sandbox, project: Path) -> None:
    report = _run(
        sandbox, project, {"tests/test_a.py": "def test_a():\n    pass\n"}, tests=["tests/nope.py"]
    )
    assert report.cases == ()
    assert report.run.exit_code == 4
    assert report.collection_error is not None and "nope.py" in report.collection_error
