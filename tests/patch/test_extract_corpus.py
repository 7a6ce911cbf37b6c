"""The messy-output corpus: every case gives its expected code/edit, or an error that says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.patch.corpus_util import Case, copy_repo, load_cases, tree_bytes
from vibecode.engine.text import split_thinking
from vibecode.errors import PatchError
from vibecode.patch.extract import extract_code, extract_edits

CASES = load_cases()


def test_corpus_is_large_and_varied() -> None:
    assert len(CASES) >= 40
    assert sum(c.kind == "code" for c in CASES) >= 15
    assert sum(c.kind == "edit" for c in CASES) >= 15
    assert sum(c.error is not None for c in CASES) >= 8
    assert any("\r\n" in c.text for c in CASES)
    assert all("<think>" in c.text for c in CASES)


def _answer(case: Case) -> str:
    _, answer = split_thinking(case.text)
    return answer


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "code"], ids=lambda c: c.name)
def test_code_case(case: Case) -> None:
    answer = _answer(case)
    if case.error:
        with pytest.raises(PatchError) as info:
            extract_code(answer, case.entry)
        assert case.error in info.value.message
        return
    expected = (case.folder / "expected.py").read_text(encoding="utf-8")
    assert extract_code(answer, case.entry) == expected
    # Handed the whole completion, the reasoning (with its decoys) is still ignored.
    assert extract_code(case.text, case.entry) == expected


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "edit"], ids=lambda c: c.name)
def test_edit_case(case: Case, tmp_path: Path) -> None:
    root = copy_repo(str(case.meta["repo"]), tmp_path)
    before = tree_bytes(root)
    answer = _answer(case)
    if case.error:
        with pytest.raises(PatchError) as info:
            extract_edits(answer, root)
        assert case.error in info.value.message
        assert tree_bytes(root) == before
        return
    patch = extract_edits(answer, root)
    assert tree_bytes(root) == before, "extraction must not write"
    expected_dir = case.folder / "expected"
    expected = tree_bytes(expected_dir) if expected_dir.is_dir() else {}
    new = {c.path: c.new.encode("utf-8", "surrogateescape") for c in patch.changes if c.new is not None}
    deleted = sorted(c.path for c in patch.changes if c.new is None)
    assert new == expected
    assert deleted == sorted(case.meta.get("deleted", []))  # type: ignore[arg-type]
    for change in patch.changes:
        old = before.get(change.path)
        assert (change.old.encode("utf-8", "surrogateescape") if change.old is not None else None) == old
