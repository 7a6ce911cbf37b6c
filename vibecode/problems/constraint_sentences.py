"""More constraint sentences read into checks (validators) or into plain constraint lines.

:func:`in_symbols` rewrites a range said in words into the symbolic line the bound reader knows:
"x is an integer in the range [a, b]", "amount[i] is an even integer in the range [-10^4, 10^4]"
-> ``a <= x <= b``. :func:`read_sentence` reads the sentences below into :class:`Check` s that
generation filters with (a check that cannot decide an input says None, never False):

- a number written as a string: "n is representing an integer in the range [1, 10^18 - 1]",
  "left and right represent integers in the range [1, 10^18 - 1]";
- even/odd items: "amount[i] is an even integer ...";
- a value set with a range: "commands[i] is either -2, -1, or an integer in the range [1, 9]",
  "board[i][j] is either -1 or in the range [1, n^2]";
- characters: "s does not contain '"' or '\\'", "The only space character in s is ' '",
  "s starts with a letter", "letters contains at least two different characters";
- counts: "There is exactly one '@' in the grid", "The number of 1's in the grid is in the range
  [1, 6000]", "There will be at most 20 parentheses in s", "text consists of at most 10 words",
  "nums consists of equal number of positive and negative integers";
- graphs and lists of lists: "graph[u] does not contain u", "If graph[u] contains v, then
  graph[v] contains u", "The number of edges in the graph will be in the range [1, 4 * 10^4]",
  "There will be at most 10^5 integers in all the arrays", "sum(wall[i]) is the same for each row
  i", "sequences[i] is a subsequence of nums", "edges represents a valid tree" (nodes 0..len(edges)),
  "There are no two adjacent flowers in flowerbed";
- order: "nums is an ascending array that is possibly rotated", "nums is sorted and rotated between
  1 and n times";
- "Sum of values is divisible by k"; "timePoints[i] is in the format "HH:MM"".

A sentence that only permits ("The graph may contain self-loops", "There can be multiple ghosts
in the same location") constrains nothing; it is understood as such (generation already allows it).
"""

from __future__ import annotations

import collections
import itertools
import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints, acyclic, number

Test = Callable[[dict[str, object]], bool | None]
_RANGE = r"\[\s*([^,\]]+?)\s*,\s*([^\]]+?)\s*\]"


def _leaves(v: object) -> list[object]:
    if isinstance(v, list):
        return [x for item in v for x in _leaves(item)]
    return [v]


def _add(c: Constraints, line: str, kind: str, test: Test, made: tuple[str, str, str] | tuple[()] = ()) -> bool:
    c.checks.append(Check(line, kind, test, made=made))
    return True


def in_symbols(line: str, params: dict[str, str]) -> str | None:
    """A range in words as a symbolic line, for the bound reader; None when it is not one."""
    text = re.sub(r"<sub>(\w+)</sub>", r"\1", line).strip().rstrip(".").strip()
    m = re.fullmatch(rf"(\w+(?:\[\w\])*) is (?:an? )?(?:(?:even|odd|positive|non-negative) )?(?:integer |number |value )?"
                     rf"(?:in the range|between) {_RANGE}", text, re.I)
    if not m or m.group(1).split("[")[0] not in params or params[m.group(1).split("[")[0]] == "str":
        return None
    lo, hi = m.group(2), m.group(3)
    if number(lo) is None and number(hi) is None:
        return None
    return f"{lo} <= {m.group(1)} <= {hi}"


def read_sentence(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Read one sentence into ``c``; False when no reader knows it."""
    text = re.sub(r"<sub>(\w+)</sub>", r"\1", line).strip().rstrip(".").strip()
    low = text.lower()
    names = [n for n in params if re.search(rf"\b{re.escape(n)}\b", text)]
    return any(reader(text, low, names, params, c, line) for reader in _READERS)


def _permission(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    return bool(re.fullmatch(r"(?:the (?:given )?)?(?:graph|input|tree|\w+) may (?:contain|have) [\w\s,-]+|"
                             r"there can be multiple \w+ in the same (?:location|position|cell)", low))


def _number_string(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    m = re.fullmatch(rf"(\w+(?: and \w+)?) (?:is representing|represents?|is) (?:an )?integers? in the range {_RANGE}", text)
    if not m:
        return False
    subjects = [w for w in m.group(1).split(" and ") if params.get(w) == "str"]
    lo, hi = number(m.group(2)), number(m.group(3))
    if not subjects or len(subjects) != len(m.group(1).split(" and ")) or lo is None or hi is None:
        return False

    def test(args: dict[str, object]) -> bool | None:
        for n in subjects:
            v = args.get(n)
            if not isinstance(v, str):
                continue
            if not re.fullmatch(r"-?\d+", v):
                return False
            if not lo <= int(v) <= hi:
                return False
        return True

    return _add(c, line, "number in a string", test)


def _parity_items(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    m = re.fullmatch(rf"(\w+)(?:\[\w\])* is an? (even|odd) integer(?: in the range {_RANGE})?", text)
    if not m or params.get(m.group(1)) not in ("list", "int"):
        return False
    name, rest = m.group(1), int(m.group(2) == "odd")
    return _add(c, line, "parity", lambda args: all(x % 2 == rest for x in _leaves(args.get(name)) if isinstance(x, int)))


def _set_or_range(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    m = re.fullmatch(rf"(\w+)(?:\[\w\])* is either (.+?),? or (?:an integer )?in the range {_RANGE}", text)
    if not m or m.group(1) not in params:
        return False
    values = [number(v) for v in re.split(r",|\bor\b", m.group(2)) if v.strip()]
    lo, hi = number(m.group(3)), number(m.group(4))
    name = m.group(1)
    if not values or any(v is None for v in values) or lo is None:
        return False
    cap = hi  # "[1, n^2]": the upper end may name another argument; then only the lower end is checked

    def test(args: dict[str, object]) -> bool | None:
        for x in _leaves(args.get(name)):
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                continue
            if x not in values and not (lo <= x and (cap is None or x <= cap)):
                return False
        return True

    return _add(c, line, "value set or range", test)


def _characters(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    strs = [n for n in names if params[n] in ("str", "list")]
    if len(strs) != 1:
        return False
    name = strs[0]

    def chars(args: dict[str, object]) -> str | None:
        v = args.get(name)
        return None if v is None else "".join(x for x in _leaves(v) if isinstance(x, str))

    m = re.fullmatch(rf"{name} does not contain (.+)", text)
    quoted = re.findall(r"'([^']+)'", m.group(1)) if m else []
    if m and quoted and not re.sub(r"'[^']+'|\bor\b|\band\b|,|\s", "", m.group(1)):
        bad = {ch.replace("\\\\", "\\") for ch in quoted}
        return _add(c, line, "characters left out", lambda args: None if (s := chars(args)) is None else not any(b in s for b in bad))
    if re.fullmatch(rf"the only space character in {name} is ' '", low):
        return _add(c, line, "characters left out", lambda args: None if (s := chars(args)) is None
                    else all(ch == " " or not ch.isspace() for ch in s))
    if re.fullmatch(rf"{name} starts with a letter", text):
        return _add(c, line, "starts with a letter", lambda args: None if not isinstance(v := args.get(name), str) else v[:1].isalpha())
    if re.fullmatch(rf"{name} contains at least two different characters", text):
        return _add(c, line, "two different characters", lambda args: None if (s := chars(args)) is None else len(set(s)) >= 2)
    return False


def _count(args: dict[str, object], name: str, what: str) -> int | None:
    v = args.get(name)
    if v is None:
        return None
    if isinstance(v, str):
        return sum(v.count(ch) for ch in what)
    want = number(what)
    return sum(sum(x.count(ch) for ch in what) if isinstance(x, str) else int(want is not None and x == want)
               for x in _leaves(v))


def _counts(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    grids = [n for n in params if params[n] in ("list", "str")]
    m = re.fullmatch(r"there is exactly one (?:cell with \w+\[\w\]\[\w\] == )?'(.)'(?: in the (\w+))?", text, re.I) \
        or re.fullmatch(r"(\w+) has exactly one '(.)'", text)
    if m:
        what, where = (m.group(2), m.group(1)) if m.re.pattern.startswith("(") else (m.group(1), m.group(2))
        target = [where] if where in params else [n for n in grids if where in (None, "grid", "board", "matrix")][:1]
        if len(target) == 1:
            return _add(c, line, "count", lambda args: None if (k := _count(args, target[0], what)) is None else k == 1)
    m = re.fullmatch(rf"the number of '?(\d|'.')'?s in the (\w+) is in the range {_RANGE}", text, re.I)
    if m and m.group(2) in params and number(m.group(3)) is not None and number(m.group(4)) is not None:
        what, where, lo, hi = m.group(1).strip("'"), m.group(2), number(m.group(3)), number(m.group(4))
        return _add(c, line, "count", lambda args: None if (k := _count(args, where, what)) is None else lo <= k <= hi)  # type: ignore[operator]
    m = re.fullmatch(r"there will be at most (\S+) parentheses in (\w+)", text, re.I)
    if m and m.group(2) in params and number(m.group(1)) is not None:
        cap, where = number(m.group(1)), m.group(2)
        return _add(c, line, "count", lambda args: None if (k := _count(args, where, "()")) is None else k <= cap)  # type: ignore[operator]
    m = re.fullmatch(r"(\w+) consists of at most (\S+) words", text)
    if m and params.get(m.group(1)) == "str" and number(m.group(2)) is not None:
        where, cap = m.group(1), number(m.group(2))
        return _add(c, line, "count", lambda args: None if not isinstance(v := args.get(where), str) else len(v.split()) <= cap)  # type: ignore[operator]
    m = re.fullmatch(r"(\w+) consists of (?:an )?equal number of positive and negative integers", text)
    if m and params.get(m.group(1)) == "list":
        where = m.group(1)
        return _add(c, line, "count", lambda args: None if not isinstance(v := args.get(where), list)
                    else sum(x > 0 for x in v) == sum(x < 0 for x in v) and 0 not in v)
    return False


def _rows(args: dict[str, object], name: str) -> list[list[object]] | None:
    v = args.get(name)
    return v if isinstance(v, list) and all(isinstance(r, list) for r in v) else None


def _graphs(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    lists = [n for n in params if params[n] == "list"]
    m = re.fullmatch(r"(\w+)\[(\w)\] does not contain \2", text)
    if m and m.group(1) in lists:
        g = m.group(1)
        return _add(c, line, "graph", lambda args: None if (rows := _rows(args, g)) is None else all(u not in r for u, r in enumerate(rows)))
    m = re.fullmatch(r"if (\w+)\[(\w)\] contains (\w), then \1\[\3\] contains \2", text, re.I)
    if m and m.group(1) in lists:
        g = m.group(1)

        def symmetric(args: dict[str, object]) -> bool | None:
            rows = _rows(args, g)
            if rows is None:
                return None
            for u, r in enumerate(rows):
                for v in r:
                    if not isinstance(v, int) or not 0 <= v < len(rows):
                        return None
                    if u not in rows[v]:
                        return False
            return True

        return _add(c, line, "graph", symmetric)
    m = re.fullmatch(rf"the number of edges in the graph (?:will be|is) in the range {_RANGE}", text, re.I) \
        or re.fullmatch(r"there will be at most (\S+) integers in all the arrays()", text, re.I)
    grids = [n for n in lists if n in names] or lists
    if m and len(grids) == 1:
        lo, hi = (number(m.group(1)), number(m.group(2))) if m.group(2) else (0, number(m.group(1)))
        g = grids[0]
        if lo is not None and hi is not None:
            return _add(c, line, "total size", lambda args: None if (rows := _rows(args, g)) is None else lo <= sum(map(len, rows)) <= hi)
    m = re.fullmatch(r"sum\((\w+)\[i\]\) is the same for each row i", text)
    if m and m.group(1) in lists:
        g = m.group(1)
        return _add(c, line, "same sums", lambda args: None if (rows := _rows(args, g)) is None else len({sum(r) for r in rows}) <= 1)  # type: ignore[arg-type]
    m = re.fullmatch(r"(\w+)\[i\] is a subsequence of (\w+)", text)
    if m and m.group(1) in lists and m.group(2) in lists:
        g, whole = m.groups()

        def subsequences(args: dict[str, object]) -> bool | None:
            rows, seq = _rows(args, g), args.get(whole)
            if rows is None or not isinstance(seq, list):
                return None
            for r in rows:
                it = iter(seq)
                if not all(any(x == y for y in it) for x in r):
                    return False
            return True

        return _add(c, line, "subsequence of", subsequences, made=(g, "subsequences", whole))
    m = re.fullmatch(r"(\w+)(?: and (\w+))? represents? (?:a )?valid trees?", text)
    if m and all(g in lists for g in m.groups() if g) and "n" not in params:
        edge_lists = [g for g in m.groups() if g]
        c.checks.append(Check(line, "valid tree", lambda args: _all_trees([_rows(args, g) for g in edge_lists]),
                              trees=tuple((g, "") for g in edge_lists)))
        return True
    m = re.fullmatch(r"there are no two adjacent (\w+) in (\w+)", text, re.I)
    if m and m.group(2) in lists:
        g = m.group(2)
        return _add(c, line, "no two adjacent", lambda args: None if not isinstance(v := args.get(g), list)
                    else not any(a == 1 and b == 1 for a, b in itertools.pairwise(v)))
    return False


def _all_trees(edge_lists: list[list[list[object]] | None]) -> bool | None:
    """Every list of edges forms one tree on the nodes 0..len(edges)."""
    for edges in edge_lists:
        if edges is None:
            return None
        if not all(len(e) >= 2 and all(isinstance(x, int) and 0 <= x <= len(edges) for x in e[:2]) for e in edges):
            return None
        if not acyclic([(int(e[0]), int(e[1])) for e in edges]):  # type: ignore[call-overload]
            return False
    return True


def _member(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    """"kill is in pid" (what "kill is guaranteed to be in pid" promises)."""
    m = re.fullmatch(r"(\w+) is in (\w+)", text)
    if not m or params.get(m.group(1)) not in ("int", "str") or params.get(m.group(2)) != "list":
        return False
    a, b = m.groups()
    return _add(c, line, "value appears in another argument", lambda args: None if not isinstance(v := args.get(b), list) else args.get(a) in v)


def _prime(n: object) -> bool:
    if not isinstance(n, int) or isinstance(n, bool) or n < 2:
        return False
    return all(n % d for d in range(2, int(n**0.5) + 1))


def _numbers(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    """"primes[i] is a prime number" (what "... is guaranteed to be a prime number" promises),
    "arr[i] is a prime number for i > 0" (the entries after that index), "val does not exist in
    the original BST"."""
    m = re.fullmatch(r"(\w+)(?:\[i\])? (?:is|are) (?:a )?prime numbers?(?: for i > (\d+))?", text)
    if m and params.get(m.group(1)) in ("list", "int") and (m.group(2) is None or params[m.group(1)] == "list"):
        g, after = m.group(1), int(m.group(2) or -1)
        return _add(c, line, "prime", lambda args: None if (v := args.get(g)) is None
                    else all(_prime(x) for x in _leaves(v[after + 1:] if isinstance(v, list) else v) if x is not None))
    m = re.fullmatch(r"(\w+) does not exist in the (?:original )?(?:bst|binary search tree|tree)", text, re.I)
    trees = [n for n, k in params.items() if k == "treenode"]
    if m and params.get(m.group(1)) == "int" and len(trees) == 1:
        v, t = m.group(1), trees[0]
        return _add(c, line, "not in the tree", lambda args: None if not isinstance(tree := args.get(t), list) else args.get(v) not in tree)
    return False


def _order(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    m = re.fullmatch(r"(\w+) is (?:an? (?:ascending|sorted) array that is possibly rotated|sorted and rotated between 1 and \w+ times"
                     r"|guaranteed to be rotated at (?:some|an unknown) pivot(?: index)?)", text)
    if m and params.get(m.group(1)) == "list":
        g = m.group(1)

        def rotated(args: dict[str, object]) -> bool | None:
            v = args.get(g)
            if not isinstance(v, list):
                return None
            drops = sum(a > b for a, b in itertools.pairwise(v))
            return drops == 0 or (drops == 1 and v[-1] <= v[0])

        return _add(c, line, "rotated sorted", rotated)
    m = re.fullmatch(r"sum of (\w+) is divisible by (\w+)", low)
    if m and params.get(m.group(1)) == "list" and params.get(m.group(2)) == "int":
        g, k = m.groups()
        return _add(c, line, "divisible sum", lambda args: None if not isinstance(v := args.get(g), list) or not isinstance(d := args.get(k), int) or d == 0
                    else sum(v) % d == 0)
    m = re.fullmatch(r"(\w+)(?:\[i\])? is in the format \"([HMS:]+)\"", text)
    if m and m.group(1) in params:
        g, fmt = m.group(1), re.sub(r"[HMS]", r"\\d", m.group(2))
        return _add(c, line, "format", lambda args: None if (v := args.get(g)) is None
                    else all(isinstance(x, str) and re.fullmatch(fmt, x) for x in _leaves(v)))
    m = re.fullmatch(r"(\w+) contains at least one character with an odd frequency and one with an even frequency", text)
    if m and params.get(m.group(1)) == "str":
        g = m.group(1)

        def freqs(args: dict[str, object]) -> bool | None:
            v = args.get(g)
            if not isinstance(v, str):
                return None
            counts = collections.Counter(v).values()
            return any(k % 2 for k in counts) and any(k % 2 == 0 for k in counts)

        return _add(c, line, "frequencies", freqs)
    return False


def _char_list(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    """"s[i] is either '(' , ')', or lowercase English letter", "grid[i][j] is a letter, '.', '#',
    or '@'", "expression[i] is one following characters: '(', ')', '&'", "The values in derived
    are either 0's or 1's"."""
    from vibecode.problems.constraint_sets import read_chars

    m = re.fullmatch(r"the values in (\w+) are either (\d)'s or (\d)'s", text, re.I)
    if m and params.get(m.group(1)) == "list":
        c.choices[m.group(1)] = [int(m.group(2)), int(m.group(3))]
        return True
    m = re.fullmatch(r"(\w+)(?:\[\w\])* is (?:either |one (?:of the )?following characters:?\s*|an? )(.+)", text)
    if not m or m.group(1) not in params:
        return False
    rest = re.sub(r"'[^']'|\"[^\"]\"|\b(?:or|and|lowercase|uppercase|english|letters?|digits?)\b|[,\s]", "", m.group(2), flags=re.I)
    return not rest and read_chars(m.group(1), m.group(2), params, c)


def _nary_depth(level: list[object]) -> int:
    """The depth of an n-ary tree in LeetCode's level order (``null`` ends each node's children)."""
    if not level or level[0] is None:
        return 0
    depth_of = [1]  # the depth of each node, in order
    parent = -1  # each null starts the children of the next node
    for v in level[1:]:
        if v is None:
            parent += 1
        else:
            depth_of.append(depth_of[parent] + 1 if 0 <= parent < len(depth_of) else 1)
    return max(depth_of)


def _nodes(text: str, low: str, names: list[str], params: dict[str, str], c: Constraints, line: str) -> bool:
    """n-ary trees and immutable lists (their arguments' kind is "any"): the depth, the values."""
    m = re.fullmatch(r"the (?:depth|height) of the n-ary tree is (?:less than or equal to|at most) (\S+)", low)
    trees = [n for n, k in params.items() if k == "nary"]
    if m and trees and number(m.group(1)) is not None:
        cap = number(m.group(1))
        return _add(c, line, "tree depth", lambda args: all(not isinstance(v := args.get(t), list) or _nary_depth(v) <= cap  # type: ignore[operator]
                                                            for t in trees))
    m = re.fullmatch(rf"the value of each node in the linked list is between {_RANGE}", low)
    lists = [n for n, k in params.items() if k == "immutablelist"]
    if m and lists and number(m.group(1)) is not None and number(m.group(2)) is not None:
        for n in lists:
            c.value.setdefault(n, []).append((("num", number(m.group(1)), 0), ("num", number(m.group(2)), 0)))
        return True
    return False


_READERS = (_nodes, _char_list, _member, _numbers, _permission, _number_string, _parity_items, _set_or_range, _characters, _counts, _graphs, _order)
