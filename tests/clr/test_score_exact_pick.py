"""Issue 14: within a behaviour cluster the proposal is the member whose outputs most of the
cluster give exactly (``clr.score``). Floats cluster within LeetCode's 1e-5 tolerance
(``clr.compare``), so a product taken through logarithms (``5.000000000000001`` or ``4.999999999999999`` for ``5.0``) joins
the correct answers; found on the dev pool evaluate_division@agree (121-135), where it was the
earliest member and so the one shown as verified, though the package's own assert is exact.

The candidates are real programs run in the real harness on the statement's examples and a few
more inputs (tests/data/leetcode/evaluate_division.json)."""

from __future__ import annotations

import itertools

from tests.clr.leetcode_real import real
from tests.clr.local_exec import execute
from vibecode.clr.harness import build_job, run_job
from vibecode.clr.score import behaviour_tokens, decide, exact_tokens
from vibecode.types import CandidateEvidence

GRAPH_PRODUCT = '''
class Solution:
    def calc_equation(self, equations: list[list[str]], values: list[float], queries: list[list[str]]) -> list[float]:
        edges: dict[str, list[tuple[str, float]]] = {}
        for (a, b), v in zip(equations, values):
            edges.setdefault(a, []).append((b, v))
            edges.setdefault(b, []).append((a, 1.0 / v))
        out = []
        for c, d in queries:
            if c not in edges or d not in edges:
                out.append(-1.0)
                continue
            seen, todo, found = {c}, [(c, 1.0)], -1.0
            while todo:
                x, w = todo.pop()
                if x == d:
                    found = w
                    break
                for y, v in edges[x]:
                    if y not in seen:
                        seen.add(y)
                        todo.append((y, w * v))
            out.append(found)
        return out
'''

WEIGHTED_UNION_FIND = '''
class Solution:
    def calc_equation(self, equations: list[list[str]], values: list[float], queries: list[list[str]]) -> list[float]:
        parent: dict[str, str] = {}
        ratio: dict[str, float] = {}  # x / parent[x]

        def find(x: str) -> str:
            if parent[x] != x:
                root = find(parent[x])
                ratio[x] *= ratio[parent[x]]
                parent[x] = root
            return parent[x]

        for (a, b), v in zip(equations, values):
            for x in (a, b):
                if x not in parent:
                    parent[x], ratio[x] = x, 1.0
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
                ratio[ra] = v * ratio[b] / ratio[a]
        out = []
        for c, d in queries:
            if c not in parent or d not in parent or find(c) != find(d):
                out.append(-1.0)
            else:
                out.append(ratio[c] / ratio[d])
        return out
'''

SUM_OF_LOGS = '''
import math

class Solution:
    def calc_equation(self, equations: list[list[str]], values: list[float], queries: list[list[str]]) -> list[float]:
        edges: dict[str, list[tuple[str, float]]] = {}
        for (a, b), v in zip(equations, values):
            edges.setdefault(a, []).append((b, math.log(v)))
            edges.setdefault(b, []).append((a, -math.log(v)))
        out = []
        for c, d in queries:
            if c not in edges or d not in edges:
                out.append(-1.0)
                continue
            seen, todo, found = {c}, [(c, 0.0)], None
            while todo:
                x, s = todo.pop()
                if x == d:
                    found = s
                    break
                for y, v in edges[x]:
                    if y not in seen:
                        seen.add(y)
                        todo.append((y, s + v))
            out.append(-1.0 if found is None else math.exp(found))
        return out
'''

MORE = [
    {"equations": [["a", "b"], ["b", "c"]], "values": [2.0, 2.5], "queries": [["a", "c"], ["c", "a"], ["b", "b"]]},
    {"equations": [["x1", "x2"], ["x2", "x3"], ["x3", "x4"]], "values": [3.0, 4.0, 5.0],
     "queries": [["x1", "x4"], ["x4", "x1"], ["x2", "x4"], ["x1", "x5"]]},
]


def test_the_member_most_of_its_cluster_agrees_with_exactly_is_shown() -> None:
    problem = real("evaluate_division")
    inputs = [e.inputs for e in problem.examples] + MORE
    n = len(problem.examples)
    runs = {name: run_job(build_job(problem.signature, code, inputs), execute)
            for name, code in (("product", GRAPH_PRODUCT), ("union-find", WEIGHTED_UNION_FIND), ("logs", SUM_OF_LOGS))}
    assert all(r.status == "ok" for rs in runs.values() for r in rs)
    logs = runs["logs"][n].output
    assert isinstance(logs, list) and logs[0] != 5.0 and abs(logs[0] - 5.0) < 1e-9  # a / c: 5.000000000000001
    assert runs["product"][n].output == runs["union-find"][n].output == [5.0, 0.2, 1.0]
    # all three are one cluster (1e-5), and pass every example
    assert len({behaviour_tokens(rs, problem.output_order) for rs in runs.values()}) == 1
    for order in itertools.permutations(runs):  # the logs first, last, between
        evidence = [CandidateEvidence(i, n, n, behaviour_tokens(runs[name], problem.output_order), (),
                                      exact_tokens(runs[name], problem.output_order))
                    for i, name in enumerate(order)]
        d = decide(evidence, k=3)
        assert len(d.clusters) == 1 and d.status != "failed"
        assert d.best is not None and order[d.best] != "logs", order
        assert d.best == min(i for i, name in enumerate(order) if name != "logs")  # ties: the earliest
        # without the exact outputs the old rule shows the earliest member, the logs one included
        plain = decide([CandidateEvidence(e.index, n, n, e.behaviour, ()) for e in evidence], k=3)
        assert plain.best == 0
        assert (plain.status, plain.reliability, plain.clusters[0].members) == (d.status, d.reliability, d.clusters[0].members)


def test_exact_tokens_differ_from_the_clustering_only_in_floats() -> None:
    problem = real("evaluate_division")
    rs = run_job(build_job(problem.signature, SUM_OF_LOGS, MORE), execute)
    assert behaviour_tokens(rs)[0] == "ok:[5, 0.2, 1]"
    assert exact_tokens(rs)[0] == "ok:[\"5.000000000000001\", \"0.19999999999999998\", \"1.0\"]"
    product = run_job(build_job(problem.signature, GRAPH_PRODUCT, MORE), execute)
    assert exact_tokens(product)[0] == "ok:[\"5.0\", \"0.2\", \"1.0\"]"
    assert behaviour_tokens(product) == behaviour_tokens(rs) and exact_tokens(product)[1] != exact_tokens(rs)[1]
