"""The solution file vibecode writes is the program it verified: imports included, the method
form of the problem, no adapter, runnable with plain ``python`` (issue 17, item 3)."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from vibecode.clr.harness import SOLUTION_FILE, build_job
from vibecode.problems.entry_adapter import extract_entry
from vibecode.problems.solution_file import complete_solution
from vibecode.types import Param, Signature

COINS = Signature("coinChange", (Param("coins", "List[int]"), Param("amount", "int")), "int", class_name="Solution")
LINKED = Signature("reverseList", (Param("head", "Optional[ListNode]"),), "Optional[ListNode]", class_name="Solution")


def _imports(code: str) -> list[str]:
    return [ast.unparse(n) for n in ast.parse(code).body if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_only_the_names_the_code_uses_are_imported() -> None:
    code = (
        "class Solution:\n"
        "    def coinChange(self, coins: List[int], amount: int) -> int:\n"
        "        seen = defaultdict(int)\n"
        "        queue = deque([0])\n"
        "        heapq.heapify(coins)\n"
        "        return -1 if amount > inf else len(seen) + len(queue) - 1\n"
    )
    out = complete_solution(code, COINS)
    assert _imports(out) == ["import heapq", "from typing import List",
                             "from collections import defaultdict, deque", "from math import inf"]
    assert out.endswith(code)
    assert complete_solution(out, COINS) == out  # idempotent: the harness may complete it again


@pytest.mark.parametrize(("body", "expected"), [
    ("return bisect(coins, amount)", "from bisect import bisect"),  # the function, as LeetCode offers it
    ("return bisect.bisect_left(coins, amount)", "import bisect"),  # the module
])
def test_bisect_is_the_function_when_called_and_the_module_when_its_attributes_are_read(body: str, expected: str) -> None:
    code = f"class Solution:\n    def coinChange(self, coins: list, amount: int) -> int:\n        {body}\n"
    out = complete_solution(code, COINS)
    assert _imports(out) == [expected]
    namespace: dict[str, object] = {}
    exec(compile(out, "solution.py", "exec"), namespace)  # the written file runs on its own
    solution = namespace["Solution"]()  # type: ignore[operator]
    assert solution.coinChange([1, 3, 5], 4) == 2  # bisect and bisect_left agree here


def test_code_that_imports_what_it_uses_is_left_alone_but_for_its_ending() -> None:
    code = "from typing import *\n\nclass Solution:\n    def coinChange(self, coins: List[int], amount: int) -> int:\n        return 0   \n\n\n"
    assert complete_solution(code, COINS) == code.rstrip() + "\n"


def test_a_plain_function_becomes_a_real_method_with_its_recursion() -> None:
    code = (
        "def coinChange(coins, amount):\n"
        '    """Fewest coins.\n'
        "  (this docstring line keeps its text)\"\"\"\n"
        "    if amount == 0:\n"
        "        return 0\n"
        "    options = [coinChange(coins, amount - c) for c in coins if c <= amount]\n"
        "    options = [o for o in options if o >= 0]\n"
        "    return min(options) + 1 if options else -1\n"
        "\n"
        "print(coinChange([1, 2], 3))\n"
    )
    out = complete_solution(code, COINS)
    assert "_vibecode" not in out and out.startswith("class Solution:\n    def coinChange(self, coins, amount):\n")
    assert "self.coinChange(coins, amount - c)" in out and "print(Solution().coinChange([1, 2], 3))" in out
    assert "  (this docstring line keeps its text)\"\"\"" in out.split("\n")
    namespace: dict[str, object] = {}
    exec(compile(out, "solution.py", "exec"), namespace)  # prints 2
    solution = namespace["Solution"]
    assert solution().coinChange([2, 5], 11) == 4  # type: ignore[operator]
    assert complete_solution(out, COINS) == out


def test_a_function_that_kept_the_starters_self_keeps_one_self() -> None:
    code = "def coinChange(self, coins, amount):\n    return 0 if amount == 0 else coinChange(self, coins, 0) + 1\n"
    out = complete_solution(code, COINS)
    assert "def coinChange(self, coins, amount):" in out and "self.coinChange(coins, 0)" in out
    namespace: dict[str, object] = {}
    exec(out, namespace)
    assert namespace["Solution"]().coinChange([1], 5) == 1  # type: ignore[operator]


def test_linked_lists_get_leetcodes_node_class_only_when_the_code_uses_it() -> None:
    uses = "class Solution:\n    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:\n        return head\n"
    out = complete_solution(uses, LINKED)
    assert _imports(out) == ["from typing import Optional"]
    assert out.count("class ListNode:") == 1 and out.index("class ListNode") < out.index("class Solution")
    assert complete_solution(out, LINKED) == out
    bare = "class Solution:\n    def reverseList(self, head):\n        return head\n"
    assert complete_solution(bare, LINKED) == bare
    own = "class ListNode:\n    pass\n\n" + uses
    assert complete_solution(own, LINKED).count("class ListNode") == 1


def test_the_harness_runs_exactly_the_text_extract_entry_reports() -> None:
    answer = "```python\ndef coinChange(coins: List[int], amount: int) -> int:\n    return -1\n```\n"
    code, note = extract_entry(answer, COINS)
    assert note is not None and "wrapped in class Solution as its method" in note
    job = build_job(COINS, code, [{"coins": [1], "amount": 1}])
    assert job.files[SOLUTION_FILE] == code == job.code
    runner = job.files["_vibecode_runner.py"]
    assert "from typing import *" not in runner and "PRELUDE" not in runner


@pytest.mark.parametrize("code", [
    "def coinChange(coins, amount)\n    return 0\n",  # does not parse: handed on for the harness to report
    "class Solution:\n\tdef coinChange(self, coins, amount):\n\t\treturn Counter(coins)[amount]\n",  # tabs
])
def test_odd_code_still_gives_one_stable_file(code: str) -> None:
    out = complete_solution(code, COINS)
    assert out == complete_solution(out, COINS) and out.endswith("\n") and not out.endswith("\n\n")


def test_the_completed_file_imports_under_plain_python(tmp_path: object) -> None:
    code = complete_solution(
        "def coinChange(coins: List[int], amount: int) -> int:\n"
        "    @lru_cache(None)\n"
        "    def go(a):\n"
        "        return 0 if a == 0 else min((go(a - c) + 1 for c in coins if c <= a), default=inf)\n"
        "    best = go(amount)\n"
        "    return -1 if best == inf else best\n",
        COINS,
    )
    run = subprocess.run([sys.executable, "-I", "-c", code + "\nprint(Solution().coinChange([1, 2, 5], 11))\n"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "3"
