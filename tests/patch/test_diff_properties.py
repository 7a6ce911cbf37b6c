"""Property tests: a rendered diff applies back exactly, with our parser and with `git apply`."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from vibecode.patch.diff import render_diff
from vibecode.patch.extract import extract_edits
from vibecode.patch.text import decode, encode
from vibecode.types import FileChange, Patch

# Lines drawn from a small alphabet so that diffs have long common runs and real hunks; "-" and
# "+" make lines that look like diff headers once prefixed. No "<" or "`": those would make the
# diff look like SEARCH/REPLACE markers or fences to the answer parser.
_LINE = st.text(alphabet="ab -+\t\xe9", max_size=6)
_ENDING = st.sampled_from(["\n", "\n", "\n", "\r\n"])
_RAW = st.sampled_from(["\udcff", "\udc80x", ""])  # undecodable bytes, as surrogateescape gives them


@st.composite
def contents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.tuples(_LINE, _RAW, _ENDING), max_size=14))
    text = "".join(line + raw + end for line, raw, end in lines)
    if text and draw(st.booleans()):
        text = text.rstrip("\r\n")  # no newline at the end
    return text


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """(a, b) where b is a with a few random line edits (so contexts are realistic)."""
    a = draw(contents())
    lines = a.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        new = draw(_LINE) + draw(_RAW)
        if op == "replace" and lines:
            lines[at] = new
        elif op == "insert":
            lines.insert(at, new)
        elif lines:
            del lines[at]
    b = "\n".join(lines)
    if draw(st.booleans()):
        b = draw(contents())  # sometimes a completely different file
    return a, b


def _git_apply(a: str, diff: str) -> bytes:
    folder = Path(tempfile.mkdtemp(prefix="vc-prop-"))
    try:
        (folder / "f.txt").write_bytes(encode(a))
        (folder / "p.diff").write_bytes(encode(diff))
        check = subprocess.run(["git", "apply", "--check", "p.diff"], cwd=folder, capture_output=True, text=True)
        assert check.returncode == 0, check.stderr + "\n" + diff
        subprocess.run(["git", "apply", "p.diff"], cwd=folder, check=True, capture_output=True)
        return (folder / "f.txt").read_bytes()
    finally:
        shutil.rmtree(folder)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_diff_then_apply_gives_b(pair: tuple[str, str]) -> None:
    a, b = pair
    assume(a != b)
    diff = render_diff(Patch((FileChange("f.txt", a, b),)))
    folder = Path(tempfile.mkdtemp(prefix="vc-prop-"))
    try:
        (folder / "f.txt").write_bytes(encode(a))
        patch = extract_edits(diff, folder)
        assert len(patch.changes) == 1
        assert encode(patch.changes[0].new or "") == encode(b)
        assert encode(patch.changes[0].old or "") == encode(a)
    finally:
        shutil.rmtree(folder)


@settings(max_examples=80, deadline=None)
@given(edited())
def test_git_apply_accepts_rendered_diff(pair: tuple[str, str]) -> None:
    a, b = pair
    assume(a != b)
    diff = render_diff(Patch((FileChange("f.txt", a, b),)))
    assert _git_apply(a, diff) == encode(b)


@settings(max_examples=40, deadline=None)
@given(contents())
def test_git_apply_created_and_deleted_files(text: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="vc-prop-"))
    try:
        (folder / "old.txt").write_bytes(encode(text))
        patch = Patch((FileChange("new dir/new.txt", None, text), FileChange("old.txt", text, None)))
        (folder / "p.diff").write_bytes(encode(render_diff(patch)))
        check = subprocess.run(["git", "apply", "--check", "p.diff"], cwd=folder, capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        subprocess.run(["git", "apply", "p.diff"], cwd=folder, check=True)
        assert not (folder / "old.txt").exists()
        assert (folder / "new dir" / "new.txt").read_bytes() == encode(text)
    finally:
        shutil.rmtree(folder)


def test_surrogateescape_is_lossless() -> None:
    data = bytes(range(256)) + b"\r\n\xff\xfe"
    assert encode(decode(data)) == data
