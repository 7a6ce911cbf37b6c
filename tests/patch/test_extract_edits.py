"""Targeted extraction behaviours beyond the corpus: path resolution, locating files, safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.patch.corpus_util import copy_repo
from vibecode.errors import ExtractionError
from vibecode.patch.extract import extract_edits, extract_edits_detailed

SR = "{path}\n```python\n<<<<<<< SEARCH\n            result += price\n=======\n            result += price * qty\n>>>>>>> REPLACE\n```\n"


def test_basename_resolves_to_the_unique_file(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    patch = extract_edits(SR.format(path="cart.py"), root)
    assert patch.paths == ("shop/cart.py",)


def test_block_without_path_is_located_by_its_content(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    answer = "Change this:\n\n" + SR.format(path="").lstrip("\n")
    result = extract_edits_detailed(answer, root)
    assert result.patch.paths == ("shop/cart.py",)
    assert result.format == "search_replace"


def test_headless_diff_is_located_by_its_content(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    answer = "```diff\n@@\n         for name, price, qty in self.items:\n-            result += price\n+            result += price * qty\n```\n"
    assert extract_edits(answer, root).paths == ("shop/cart.py",)


@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", ".git/config"])
def test_paths_outside_the_repository_are_refused(tmp_path: Path, path: str) -> None:
    root = copy_repo("shop", tmp_path)
    answer = f"{path}\n```\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n```\n"
    with pytest.raises(ExtractionError, match=r"outside the repository|climbs out|never edits"):
        extract_edits(answer, root)


def test_unterminated_search_replace_block_is_explained(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    answer = "shop/cart.py\n<<<<<<< SEARCH\n            result += price\n=======\n            result += price * qty\n"
    with pytest.raises(ExtractionError, match="never ends"):
        extract_edits(answer, root)


def test_restating_current_code_changes_nothing(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    answer = "shop/pricing.py\n```python\n<<<<<<< SEARCH\ndef legacy_discount(amount):\n=======\ndef legacy_discount(amount):\n>>>>>>> REPLACE\n```\n"
    with pytest.raises(ExtractionError, match="leave every file as it was"):
        extract_edits(answer, root)


def test_mixed_formats_in_one_answer(tmp_path: Path) -> None:
    root = copy_repo("shop", tmp_path)
    diff = (
        "```diff\n--- a/shop/pricing.py\n+++ b/shop/pricing.py\n@@ -1 +1 @@\n"
        '-CODES = {"SAVE10": 0.10, "SAVE20": 0.20}\n+CODES = {"SAVE10": 0.10}\n```\n'
    )
    result = extract_edits_detailed(SR.format(path="shop/cart.py") + "\nand\n\n" + diff, root)
    assert set(result.patch.paths) == {"shop/cart.py", "shop/pricing.py"}
    assert result.format == "search_replace+diff"
