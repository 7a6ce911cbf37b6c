"""The one-process harness, run with real subprocesses on hostile candidates."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.clr.local_exec import execute
from vibecode.clr.harness import (
    HarnessJob,
    RawRun,
    build_job,
    parse_results,
    remaining_job,
    run_job,
)
from vibecode.types import Param, Signature

SIG = Signature("f", (Param("n", "int"),), "int", class_name="Solution")
HOSTILE = '''
import os, sys
print("noise at import time")

class Solution:
    def f(self, n):
        print("garbage output", n)
        sys.stdout.write("more garbage\\n")
        os.write(1, b"raw fd garbage\\n")
        if n == 1:
            while True:
                pass
        if n == 2:
            raise ValueError("bad input")
        if n == 3:
            sys.exit(3)
        if n == 4:
            os._exit(1)
        if n == 5:
            return {1, 2}
        if n == 6:
            return float("nan")
        if n == 7:
            return (n, [n])
        if n == 8:
            return 10 ** 30
        if n == 9:
            return 1 / 0
        return n * 2
'''


def recording(runs: list[RawRun]) -> Callable[[HarnessJob], RawRun]:
    """``execute``, keeping each process's RawRun."""

    def run(job: HarnessJob) -> RawRun:
        runs.append(execute(job))
        return runs[-1]

    return run


def test_hostile_candidate_one_process() -> None:
    inputs = [{"n": i} for i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]
    job = build_job(SIG, HOSTILE, inputs, per_input_timeout_s=0.5)
    runs: list[RawRun] = []
    results = run_job(job, recording(runs))
    # One process answered every input and ended on its own: the endless loop cost its own
    # per-input alarm, never the job's process-level time limit (nor a restart).
    assert [(r.timed_out, r.exit_code) for r in runs] == [(False, 0)]
    by_n = {inputs[r.index]["n"]: r for r in results}
    assert [r.index for r in results] == list(range(len(inputs)))
    assert by_n[0].status == "ok" and by_n[0].output == 0
    assert "garbage output 0" in by_n[0].stdout
    assert by_n[1].status == "timeout" and by_n[1].error == "no answer within 0.5 s"
    assert by_n[1].duration_s >= 0.4  # the runner's own record: it ran until its alarm
    assert by_n[2].status == "error" and "ValueError: bad input" in by_n[2].error and "line 14" in by_n[2].error
    assert by_n[3].status == "error" and "exit(3)" in by_n[3].error
    assert by_n[4].status == "error" and "exit(1)" in by_n[4].error
    assert by_n[5].output == [1, 2]
    assert by_n[6].status == "ok" and by_n[6].output != by_n[6].output  # NaN survives as NaN
    assert by_n[7].output == [7, [7]]
    assert by_n[8].output == 10**30
    assert by_n[9].status == "error" and "ZeroDivisionError" in by_n[9].error
    assert by_n[10].output == 20


def test_killed_process_is_restarted_for_the_rest() -> None:
    code = '''
import os, signal
class Solution:
    def f(self, n):
        if n == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return n + 100
'''
    job = build_job(SIG, code, [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 3}], per_input_timeout_s=1)
    first = parse_results(job, execute(job))
    assert [r.status for r in first] == ["ok", "error", "not_run", "not_run"]
    assert "signal 9" in first[1].error
    rest = remaining_job(job, first)
    assert rest is not None and rest.indices == (2, 3)
    results = run_job(job, execute)
    assert [(r.status, r.output) for r in results] == [("ok", 100), ("error", None), ("ok", 102), ("ok", 103)]


def test_swallowed_timeouts_hit_the_process_limit() -> None:
    code = '''
import time
class Solution:
    def f(self, n):
        if n == 1:
            while True:
                try:
                    time.sleep(10)
                except BaseException:
                    pass
        return n
'''
    job = build_job(SIG, code, [{"n": 0}, {"n": 1}, {"n": 2}], per_input_timeout_s=0.3, load_timeout_s=1.0)
    results = run_job(job, execute)
    assert results[0].status == "ok"
    assert results[1].status == "timeout"
    assert results[2].status == "ok" and results[2].output == 2


def test_load_errors_and_missing_entry_points() -> None:
    for code, words in [
        ("def broken(:\n", "SyntaxError"),
        ("raise RuntimeError('at import')\n", "RuntimeError: at import"),
        ("class Other:\n    pass\n", "no class Solution"),
        ("class Solution:\n    def g(self, n):\n        return n\n", "has no method f"),
        ("import sys\nsys.exit(0)\n", "exit(0)"),
    ]:
        job = build_job(SIG, code, [{"n": 1}, {"n": 2}], per_input_timeout_s=0.5)
        results = run_job(job, execute)
        assert [r.status for r in results] == ["error", "error"]
        assert all(words in r.error and "did not load" in r.error for r in results), results


def test_linked_lists_trees_and_in_place() -> None:
    sig = Signature("reverseList", (Param("head", "Optional[ListNode]"),), "Optional[ListNode]", class_name="Solution")
    code = '''
class Solution:
    def reverseList(self, head: Optional[ListNode]) -> Optional[ListNode]:
        prev = None
        while head:
            head.next, prev, head = prev, head, head.next
        return prev
'''
    results = run_job(build_job(sig, code, [{"head": [1, 2, 3]}, {"head": []}]), execute)
    assert [r.output for r in results] == [[3, 2, 1], []]

    sig = Signature("invert", (Param("root", "Optional[TreeNode]"),), "Optional[TreeNode]", class_name="Solution")
    code = '''
class TreeNode:  # the candidate's own definition, old LeetCode style
    def __init__(self, x):
        self.val = x
        self.left = None
        self.right = None

class Solution:
    def invert(self, root):
        if root:
            root.left, root.right = self.invert(root.right), self.invert(root.left)
        return root
'''
    results = run_job(build_job(sig, code, [{"root": [4, 2, 7, 1, 3, None, 9]}, {"root": []}]), execute)
    assert [r.output for r in results] == [[4, 7, 2, 9, None, 3, 1], []]

    sig = Signature("mergeKLists", (Param("lists", "List[Optional[ListNode]]"),), "Optional[ListNode]", class_name="Solution")
    code = '''
class Solution:
    def mergeKLists(self, lists):
        vals = sorted(v for node in lists for v in self.walk(node))
        head = None
        for v in reversed(vals):
            head = ListNode(v, head)
        return head
    def walk(self, node):
        while node:
            yield node.val
            node = node.next
'''
    results = run_job(build_job(sig, code, [{"lists": [[1, 4], [2], []]}]), execute)
    assert results[0].output == [1, 2, 4]

    sig = Signature("sortColors", (Param("nums", "List[int]"),), "None", class_name="Solution")
    code = "class Solution:\n    def sortColors(self, nums):\n        nums.sort()\n"
    results = run_job(build_job(sig, code, [{"nums": [2, 0, 1]}]), execute)
    assert results[0].output == [0, 1, 2]


def test_candidate_node_class_with_an_unusual_constructor() -> None:
    sig = Signature("total", (Param("head", "ListNode"),), "int", class_name="Solution")
    code = '''
class ListNode:
    def __init__(self, val, next, extra):
        self.val, self.next = val, next

class Solution:
    def total(self, head):
        s = 0
        while head:
            s, head = s + head.val, head.next
        return s
'''
    results = run_job(build_job(sig, code, [{"head": [1, 2, 3]}]), execute)
    assert (results[0].status, results[0].output) == ("ok", 6)


def test_plain_function_and_cyclic_output() -> None:
    sig = Signature("make", (Param("n", "int"),), None)
    code = '''
def make(n):
    if n == 0:
        a = ListNode(1)
        a.next = a
        return a
    return [n] * n
'''
    results = run_job(build_job(sig, code, [{"n": 0}, {"n": 2}]), execute)
    assert results[0].status == "error" and "cycle" in results[0].error
    assert results[1].output == [2, 2]


def test_parse_results_from_stdout_and_from_nothing() -> None:
    job = build_job(SIG, "class Solution:\n    def f(self, n):\n        return n\n", [{"n": 5}])
    raw = execute(job)
    from_stdout = parse_results(job, RawRun(raw.stdout, result_text=None))
    assert [(r.status, r.output) for r in from_stdout] == [("ok", 5)]
    forged = json.dumps({"event": "result", "i": 0, "status": "ok", "output": 99, "nonce": "other"})
    nothing = parse_results(job, RawRun(forged + "\n", stderr="python3: not found", exit_code=127))
    assert nothing[0].status == "error" and "no results" in nothing[0].error and "not found" in nothing[0].error
    killed = parse_results(job, RawRun("", exit_code=None, timed_out=True))
    assert killed[0].status == "error" and "time limit" in killed[0].error


def test_job_shape() -> None:
    job = build_job(SIG, "x = 1\n", [{"n": 1}], per_input_timeout_s=2, python="python3")
    assert job.argv == ("python3", "-I", "_vibecode_runner.py", "_vibecode_spec.json")
    assert set(job.files) == {"solution.py", "_vibecode_runner.py", "_vibecode_spec.json"}
    assert job.timeout_s >= 2 and job.result_file == "_vibecode_results.jsonl"
    spec = json.loads(job.files["_vibecode_spec.json"])
    assert spec["inputs"] == [[1]] and spec["class_name"] == "Solution"


def test_a_looping_candidate_costs_a_few_timeouts_only() -> None:
    code = "class Solution:\n    def f(self, n):\n        while True:\n            pass\n"
    job = build_job(SIG, code, [{"n": i} for i in range(8)], per_input_timeout_s=0.2, max_timeouts=2)
    runs: list[RawRun] = []
    results = run_job(job, recording(runs))
    assert [(r.timed_out, r.exit_code) for r in runs] == [(False, 0)]  # one process, not killed
    assert [r.status for r in results] == ["timeout"] * 8
    # Only two inputs were run (each to its 0.2 s alarm); the other six were never started.
    assert [r.error for r in results[:2]] == ["no answer within 0.2 s"] * 2
    assert all("already timed out on 2" in r.error and r.duration_s == 0.0 for r in results[2:])
