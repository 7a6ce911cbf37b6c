"""Matching levels, precise failures that quote the file, and the supersede rule."""

from __future__ import annotations

import pytest

from vibecode.errors import ApplyError
from vibecode.patch.apply import apply_edits
from vibecode.patch.edits import Edit

FILE = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        x = 2\n        return x\n"


def _apply(content: str, *edits: Edit) -> tuple[str | None, list[str]]:
    result = apply_edits(list(edits), files={"m.py": content})
    new = result.patch.changes[0].new if result.patch.changes else content
    return new, [o.level for o in result.outcomes]


def test_exact() -> None:
    new, levels = _apply(FILE, Edit("m.py", "replace", "        return 10\n", "        return 1\n"))
    assert levels == ["exact"]
    assert new == FILE.replace("return 1\n", "return 10\n")


def test_uniform_indent_offset_is_reindented() -> None:
    edit = Edit("m.py", "replace", "def g(self):\n    y = 3\n    return y\n", "def g(self):\n    x = 2\n    return x\n")
    new, levels = _apply(FILE, edit)
    assert levels == ["whitespace"]
    assert new == FILE.replace("        x = 2\n        return x\n", "        y = 3\n        return y\n")


def test_trailing_whitespace_and_crlf() -> None:
    crlf = FILE.replace("\n", "\r\n")
    edit = Edit("m.py", "replace", "        return 5\n", "        return 1   \n")
    new, levels = _apply(crlf, edit)
    assert levels == ["whitespace"]
    assert new == crlf.replace("return 1\r\n", "return 5\r\n")


def test_fuzzy_unique_match() -> None:
    edit = Edit("m.py", "replace", "    def g(self):\n        return 2\n", "    def g(self):\n        x = 2  # two\n        return x\n")
    new, levels = _apply(FILE, edit)
    assert levels == ["fuzzy"]
    assert new == FILE.replace("        x = 2\n        return x\n", "        return 2\n")


def test_missing_match_quotes_closest_lines() -> None:
    edit = Edit("m.py", "replace", "pass\n", "    def h(self):\n        z = 2\n        return z + 1\n", origin="SEARCH/REPLACE block at answer line 4")
    with pytest.raises(ApplyError) as info:
        _apply(FILE, edit)
    message = info.value.message
    assert "does not match" in message and "answer line 4" in message
    assert "closest lines are 5-7" in message
    assert "6 |         x = 2" in message


def test_ambiguous_match_lists_places() -> None:
    content = "a = 1\nb = 2\na = 1\n"
    with pytest.raises(ApplyError, match=r"matches 2 places \(starting at lines 1, 3\)"):
        _apply(content, Edit("m.py", "replace", "a = 3\n", "a = 1\n"))


def test_hint_line_breaks_ties() -> None:
    content = "a = 1\nb = 2\na = 1\n"
    new, _ = _apply(content, Edit("m.py", "replace", "a = 3\n", "a = 1\n", hint_line=2))
    assert new == "a = 1\nb = 2\na = 3\n"


def test_already_applied_is_reported() -> None:
    with pytest.raises(ApplyError, match="applied already"):
        _apply(FILE, Edit("m.py", "replace", "        return 1\n", "        return 99\n"))


def test_later_edit_of_same_region_supersedes_earlier() -> None:
    first = Edit("m.py", "replace", "        return 2\n", "        return 1\n")
    second = Edit("m.py", "replace", "        return 3\n", "        return 1\n")
    result = apply_edits([first, second], files={"m.py": FILE})
    assert result.patch.changes[0].new == FILE.replace("return 1\n", "return 3\n")
    assert [o.superseded for o in result.outcomes] == [True, False]


def test_sequential_edits_that_build_on_each_other() -> None:
    first = Edit("m.py", "replace", "        return 2\n", "        return 1\n")
    second = Edit("m.py", "replace", "        return 2 + 0\n", "        return 2\n")
    new, _ = _apply(FILE, first, second)
    assert new == FILE.replace("return 1\n", "return 2 + 0\n")


def test_no_newline_at_end_is_kept() -> None:
    new, _ = _apply("x = 1\ny = 2", Edit("m.py", "replace", "y = 3\n", "y = 2\n"))
    assert new == "x = 1\ny = 3"


def test_create_delete_and_search_in_missing_file() -> None:
    result = apply_edits([Edit("new.py", "create", "x = 1\n"), Edit("m.py", "delete")], files={"new.py": None, "m.py": FILE})
    assert {c.path: c.new for c in result.patch.changes} == {"new.py": "x = 1\n", "m.py": None}
    with pytest.raises(ApplyError, match="does not exist"):
        apply_edits([Edit("nope.py", "replace", "b", "a")], files={"nope.py": None})
    with pytest.raises(ApplyError, match="already exists"):
        apply_edits([Edit("m.py", "create", "other\n")], files={"m.py": FILE})
