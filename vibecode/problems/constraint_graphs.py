"""Constraint lines about a graph that name no argument ("There is at most one edge between every
two nodes.", "There is at most one road connecting any two intersections.", "The given graph is
connected.", "You can reach any intersection from any other intersection.", "There are no
repeated edges and no self-loops in the graph."), read into checks on the problem's one graph
argument:

- an *edge list*: the one list argument whose rows are 2 or 3 integers (``edges[i] = [ui, vi]``,
  ``roads[i] = [ui, vi, timei]``); the endpoints are the columns the statement names ``u``/``v``,
  ``a``/``b``, ``x``/``y`` or ``from``/``to`` (else the first two);
- an *adjacency list* (a ``Node`` graph given as its rows of neighbours, node ``i + 1`` in row ``i``).

"The prerequisites graph has no cycles." / "The given graph is a directed acyclic graph." (examined:
course_schedule_iv) on a directed edge list: a check, and the ``made`` rule ``acyclic`` (each drawn
edge turned to follow one random order of the nodes, a repeat left out), since blind draws of a few
edges already close cycles, on which right answers differ (a closure by Floyd-Warshall, one by
topological order). On an undirected graph "no cycles" is a forest: checked, not made.

"You can reach any intersection from any other intersection." (examined:
number_of_ways_to_arrive_at_destination) on an undirected edge list with a node count: a check, and
the ``made`` rule ``connected`` (a random spanning tree of the ``n`` nodes and more distinct edges,
as many as were drawn where ``n`` allows, each row keeping the rest of a drawn row: its weight),
since blind draws of a few edges over ``n`` nodes are almost never connected, and the constraint
filter kept 2 of 182 drawn inputs.

Edges are pairs in either order when the statement calls the graph undirected or bidirectional,
ordered otherwise. "Connected" is read over the nodes the input names: ``0..n-1`` or ``1..n`` with
an ``n`` argument (the examples show which), else the endpoints. A check that cannot read an input
says None (undecided), never False.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, acyclic
from vibecode.types import Problem

Test = Callable[[dict[str, object]], bool | None]
Edges = list[tuple[int, int]]
Reader = Callable[[dict[str, object]], tuple[Edges, int | None] | None]

# "at most one road connecting any two intersections" (examined: number_of_ways_to_arrive_at_destination),
# "at most one edge between any pair of vertices"
_REPEATED = re.compile(r"\bno (?:repeated|duplicate) edges\b"
                       r"|\bat most one \w+ (?:between|connecting) (?:every|any|each) (?:two|pair of) \w+", re.I)
_SELF_LOOP = re.compile(r"\bno self-?loops?\b", re.I)
# "You can reach any intersection from any other intersection."
_CONNECTED = re.compile(r"\bgraph is connected\b|\bcan reach (?:any|every) (\w+) from (?:any|every) other \1\b", re.I)
_ACYCLIC = re.compile(r"\bgraph (?:has|contains) no (?:directed )?cycles?\b|\bgraph is (?:a )?(?:directed acyclic graph|dag)\b"
                      r"|\bgraph is acyclic\b", re.I)
# "It is guaranteed that the graph of paths forms a line without any loop, therefore, there will be
# exactly one destination city." (destination_city): the pairs of the named list, as directed
# edges, are one simple path; what follows "therefore" only draws a consequence.
_LINE = re.compile(r"(?:it is guaranteed that )?the graph (?:of|formed by) (?:the )?(\w+) forms? (?:a|one) (?:single )?(?:line|path|chain)"
                   r"(?: without any (?:loops?|cycles?))?(?:,? therefore,? [^.]*)?\s*\.?", re.I)
_ENDPOINTS = (("u", "v"), ("a", "b"), ("x", "y"), ("from", "to"), ("start", "end"))


def read_graph(line: str, params: dict[str, str], c: Constraints, statement: str,
               shown: dict[str, list[object]]) -> bool:
    """Add the check a graph sentence states (see the module doc); False when it is none of them
    or the problem has no single graph argument. ``shown``: each argument's example values."""
    kinds = graph_kinds(line)
    if not kinds:
        return False
    found = _graph_reader(line, params, c, shown)
    if found is None:
        return False
    read, adjacency, edge_list = found
    # an adjacency list holds an undirected edge in both rows: its pairs are ordered
    undirected = not adjacency and bool(re.search(r"\bundirected\b|\bbi-?directional\b", statement, re.I))
    base = _base(params, shown, read)
    count = _count(params)
    for kind in kinds:
        made: tuple[str, str, str] | tuple[()] = ()
        if kind == "acyclic" and edge_list and not undirected:  # (edges, "acyclic", "u,v": the endpoint columns)
            u, v = _endpoint_columns(edge_list, c)
            made = (edge_list, "acyclic", f"{u},{v}")
        if kind == "connected" and edge_list and undirected and count:  # (edges, "connected", "u,v,n,base")
            u, v = _endpoint_columns(edge_list, c)
            made = (edge_list, "connected", f"{u},{v},{count},{base}")
        c.checks.append(Check(line, f"graph: {kind}", _test(kind, read, undirected, base), made=made))
    return True


def _graph_reader(line: str, params: dict[str, str], c: Constraints,
                  shown: dict[str, list[object]]) -> tuple[Reader, bool, str] | None:
    """How to read the edges (and the node count, when an argument gives it) from an input,
    whether they come from an adjacency list, and the edge list's name ("" for an adjacency
    list): the one graph argument, or the one edge list (the one the line names, if several)."""
    count = _count(params)
    graphs = [n for n, k in params.items() if k == "graph"]
    lists = [n for n, k in params.items() if k == "list" and _rows_of_ints(shown.get(n, []))]
    named = [n for n in lists if re.search(rf"\b{re.escape(n)}\b", line)]
    lists = named or lists  # the edge list a line names, beside another list of pairs (queries)
    if len(graphs) == 1 and not lists:
        g = graphs[0]

        def adjacency(args: dict[str, object]) -> tuple[Edges, int | None] | None:
            rows = args.get(g)
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                return None
            return [(i + 1, v) for i, r in enumerate(rows) for v in r if isinstance(v, int)], len(rows)

        return adjacency, True, ""
    if len(lists) != 1:
        return None
    name = lists[0]
    u, v = _endpoint_columns(name, c)

    def edge_list(args: dict[str, object]) -> tuple[Edges, int | None] | None:
        rows = args.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) > max(u, v) for r in rows):
            return None
        if not all(isinstance(r[u], int) and isinstance(r[v], int) for r in rows):
            return None
        n = args.get(count) if count else None
        return [(r[u], r[v]) for r in rows], n if isinstance(n, int) else None

    return edge_list, False, name


def graph_kinds(text: str) -> list[str]:
    """The graph properties ``text`` states, as the kinds of their checks (``graph: <kind>``)."""
    return [k for k, pattern in (("repeated", _REPEATED), ("self", _SELF_LOOP), ("connected", _CONNECTED),
                                 ("acyclic", _ACYCLIC)) if pattern.search(text)]


def _count(params: dict[str, str]) -> str | None:
    """The argument that gives the number of nodes."""
    return next((n for n in ("n", "numCourses", "num_courses") if params.get(n) == "int"), None)


def _rows_of_ints(values: list[object]) -> bool:
    """Every example value is a list of rows of 2 or 3 integers (and some example has a row)."""
    rows = [r for v in values if isinstance(v, list) for r in v]
    return bool(rows) and all(isinstance(v, list) for v in values) and all(
        isinstance(r, list) and 2 <= len(r) <= 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in r)
        for r in rows)


def _endpoint_columns(name: str, c: Constraints) -> tuple[int, int]:
    cols = {alias: k for alias, (n, k) in c.columns.items() if n == name}
    for a, b in _ENDPOINTS:
        ka = next((k for alias, k in cols.items() if re.fullmatch(rf"{a}_?i?", alias)), None)
        kb = next((k for alias, k in cols.items() if re.fullmatch(rf"{b}_?i?", alias)), None)
        if ka is not None and kb is not None and ka != kb:
            return ka, kb
    return 0, 1


def _base(params: dict[str, str], shown: dict[str, list[object]],
          read: Reader) -> int:
    """0 when the examples' nodes are numbered from 0, else 1."""
    names = list(params)
    examples = [dict(zip(names, vals, strict=False)) for vals in zip(*(shown.get(n, []) for n in names), strict=False)]
    for args in examples:
        got = read(args)
        if got and any(0 in e for e in got[0]):
            return 0
    return 1


def _test(kind: str, read: Reader, undirected: bool,
          base: int) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        got = read(args)
        if got is None:
            return None
        edges, n = got
        if kind == "self":
            return all(a != b for a, b in edges)
        if kind == "repeated":
            keys = [(min(a, b), max(a, b)) if undirected else (a, b) for a, b in edges]
            return len(set(keys)) == len(keys)
        if kind == "acyclic":
            return acyclic(edges) if undirected else _dag(edges)
        nodes = set(range(base, base + n)) if n is not None else {x for e in edges for x in e}
        return _connected(nodes, edges)

    return test


def read_line_graph(sentences: list[str], problem: Problem, c: Constraints) -> list[str]:
    """The statement's sentences read as "the graph of X forms a line" (see ``_LINE``), for an
    argument X that is a list of pairs: a check (the pairs are the edges of one simple path) and the
    ``made`` rule ``line`` (the drawn pairs' values, distinct, chained in order, the edges shuffled);
    random pairs almost never form a line, and answers that rely on it differ on those that do not."""
    from vibecode.problems.typespec import parse_type

    pairs = {p.name for p in problem.signature.params
             if (spec := parse_type(p.type).base).kind == "list" and spec.element.kind == "list"
             and spec.element.element.kind in ("int", "str")}
    read = []
    for sentence in sentences:
        m = _LINE.fullmatch(sentence.strip())
        if m and m.group(1) in pairs:
            c.checks.append(Check(sentence, "graph: line", _line_test(m.group(1)), made=(m.group(1), "line", "")))
            read.append(sentence)
    return read


def _line_test(name: str) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        rows = args.get(name)
        if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 2 for r in rows):
            return None
        nxt: dict[object, object] = {}
        ends = set()
        for a, b in rows:
            if a in nxt or b in ends or a == b:  # two paths out of a city, or two into one
                return False
            nxt[a] = b
            ends.add(b)
        starts = [a for a in nxt if a not in ends]
        if len(starts) != 1:
            return False
        at, seen = starts[0], 1
        while at in nxt:
            at, seen = nxt[at], seen + 1
        return seen == len(rows) + 1

    return test


def _dag(edges: Edges) -> bool:
    """No directed cycle (Kahn's algorithm removes every node)."""
    out: dict[int, list[int]] = {}
    indeg: dict[int, int] = {}
    for a, b in edges:
        out.setdefault(a, []).append(b)
        indeg.setdefault(a, 0)
        indeg[b] = indeg.get(b, 0) + 1
    todo = [x for x, d in indeg.items() if d == 0]
    done = 0
    while todo:
        x = todo.pop()
        done += 1
        for y in out.get(x, []):
            indeg[y] -= 1
            if indeg[y] == 0:
                todo.append(y)
    return done == len(indeg)


def _connected(nodes: set[int], edges: Edges) -> bool | None:
    if not nodes:
        return True
    if any(a not in nodes or b not in nodes for a, b in edges):
        return None
    near: dict[int, set[int]] = {x: set() for x in nodes}
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    start = min(nodes)
    seen, todo = {start}, [start]
    while todo:
        for y in near[todo.pop()] - seen:
            seen.add(y)
            todo.append(y)
    return seen == nodes


__all__ = ["read_graph", "read_line_graph"]
