"""The failure classes of held-out 201-225 (examined in the sixth session), each on its real
statement in the rendered form (tests/data/leetcode) with the hand-written answers of its pool,
run in the real harness:

- destination_city: "It is guaranteed that the graph of paths forms a line without any loop" was
  an ungenerated promise; random pairs are no line, and on them the two right answers differ (the
  first city not a source, the end of the walk from the first path), so each candidate was a
  cluster of its own. The paths are now made one line, the edges shuffled;
- course_schedule_iv: "The prerequisites graph has no cycles." was not read (cycles split the
  right answers), and "0 <= ui, vi <= numCourses - 1" / "ui != vi" were read as columns of
  ``prerequisites`` (the only list with ``[i].length == 2``) where the statement writes
  ``queries[j] = [uj, vj]``: queries named courses 0..2 only, or a course twice. The edges are now
  made to follow one order of the courses, and ``ui`` is the statement's ``uj``;
- crawler_log_folder: "logs[i] follows the format described in the statement." was not read, so
  logs were random strings over ``a-z0-9./`` and never ``"../"``; every answer agreed and none of
  the inputs counted. The logs are now made of the forms the statement lists (``'../'``,
  ``'./'``, ``'x/'`` with a folder name of the names line's characters).
"""

from __future__ import annotations

import itertools
import re

from tests.clr.leetcode_real import generated, outputs, read_and_sound, real
from vibecode.clr.inputs import validate_input
from vibecode.problems.constraints import parse_constraints

CITY_SOURCES = """
class Solution:
    def dest_city(self, paths: list[list[str]]) -> str:
        sources = {a for a, _ in paths}
        for _, b in paths:
            if b not in sources:
                return b
        return ""
"""
CITY_WALK = """
class Solution:
    def dest_city(self, paths: list[list[str]]) -> str:
        nxt = {a: b for a, b in paths}
        cur = paths[0][0]
        while cur in nxt:
            cur = nxt[cur]
        return cur
"""
CITY_LAST = """
class Solution:
    def dest_city(self, paths: list[list[str]]) -> str:
        return paths[-1][1]
"""
CITY_ONE_PASS = """
class Solution:
    def dest_city(self, paths: list[list[str]]) -> str:
        sources: set[str] = set()
        cand = ""
        for a, b in paths:
            sources.add(a)
            if b not in sources:
                cand = b
        return cand
"""


def _is_line(paths: list[list[str]]) -> bool:
    nxt = dict(map(tuple, paths))  # type: ignore[arg-type]
    starts = set(nxt) - set(nxt.values())
    if len(nxt) != len(paths) or len(set(nxt.values())) != len(paths) or len(starts) != 1:
        return False
    at, seen = starts.pop(), 1
    while at in nxt:
        at, seen = nxt[at], seen + 1
    return seen == len(paths) + 1


def test_paths_that_form_a_line_are_made_so() -> None:
    p = read_and_sound("destination_city")
    made = generated(p)
    assert all(_is_line(x["paths"]) for x in made)  # type: ignore[arg-type]
    assert any(len(x["paths"]) > 2 for x in made)  # type: ignore[arg-type]
    right = outputs(p, CITY_SOURCES, made)
    assert right == outputs(p, CITY_WALK, made)  # both right: they agree on lines
    assert right != outputs(p, CITY_LAST, made)  # the edges come shuffled
    assert right != outputs(p, CITY_ONE_PASS, made)
    assert validate_input({"paths": [["A", "B"], ["C", "D"]]}, p)  # two lines
    assert validate_input({"paths": [["A", "B"], ["B", "A"]]}, p)  # a loop
    assert validate_input({"paths": [["A", "B"], ["A", "C"]]}, p)  # a fork


COURSES_CLOSURE = """
class Solution:
    def check_if_prerequisite(self, numCourses: int, prerequisites: list[list[int]], queries: list[list[int]]) -> list[bool]:
        n = numCourses
        reach = [[False] * n for _ in range(n)]
        for a, b in prerequisites:
            reach[a][b] = True
        for k in range(n):
            for i in range(n):
                if reach[i][k]:
                    for j in range(n):
                        if reach[k][j]:
                            reach[i][j] = True
        return [reach[u][v] for u, v in queries]
"""
COURSES_TOPOLOGICAL = """
class Solution:
    def check_if_prerequisite(self, numCourses: int, prerequisites: list[list[int]], queries: list[list[int]]) -> list[bool]:
        from collections import deque
        n = numCourses
        adj: list[list[int]] = [[] for _ in range(n)]
        indeg = [0] * n
        for a, b in prerequisites:
            adj[a].append(b)
            indeg[b] += 1
        anc: list[set[int]] = [set() for _ in range(n)]
        q = deque(i for i in range(n) if indeg[i] == 0)
        while q:
            u = q.popleft()
            for v in adj[u]:
                anc[v].add(u)
                anc[v] |= anc[u]
                indeg[v] -= 1
                if indeg[v] == 0:
                    q.append(v)
        return [u in anc[v] for u, v in queries]
"""
COURSES_MEMO_PER_COURSE = """
class Solution:
    def check_if_prerequisite(self, numCourses: int, prerequisites: list[list[int]], queries: list[list[int]]) -> list[bool]:
        adj: list[list[int]] = [[] for _ in range(numCourses)]
        for a, b in prerequisites:
            adj[a].append(b)
        memo: dict[int, bool] = {}

        def dfs(u: int, target: int) -> bool:
            if u in memo:
                return memo[u]
            res = False
            for v in adj[u]:
                if v == target or dfs(v, target):
                    res = True
                    break
            memo[u] = res
            return res

        return [dfs(u, v) for u, v in queries]
"""


def _acyclic(n: int, edges: list[list[int]]) -> bool:
    reach = {(a, b) for a, b in edges}
    for k, i, j in itertools.product(range(n), repeat=3):
        if (i, k) in reach and (k, j) in reach:
            reach.add((i, j))
    return all((x, x) not in reach for x in range(n))


def test_a_column_the_statement_indexes_by_j_is_read_where_a_line_writes_i() -> None:
    c = parse_constraints(real("course_schedule_iv"))  # "queries[j] = [uj, vj]"; "0 <= ui, vi <= numCourses - 1"
    assert c.columns["ui"] == ("queries", 0) and c.columns["vi"] == ("queries", 1)
    assert c.columns["ai"] == ("prerequisites", 0) and "aj" not in c.columns  # never i -> j ("xi != xj": two rows)


def test_a_prerequisites_graph_without_cycles_is_made_so() -> None:
    p = read_and_sound("course_schedule_iv")
    made = generated(p)
    for x in made:
        n, pre, queries = x["numCourses"], x["prerequisites"], x["queries"]
        assert _acyclic(n, pre)  # type: ignore[arg-type]
        assert len({tuple(e) for e in pre}) == len(pre)  # type: ignore[arg-type, union-attr]
        assert all(0 <= u < n and 0 <= v < n and u != v for u, v in queries)  # type: ignore[operator, union-attr]
    assert max(max(q) for x in made for q in x["queries"]) > 2  # type: ignore[union-attr]  # not courses 0..2 only
    right = outputs(p, COURSES_CLOSURE, made)
    assert right == outputs(p, COURSES_TOPOLOGICAL, made)  # both right: they agree without cycles
    assert right != outputs(p, COURSES_MEMO_PER_COURSE, made)
    assert validate_input({"numCourses": 3, "prerequisites": [[0, 1], [1, 2], [2, 0]], "queries": [[0, 1]]}, p)
    assert validate_input({"numCourses": 3, "prerequisites": [[0, 1]], "queries": [[1, 1]]}, p)  # ui != vi
    assert validate_input({"numCourses": 3, "prerequisites": [[0, 1]], "queries": [[0, 5]]}, p)  # vi <= numCourses - 1


LOGS_DEPTH = """
class Solution:
    def min_operations(self, logs: list[str]) -> int:
        depth = 0
        for log in logs:
            if log == "../":
                depth = max(0, depth - 1)
            elif log != "./":
                depth += 1
        return depth
"""
LOGS_STACK = """
class Solution:
    def min_operations(self, logs: list[str]) -> int:
        stack: list[str] = []
        for log in logs:
            if log == "../":
                if stack:
                    stack.pop()
            elif log == "./":
                continue
            else:
                stack.append(log[:-1])
        return len(stack)
"""
LOGS_UP_AT_MAIN_IS_A_CHILD = """
class Solution:
    def min_operations(self, logs: list[str]) -> int:
        depth = 0
        for log in logs:
            if log == "../" and depth > 0:
                depth -= 1
            elif log != "./":
                depth += 1
        return depth
"""


def test_logs_are_made_of_the_forms_the_statement_lists() -> None:
    p = read_and_sound("crawler_log_folder")
    made = generated(p)
    logs = [s for x in made for s in x["logs"]]  # type: ignore[attr-defined]
    assert all(re.fullmatch(r"\.\./|\./|[a-z0-9]+/", s) for s in logs), logs
    assert {"../", "./"} <= set(logs) and any(s not in ("../", "./") for s in logs)
    right = outputs(p, LOGS_DEPTH, made)
    assert right == outputs(p, LOGS_STACK, made)
    assert right != outputs(p, LOGS_UP_AT_MAIN_IS_A_CHILD, made)  # "../" in the main folder
    assert validate_input({"logs": ["d1/", "abc"]}, p) and validate_input({"logs": [".../"]}, p)
    assert validate_input({"logs": ["D1/"]}, p)  # folder names are lowercase letters and digits
