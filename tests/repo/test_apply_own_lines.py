"""`vibecode apply` (strict): a hunk's context must be among the user's own lines, never in the
lines an earlier hunk of the same patch wrote. Found by the exactness property test
(tests/repo/test_apply_exact_property.py): the user had replaced the line the second hunk
expects, the first hunk wrote that very line, and the second hunk then matched it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibecode.errors import ApplyError
from vibecode.patch.extract import extract_edits_detailed
from vibecode.repo.workspace import apply_patch

PATCH = """\
--- a/m.py
+++ b/m.py
@@ -1,4 +1,2 @@
-def f(a, b):
-def f(a, b):
-def f(a, b):
+    return a - b
 def f(a, b):
@@ -6 +4,4 @@
     return a - b
+def f(a, b):
+def f(a, b):
+    return a - b
"""
ORIGINAL = "def f(a, b):\n" * 5 + "    return a - b\n"


def _apply(root: Path, text: str) -> None:
    apply_patch(root, extract_edits_detailed(PATCH, root, strict=True).patch)


def test_a_hunk_never_matches_what_the_hunk_before_it_wrote(tmp_path: Path) -> None:
    user = "def f(a, b):\n" * 6  # the user replaced the last line, which the second hunk expects
    (tmp_path / "m.py").write_text(user)
    with pytest.raises(ApplyError):
        _apply(tmp_path, PATCH)
    assert (tmp_path / "m.py").read_text() == user  # refused, not a byte changed
    assert not (tmp_path / ".vibecode").exists()


def test_the_same_patch_applies_to_the_file_it_was_made_from(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(ORIGINAL)
    _apply(tmp_path, PATCH)
    assert (tmp_path / "m.py").read_text() == (
        "    return a - b\ndef f(a, b):\ndef f(a, b):\n    return a - b\ndef f(a, b):\ndef f(a, b):\n    return a - b\n")


def test_a_search_text_is_unique_among_the_users_lines_not_among_what_the_patch_wrote(tmp_path: Path) -> None:
    # the second SEARCH/REPLACE block's text is unique in the file; the first block writes a
    # second copy of it, which made the patch "ambiguous" and refused it on its own file
    from tests.repo.test_apply_exact_property import _patch_text, _text

    original = ["def f(a, b):"] * 3 + ["    return a * b", "def f(a, b):", "    return a - b"]
    patched = ["def f(a, b):"] * 3 + ["    return a - b", "    return a * b", "def f(a, b):"] + ["    return a - b"] * 2
    text, hunks = _patch_text("search_replace", original, patched)
    assert len(hunks) == 2
    (tmp_path / "m.py").write_text(_text(original))
    apply_patch(tmp_path, extract_edits_detailed(text, tmp_path, strict=True).patch)
    assert (tmp_path / "m.py").read_text() == _text(patched)
