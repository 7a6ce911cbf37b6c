"""read_back: a FIFO, a symlink to /dev/zero, a huge file or a folder never hang nor exhaust memory.

Also end to end: a candidate that leaves a FIFO at $VIBECODE_JUNIT (fix's suite run) and at the
harness's result file (solve) in the real sandbox; both return at once with no report.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.sandbox.helpers import get_backend
from vibecode.fix.suite import parse_test_cmd, run_tests
from vibecode.sandbox.readback import read_back, read_back_text


def test_fifo_symlink_folder_and_missing_are_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "dir").mkdir()
    for name in ("fifo", "zero", "dir", "missing"):
        assert read_back(tmp_path / name) is None, name


def test_oversized_file_is_capped(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"a" * (3 << 20))
    data = read_back(big, cap=1 << 20)
    assert data is not None and len(data) == (1 << 20) + 1  # one byte more: the caller sees the cut
    text = read_back_text(big, cap=1000)
    assert text == "a" * 1000


def test_fifo_at_vibecode_junit_does_not_hang(source: Path) -> None:
    sb = get_backend("local")
    cmd = parse_test_cmd(
        "python3 -c \"import os; os.mkfifo(os.environ['VIBECODE_JUNIT'])\"", autoload_plugins=False
    )
    with sb.prepare(source) as ws:
        report = run_tests(sb, ws, cmd, timeout=60)
    assert report.cases == () and not report.complete
    assert "no JUnit XML" in (report.collection_error or "")


def test_fifo_as_the_harness_result_file_does_not_hang() -> None:
    from vibecode.clr.execute import CandidateRunner
    from vibecode.clr.harness import RESULT_FILE
    from vibecode.types import Param, Signature

    code = (
        "import os\n"
        f"os.unlink({RESULT_FILE!r}); os.mkfifo({RESULT_FILE!r})\n"
        "def add(a: int, b: int) -> int:\n    return a + b\n"
    )
    runner = CandidateRunner(get_backend("local"), per_input_timeout_s=2.0)
    sig = Signature("add", (Param("a", "int"), Param("b", "int")), "int")
    results = runner.run(sig, {0: code}, {0: [{"a": 1, "b": 2}]})
    # Before read_back, the host's open() of the FIFO blocked forever; now the run returns,
    # with one honest result for the one input.
    assert len(results[0]) == 1
    assert results[0][0].index == 0
