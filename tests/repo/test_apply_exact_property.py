"""`vibecode apply` never loses a user's edit: the patch's context must be in the file verbatim.

Property: for random files, random user edits after the patch was made, and random patches
(unified diffs and SEARCH/REPLACE blocks), applying either writes exactly the patch applied to
verbatim copies of its expected text, or refuses and changes no byte of the folder.
"""

from __future__ import annotations

import difflib
import itertools
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.repo.gitutil import GIT_ENV, snapshot
from vibecode.errors import ApplyError
from vibecode.patch.extract import extract_edits_detailed
from vibecode.repo.workspace import apply_patch

ROOT = Path(__file__).resolve().parents[2]
LINES = ["def f(a, b):", "    return a - b", "    return a * b", "    return a + b", "", "x = 1", "x = 2", "# note"]
line = st.sampled_from(LINES)
content = st.lists(line, min_size=1, max_size=10)


def _text(lines: list[str]) -> str:
    return "".join(f"{ln}\n" for ln in lines)


@st.composite
def _change(draw: st.DrawFn, base: list[str]) -> list[str]:
    """``base`` with a few lines replaced, inserted or deleted."""
    out = list(base)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        if kind == "insert" or not out:
            out.insert(draw(st.integers(0, len(out))), draw(line))
        elif kind == "replace":
            out[draw(st.integers(0, len(out) - 1))] = draw(line)
        elif len(out) > 1:
            del out[draw(st.integers(0, len(out) - 1))]
    return out


def _hunks(diff: list[str]) -> list[tuple[list[str], list[str]]]:
    """(expected lines, new lines) of each hunk of a difflib unified diff."""
    hunks: list[tuple[list[str], list[str]]] = []
    for row in diff[2:]:
        if row.startswith("@@"):
            hunks.append(([], []))
            continue
        kind, body = row[0], row[1:].rstrip("\n")
        if kind in " -":
            hunks[-1][0].append(body)
        if kind in " +":
            hunks[-1][1].append(body)
    return hunks


def _occurrences(lines: list[str], block: list[str]) -> list[int]:
    return [i for i in range(len(lines) - len(block) + 1) if lines[i : i + len(block)] == block]


def _exact_results(user: list[str], hunks: list[tuple[list[str], list[str]]], ordered: bool = True) -> set[str]:
    """Every text obtainable by replacing, for each hunk, one verbatim copy of its expected lines
    in ``user`` by its new lines (copies must not overlap; ``ordered``: a diff's hunks keep their
    order in the file, SEARCH/REPLACE blocks need not)."""
    results: set[str] = set()
    options = [_occurrences(user, old) if old else [] for old, _ in hunks]
    for starts in itertools.product(*options):
        spans = sorted((s, s + len(h[0]), h[1]) for s, h in zip(starts, hunks, strict=True))
        if ordered and list(starts) != sorted(starts):
            continue
        if any(spans[i][1] > spans[i + 1][0] for i in range(len(spans) - 1)):
            continue
        out: list[str] = []
        pos = 0
        for start, end, new in spans:
            out += user[pos:start] + new
            pos = end
        results.add(_text(out + user[pos:]))
    return results


def _patch_text(fmt: str, original: list[str], patched: list[str]) -> tuple[str, list[tuple[list[str], list[str]]]]:
    diff = list(difflib.unified_diff(_text(original).splitlines(True), _text(patched).splitlines(True), "a/m.py", "b/m.py", n=1))
    hunks = _hunks(diff)
    if fmt == "diff":
        return "".join(diff), hunks
    blocks = "".join(
        "m.py\n<<<<<<< SEARCH\n" + _text(old) + "=======\n" + _text(new) + ">>>>>>> REPLACE\n" for old, new in hunks
    )
    return blocks, hunks


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), fmt=st.sampled_from(["diff", "search_replace"]))
def test_apply_is_exact_or_refuses_without_writing(data: st.DataObject, fmt: str) -> None:
    original = data.draw(content, label="original")
    patched = data.draw(_change(original), label="patched")
    if patched == original:
        return
    user_edited = data.draw(st.booleans(), label="user edited")
    user = data.draw(_change(original), label="user") if user_edited else original
    text, hunks = _patch_text(fmt, original, patched)
    if any(not old or not "".join(old).strip() for old, _ in hunks):
        return  # pure insertions without context (or blank-only context) are not what this tests
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "m.py").write_text(_text(user))
        before = snapshot(root)
        try:
            extracted = extract_edits_detailed(text, root, strict=True)
            apply_patch(root, extracted.patch)
        except ApplyError as refusal:
            assert snapshot(root) == before, "a refusal changed the folder"
            assert not (root / ".vibecode").exists()
            unique = all(len(_occurrences(original, old)) == 1 for old, _ in hunks)
            if fmt == "diff" or unique:  # SEARCH/REPLACE has no line numbers to break ties
                assert user != original, f"a patch made from this very file was refused: {refusal}"
            return
        result = (root / "m.py").read_text()
        assert result in _exact_results(user, hunks, ordered=fmt == "diff"), (
            f"applied loosely:\nuser:\n{_text(user)}\nresult:\n{result}\npatch:\n{text}"
        )
        if user == original:
            assert result == _text(patched)


def test_a_hunk_whose_context_is_left_only_above_the_hunk_before_it_is_refused(tmp_path: Path) -> None:
    """Found by the property above (CI, 2026-12-07): the user's edit left the second hunk's context
    ("return a - b" then "def f(a, b):") only above the first hunk's place, and the hunk was
    applied there, out of the diff's order, in lines the patch never meant. Now it is refused."""
    user = ["def f(a, b):", "def f(a, b):", "    return a - b", "def f(a, b):", "    return a - b",
            "    return a - b", "def f(a, b):"]
    diff = ("--- a/m.py\n+++ b/m.py\n@@ -3,2 +3,3 @@\n     return a - b\n+def f(a, b):\n     return a - b\n"
            "@@ -7,2 +8,2 @@\n     return a - b\n-def f(a, b):\n+    return a - b\n")
    (tmp_path / "m.py").write_text(_text(user))
    before = snapshot(tmp_path)
    try:
        apply_patch(tmp_path, extract_edits_detailed(diff, tmp_path, strict=True).patch)
    except ApplyError:
        assert snapshot(tmp_path) == before
    else:
        raise AssertionError("applied:\n" + (tmp_path / "m.py").read_text())


def _vibecode(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vibecode", *args], cwd=cwd, env={**GIT_ENV, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )


CALC = "def mul(a, b):\n    return a - b\n\n\ndef add(a, b):\n    return a + b\n"
CALC_DIFF = (
    "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def mul(a, b):\n-    return a - b\n+    return a - b  # fixed\n"
)


def test_apply_refuses_conflicting_edit_with_a_diff_and_fuzzy_applies_on_request(tmp_path: Path) -> None:
    """The issue's case: the user's `return a * b` where the patch expects `return a - b`."""
    from tests.repo.gitutil import make_repo

    repo = make_repo(tmp_path / "repo", {"calc.py": CALC.encode()})
    user = CALC.replace("a - b", "a * b")
    (repo / "calc.py").write_text(user)
    (tmp_path / "fix.diff").write_text(CALC_DIFF)
    before = snapshot(repo)
    refused = _vibecode("apply", str(tmp_path / "fix.diff"), cwd=repo)
    assert refused.returncode == 6, refused.stderr
    assert "Traceback" not in refused.stderr
    assert "does not match the file exactly" in refused.stderr
    assert "-    return a - b" in refused.stderr and "+    return a * b" in refused.stderr
    assert "--fuzzy" in refused.stderr
    assert snapshot(repo) == before
    fuzzy = _vibecode("apply", str(tmp_path / "fix.diff"), "--fuzzy", cwd=repo)
    assert fuzzy.returncode == 0, fuzzy.stderr
    assert "-    return a * b" in fuzzy.stdout and "Matched loosely" in fuzzy.stdout
    assert (repo / "calc.py").read_text() == CALC.replace("a - b", "a - b  # fixed", 1)
    undone = _vibecode("undo", cwd=repo)
    assert undone.returncode == 0, undone.stderr
    assert (repo / "calc.py").read_text() == user
