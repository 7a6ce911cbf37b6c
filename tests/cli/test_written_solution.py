"""``solve --out`` writes, byte for byte, the program the harness verified, and that file runs on
its own with plain ``python`` (issue 17, item 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, run_cli
from tests.solve.pools import candidate, write_pool
from vibecode.problems.entry_adapter import extract_entry
from vibecode.problems.statement import parse_problem
from vibecode.tui.review import apply_solution, save_text

PLAIN = '''
def coinChange(coins: List[int], amount: int) -> int:
    best = [0] + [inf] * amount
    for value in range(1, amount + 1):
        for coin in coins:
            if coin <= value:
                best[value] = min(best[value], best[value - coin] + 1)
    return -1 if best[amount] == inf else best[amount]
'''

REVERSE = '''
class Solution:
    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
        prev = None
        while head:
            head.next, prev, head = prev, head, head.next
        return prev
'''

CHECK_COINS = '''
import importlib.util, sys
spec = importlib.util.spec_from_file_location("solution", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
s = mod.Solution()
assert [s.coinChange([1, 2, 5], 11), s.coinChange([2], 3), s.coinChange([1], 0)] == [3, -1, 0]
print("ok")
'''

CHECK_REVERSE = '''
import importlib.util, sys
spec = importlib.util.spec_from_file_location("solution", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
head = None
for v in reversed([1, 2, 3, 4, 5]):
    head = mod.ListNode(v, head)
node, out = mod.Solution().reverseList(head), []
while node:
    out.append(node.val); node = node.next
assert out == [5, 4, 3, 2, 1], out
print("ok")
'''


def _solve_out(tmp_path: Path, problem: str, code: str) -> tuple[bytes, str]:
    pool = write_pool(tmp_path / "pool.jsonl", [candidate("r", code)])
    target = tmp_path / "solution.py"
    out = run_cli("solve", problem, "--engine", f"replay:{pool}", "--n", "1", "--json-events",
                  "--no-model-checks", "--out", str(target))
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    parsed = [e for e in events if e["event"] == "CandidateParsed"]
    assert len(parsed) == 1 and parsed[0]["parsed"]
    return target.read_bytes(), parsed[0]["code"]


def _run_plain(tmp_path: Path, checker: str, solution: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "check.py"
    script.write_text(checker, encoding="utf-8")
    return subprocess.run([sys.executable, "-I", str(script), str(solution)], capture_output=True,
                          text=True, timeout=60, check=False, cwd=tmp_path)


def test_a_plain_function_answer_is_written_as_the_method_with_its_imports(tmp_path: Path) -> None:
    written, verified = _solve_out(tmp_path, "examples/coin_change.md", PLAIN)
    assert written == verified.encode("utf-8")
    text = written.decode()
    assert "from typing import List" in text and "from math import inf" in text
    assert "class Solution:" in text and "_vibecode" not in text
    run = _run_plain(tmp_path, CHECK_COINS, tmp_path / "solution.py")
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_a_linked_list_solution_brings_its_node_class(tmp_path: Path) -> None:
    written, verified = _solve_out(tmp_path, "examples/reverse_linked_list.md", REVERSE)
    assert written == verified.encode("utf-8")
    assert b"from typing import Optional" in written and written.count(b"class ListNode:") == 1
    run = _run_plain(tmp_path, CHECK_REVERSE, tmp_path / "solution.py")
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_the_tuis_apply_and_save_write_the_same_bytes(tmp_path: Path) -> None:
    problem = parse_problem((REPO / "examples/coin_change.md").read_text(encoding="utf-8"))
    code, _ = extract_entry(f"```python\n{PLAIN}```\n", problem.signature)
    apply_solution(tmp_path, Path("solution.py"), code)
    saved = save_text(tmp_path, "saved.py", code)
    assert (tmp_path / "solution.py").read_bytes() == code.encode("utf-8") == saved.read_bytes()
