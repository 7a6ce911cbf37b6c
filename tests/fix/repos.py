"""Small buggy repositories and replay pools for the fix tests: what a model might answer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tests.repo.gitutil import git, make_repo, snapshot

FENCE = "```"


def sr(path: str, search: str, replace: str) -> str:
    """One SEARCH/REPLACE block for ``path``."""
    return (f"{path}\n{FENCE}python\n<<<<<<< SEARCH\n{search.strip(chr(10))}\n=======\n"
            f"{replace.strip(chr(10))}\n>>>>>>> REPLACE\n{FENCE}\n")


def answer(reasoning: str, *blocks: str, kind: str = "candidate") -> dict[str, str]:
    return {"kind": kind, "text": f"<think>\n{reasoning}\n</think>\n\n" + "\n".join(blocks)}


GARBAGE = answer("The tests are probably flaky.", "I am not sure what to change here; try running them again.")


@dataclass(frozen=True)
class BuggyRepo:
    name: str
    files: dict[str, str]
    failing: tuple[str, ...]  # node ids that fail before any fix
    pool: list[dict[str, str]]
    correct: frozenset[int]  # candidate indices of correct fixes
    breaks: frozenset[int] = frozenset()  # fixes the failing tests but breaks another
    test_edits: frozenset[int] = frozenset()
    dropped: frozenset[int] = frozenset()  # never becomes a patch
    extra: list[dict[str, str]] = field(default_factory=list)  # retry and verdict lines

    def build(self, root: Path) -> Path:
        make_repo(root, {k: v.encode() for k, v in self.files.items()})
        return root

    def write_pool(self, path: Path) -> Path:
        path.write_text("".join(json.dumps(x) + "\n" for x in [*self.pool, *self.extra]), encoding="utf-8")
        return path


# ---- 1. an off-by-one ------------------------------------------------------------------------

PAGING = '''"""Paging through lists."""


def page(items, number, size):
    """The items of page ``number`` (1-based), ``size`` items a page."""
    start = number * size
    return items[start:start + size]


def page_count(items, size):
    return (len(items) + size - 1) // size
'''

PAGING_TESTS = '''from textkit.paging import page, page_count


def test_first_page():
    assert page([1, 2, 3, 4, 5], 1, 2) == [1, 2]


def test_last_page():
    assert page([1, 2, 3, 4, 5], 3, 2) == [5]


def test_page_count():
    assert page_count([1, 2, 3, 4, 5], 2) == 3


def test_empty():
    assert page([], 1, 3) == []
'''

OFF_BY_ONE = BuggyRepo(
    "off_by_one",
    {"textkit/__init__.py": "", "textkit/paging.py": PAGING, "tests/test_paging.py": PAGING_TESTS,
     "README.md": "# textkit\n"},
    ("tests/test_paging.py::test_first_page", "tests/test_paging.py::test_last_page"),
    [
        # 0: correct
        answer("Pages are 1-based, so page 1 starts at 0: (1 - 1) * 2 = 0.",
               sr("textkit/paging.py", "    start = number * size", "    start = (number - 1) * size")),
        # 1: correct, written differently
        answer("Shift the page number down by one: 3 * 2 = 6 is past the end for page 3, 2 * 2 = 4 is right.",
               sr("textkit/paging.py", "    start = number * size\n    return items[start:start + size]",
                  "    first = size * (number - 1)\n    return items[first:first + size]")),
        # 2: the same patch as 0, other formatting and a comment
        answer("Same idea.", sr("textkit/paging.py", "    start = number * size",
                                "    start = (number-1)*size  # pages count from 1")),
        # 3: fixes page but breaks page_count
        answer("Both functions are off by one.",
               sr("textkit/paging.py", "    start = number * size", "    start = (number - 1) * size"),
               sr("textkit/paging.py", "    return (len(items) + size - 1) // size", "    return len(items) // size")),
        # 4: does not apply (and the retry fixes it)
        answer("Fix the offset.", sr("textkit/paging.py", "    begin = number * size\n    return items[begin:begin + size]",
                                     "    begin = (number - 1) * size\n    return items[begin:begin + size]")),
        # 5: deletes the failing tests
        answer("These tests are wrong; remove them.",
               sr("tests/test_paging.py", "def test_first_page():\n    assert page([1, 2, 3, 4, 5], 1, 2) == [1, 2]\n\n\n"
                  "def test_last_page():\n    assert page([1, 2, 3, 4, 5], 3, 2) == [5]", "")),
        # 6: edits the failing tests to match the bug
        answer("The expected values are wrong: 1 * 2 = 2, so page 1 starts at 2.",
               sr("tests/test_paging.py", "    assert page([1, 2, 3, 4, 5], 1, 2) == [1, 2]",
                  "    assert page([1, 2, 3, 4, 5], 1, 2) == [3, 4]"),
               sr("tests/test_paging.py", "    assert page([1, 2, 3, 4, 5], 3, 2) == [5]",
                  "    assert page([1, 2, 3, 4, 5], 3, 2) == []")),
        # 7: garbage
        GARBAGE,
    ],
    correct=frozenset({0, 1, 2, 4}),
    breaks=frozenset({3}),
    test_edits=frozenset({5, 6}),
    dropped=frozenset({7}),
    extra=[answer("I copied the wrong lines; here they are.",
                  sr("textkit/paging.py", "    start = number * size", "    start = (number - 1) * size"), kind="retry")],
)

# ---- 2. a wrong comparison -------------------------------------------------------------------

STOCK = '''"""Stock levels."""


def needs_restock(level, threshold):
    """True when the level has fallen to the threshold or below."""
    return level < threshold


def restock_list(levels, threshold):
    return sorted(name for name, level in levels.items() if needs_restock(level, threshold))
'''

STOCK_TESTS = '''from inventory.stock import needs_restock, restock_list


def test_below():
    assert needs_restock(2, 5)


def test_above():
    assert not needs_restock(6, 5)


def test_at_threshold():
    assert needs_restock(5, 5)


def test_restock_list():
    assert restock_list({"nails": 5, "screws": 9, "glue": 1}, 5) == ["glue", "nails"]
'''

WRONG_COMPARISON = BuggyRepo(
    "wrong_comparison",
    {"inventory/__init__.py": "", "inventory/stock.py": STOCK, "tests/test_stock.py": STOCK_TESTS},
    ("tests/test_stock.py::test_at_threshold", "tests/test_stock.py::test_restock_list"),
    [
        answer("At the threshold it must restock too, so use <=.",
               sr("inventory/stock.py", "    return level < threshold", "    return level <= threshold")),  # 0
        answer("Flip it around: threshold >= level.",
               sr("inventory/stock.py", "    return level < threshold", "    return threshold >= level")),  # 1
        answer("Off by one: compare with threshold + 1.",
               sr("inventory/stock.py", "    return level < threshold", "    return level <= threshold + 1")),  # 2 breaks test_above
        answer("Use not greater.",
               sr("inventory/stock.py", "    return level < threshold", "    return not level > threshold")),  # 3
        answer("Hmm.", sr("inventory/stock.py", "    return lvl <= thresh", "    return lvl < thresh")),  # 4: no apply, no retry left
        GARBAGE,  # 5
    ],
    correct=frozenset({0, 1, 3}),
    breaks=frozenset({2}),
    dropped=frozenset({4, 5}),
)

# ---- 3. a missing None check -----------------------------------------------------------------

PROFILE = '''"""Showing user profiles."""


def display_name(profile):
    """The profile's name in title case, or its @handle when it has no name (None)."""
    name = profile.get("name")
    return name.strip().title()


def greeting(profile):
    return f"Hello, {display_name(profile)}!"
'''

PROFILE_TESTS = '''from profiles.show import display_name, greeting


def test_plain_name():
    assert display_name({"name": " ada lovelace ", "handle": "ada"}) == "Ada Lovelace"


def test_missing_name():
    assert display_name({"name": None, "handle": "bob"}) == "@bob"


def test_greeting_without_name():
    assert greeting({"name": None, "handle": "eve"}) == "Hello, @eve!"


def test_greeting():
    assert greeting({"name": "max", "handle": "m"}) == "Hello, Max!"
'''

MISSING_NONE = BuggyRepo(
    "missing_none",
    {"profiles/__init__.py": "", "profiles/show.py": PROFILE, "tests/test_show.py": PROFILE_TESTS},
    ("tests/test_show.py::test_missing_name", "tests/test_show.py::test_greeting_without_name"),
    [
        answer("name can be None: return the handle then.",
               sr("profiles/show.py", '    name = profile.get("name")\n    return name.strip().title()',
                  '    name = profile.get("name")\n    if name is None:\n        return "@" + profile["handle"]\n'
                  '    return name.strip().title()')),  # 0
        answer("Guard against a missing name.",
               sr("profiles/show.py", "    return name.strip().title()",
                  '    if not name:\n        return f"@{profile[\'handle\']}"\n    return name.strip().title()')),  # 1
        answer("Always show the handle; it is simpler.",
               sr("profiles/show.py", "    return name.strip().title()", '    return "@" + profile["handle"]')),  # 2 breaks two tests
        answer("Skip the tests that have no name.",
               sr("tests/test_show.py", "def test_missing_name():", "import pytest\n\n\n@pytest.mark.skip\ndef test_missing_name():"),
               sr("tests/test_show.py", "def test_greeting_without_name():", "@pytest.mark.skip\ndef test_greeting_without_name():")),  # 3
        answer("Rewrite it.", sr("profiles/show.py", "    return name.strip().title()", "    return name.strip(.title()")),  # 4 syntax error
        answer("Same guard, in other words: a None name gives the handle.",
               sr("profiles/show.py", "    return name.strip().title()",
                  '    if name is None:\n        return "@" + profile["handle"]  # no name\n    return name.strip().title()')),  # 5 dup of 0
    ],
    correct=frozenset({0, 1, 5}),
    breaks=frozenset({2}),
    test_edits=frozenset({3}),
    dropped=frozenset({4}),
)

# ---- 4. a bug whose naive fix breaks another test --------------------------------------------

STATS = '''"""Small statistics."""


def median(values):
    """The median; the mean of the two middle values for an even count."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid]


def spread(values):
    return max(values) - min(values)
'''

STATS_TESTS = '''from mathx.stats import median, spread


def test_median_odd():
    assert median([3, 1, 2]) == 2


def test_median_even():
    assert median([4, 1, 3, 2]) == 2.5


def test_median_keeps_input():
    values = [3, 1, 2]
    median(values)
    assert values == [3, 1, 2]


def test_spread():
    assert spread([4, 9, 1]) == 8
'''

NAIVE = sr("mathx/stats.py", "    return ordered[mid]", "    return (ordered[mid - 1] + ordered[mid]) / 2")

NAIVE_BREAKS = BuggyRepo(
    "naive_breaks",
    {"mathx/__init__.py": "", "mathx/stats.py": STATS, "tests/test_stats.py": STATS_TESTS},
    ("tests/test_stats.py::test_median_even",),
    [
        answer("Average the two middle values: (2 + 3) / 2 = 2.5.", NAIVE),  # 0 naive: breaks test_median_odd
        answer("Even count: average the middle pair, (2 + 3) / 2 = 2.5.", NAIVE),  # 1 naive, same patch
        answer("The middle two: (2 + 3) / 2 = 2.5.",
               sr("mathx/stats.py", "    return ordered[mid]", "    return (ordered[mid-1]+ordered[mid])/2")),  # 2 naive, same
        answer("Only an even count averages: (2 + 3) / 2 = 2.5, and [1, 2, 3] keeps 2. "
               "The sort makes it O(n log n) time.",
               sr("mathx/stats.py", "    return ordered[mid]",
                  "    if len(ordered) % 2 == 0:\n        return (ordered[mid - 1] + ordered[mid]) / 2\n    return ordered[mid]")),  # 3 correct
        answer("Sort in place, then average: (2 + 3) / 2 = 2.5.",
               sr("mathx/stats.py", "    ordered = sorted(values)\n    mid = len(ordered) // 2\n    return ordered[mid]",
                  "    values.sort()\n    mid = len(values) // 2\n    if len(values) % 2:\n        return values[mid]\n"
                  "    return (values[mid - 1] + values[mid]) / 2")),  # 4 mutates the input
        GARBAGE,  # 5
    ],
    correct=frozenset({3}),
    breaks=frozenset({0, 1, 2, 4}),
    dropped=frozenset({5}),
    extra=[{"kind": "verdict", "text": "<think>\nSorting n values takes n log n steps.\n</think>\n\nVERDICT: TRUE"}],
)

REPOS = (OFF_BY_ONE, WRONG_COMPARISON, MISSING_NONE, NAIVE_BREAKS)


def commit_all(root: Path, message: str = "change") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def state(root: Path) -> tuple[dict[str, tuple[bytes, int]], bytes]:
    """The working tree's files (bytes and modes) and the index file's bytes: fix and precommit
    must leave both exactly as they were."""
    return snapshot(root), (root / ".git" / "index").read_bytes()
