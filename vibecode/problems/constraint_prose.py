"""Constraint lines in words, read into checks (validators) for generate-then-filter.

Each reader recognises one kind of sentence and adds a :class:`Check` on the arguments it names:
leading zeros, leading/trailing/single spaces, "at least one word", the number of words of a
sentence or each word's length in a range, even/odd/multiple of, a
permutation/anagram/subsequence of another argument, "each lowercase letter exactly once" (a
shuffled alphabet), "all the integers of X also appear in Y",
"each element appears twice except for one", "there is at least one 0 in mat", the depth of a
tree, a balanced parentheses string, "edges represents a valid tree", "no repeated edges", "all
the strings have the same length"; and, for design problems, "At most N calls will be made to
f" (recorded in ``calls``). A check that cannot decide an input says None, never False.
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Callable

from vibecode.problems.constraint_same_length import one_length
from vibecode.problems.constraint_types import Check, Constraints, acyclic, number

Test = Callable[[dict[str, object]], bool | None]


def _named(text: str, params: dict[str, str], kinds: tuple[str, ...] = ()) -> list[str]:
    names = [n for n in params if re.search(rf"\b{re.escape(n)}\b", text) and (not kinds or params[n] in kinds)]
    return names


def _each(names: list[str], fn: Callable[[object], bool]) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        for n in names:
            v = args.get(n)
            if v is None:
                continue
            items = v if isinstance(v, list) and all(isinstance(x, str) for x in v) and v else [v]
            if not all(fn(x) for x in items):
                return False
        return True

    return test


def _no_leading_zero(v: object) -> bool:
    if isinstance(v, str):
        return not (len(v) > 1 and v[0] == "0")
    if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
        return not (len(v) > 1 and v[0] == 0)
    return True


def _words_within(text: str, lo: int, hi: int, count: bool) -> bool:
    """The number of words of ``text`` (``count``), or each word's length, within [lo, hi]."""
    words = text.split()
    return lo <= len(words) <= hi if count else all(lo <= len(w) <= hi for w in words)


def _depth(level: list[object]) -> int:
    """The depth of a tree given in LeetCode level order."""
    if not level or level[0] is None:
        return 0
    depth, frontier, k = 1, 1, 1
    while k < len(level):
        nxt = 0
        for _ in range(2 * frontier):
            if k < len(level) and level[k] is not None:
                nxt += 1
            k += 1
        if nxt == 0:
            break
        depth += 1
        frontier = nxt
    return depth


def tree_depth(level: list[object]) -> int:
    """The depth of a tree given in LeetCode level order (for :mod:`constraint_shapes`)."""
    return _depth(level)


def _balanced(s: object) -> bool:
    if not isinstance(s, str):
        return True
    depth = 0
    for ch in s:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _valid_tree(edges: object, n: object) -> bool | None:
    if not isinstance(edges, list) or not isinstance(n, int):
        return None
    if len(edges) != n - 1:
        return False
    if not all(isinstance(e, list) and len(e) >= 2 and all(isinstance(x, int) and 0 <= x < n for x in e[:2])
               for e in edges):
        return None
    return acyclic([(e[0], e[1]) for e in edges])


def _counts_ok(v: object, spec: str) -> bool:
    if not isinstance(v, list):
        return True
    counts = collections.Counter(json.dumps(x) for x in v).values()
    if spec == "twice-one":
        return sorted(counts).count(1) == 1 and all(c in (1, 2) for c in counts)
    if spec == "three-one":
        return sorted(counts).count(1) == 1 and all(c in (1, 3) for c in counts)
    if spec == "twice-two":
        return sorted(counts).count(1) == 2 and all(c in (1, 2) for c in counts)
    return all(c in (1, 2) for c in counts)


def _add(c: Constraints, line: str, kind: str, test: Test, made: tuple[str, str, str] | tuple[()] = ()) -> bool:
    c.checks.append(Check(line, kind, test, made=made))
    return True


def read_prose(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Read one sentence into ``c``; False when no reader knows it."""
    text = re.sub(r"<sub>(\w+)</sub>", r"\1", line).strip().rstrip(".").strip()
    low = text.lower()
    strs = [n for n, k in params.items() if k == "str"]
    named = _named(text, params)
    subject = named or (strs if len(strs) == 1 else [])
    if _read_calls(text, c):
        return True
    m = re.search(r"(?:all the )?characters (?:of|in) (\w+) are (?:unique|distinct)", text, re.I)
    if m and m.group(1) in params:
        a = m.group(1)
        return _add(c, line, "distinct characters", lambda args: None if not isinstance(v := args.get(a), str) else len(set(v)) == len(v))
    trees = [n for n, k in params.items() if k == "treenode"]
    if trees and re.search(r"values?(?: of the nodes| node\.val)? are unique|unique node values|node\.val are unique", low):
        c.unique.update(trees)
        return True
    if trees and re.search(r"valid binary search tree", low):
        c.bst.update(trees)
        return True
    m = re.fullmatch(r"each (\w+)\[\w\] does not contain any duplicate values", text, re.I) \
        or re.fullmatch(r"(?:all )?the values (?:of|in) (\w+)\[\w\] are (?:unique|distinct)", text, re.I)
    if m and m.group(1) in params:
        a = m.group(1)
        return _add(c, line, "distinct items", lambda args: None if not isinstance(v := args.get(a), list)
                    else all(not isinstance(x, list) or len(set(map(json.dumps, x))) == len(x) for x in v))
    m = re.search(r"ascii values in the range \[\s*(\d+),\s*(\d+)\]", low)
    if m and subject:
        for n in subject:
            c.chars[n] = "".join(chr(i) for i in range(int(m.group(1)), int(m.group(2)) + 1))
        return True
    if re.search(r"\bleading (?:zeros?|0'?s)(?!\w)", low) and re.search(r"\bnot\b|\bno\b|\bcannot\b|n't\b", low):
        names = named or (strs if re.search(r"\beach string\b|\bthe strings?\b", low) else [])
        return bool(names) and _add(c, line, "no leading zeros", _each(names, _no_leading_zero))
    ascii_ = re.search(r"(printable ascii)|(?:any )?valid ascii characters?$", low)
    if ascii_:  # printable: 32-126; "any valid ascii character": all 128
        names = named or (strs if len(strs) == 1 else [])
        for n in names:
            c.chars[n] = "".join(chr(i) for i in (range(32, 127) if ascii_.group(1) else range(128)))
        return bool(names)
    if re.search(r"\b(?:no|not (?:contain|have)(?: any)?) leading or trailing spaces?\b", low) and subject:
        return _add(c, line, "no leading/trailing spaces", _each(subject, lambda s: not isinstance(s, str) or s == s.strip()))
    if re.search(r"separated by (?:a single|single|exactly one) spaces?", low) and subject:
        return _add(c, line, "single spaces", _each(subject, lambda s: not isinstance(s, str) or "  " not in s))
    m = re.fullmatch(r"the (number of words|length of each word) in (\w+) is in the range \[\s*([^,\]]+),\s*([^\]]+)\]", text, re.I)
    lo, hi = (number(m.group(3)), number(m.group(4))) if m else (None, None)
    if m and params.get(m.group(2)) == "str" and isinstance(lo, int) and isinstance(hi, int):
        count = m.group(1).lower().startswith("number")
        return _add(c, line, "words per sentence" if count else "word lengths",
                    _each([m.group(2)], lambda s: not isinstance(s, str) or _words_within(s, lo, hi, count)))
    if re.search(r"\bat least one word\b", low) and subject:
        return _add(c, line, "at least one word", _each(subject, lambda s: not isinstance(s, str) or s.strip() != ""))
    m = re.fullmatch(r"(?:the )?(\w+)(?:\.length)? is (even|odd|a multiple of (\d+))", text, re.I)
    if m and m.group(1) in params:
        name, what = m.group(1), m.group(2).lower()
        k = 2 if what in ("even", "odd") else int(m.group(3))
        rest = 1 if what == "odd" else 0
        length = ".length" in text

        def parity(args: dict[str, object]) -> bool | None:
            v = args.get(name)
            v = len(v) if length and isinstance(v, (list, str)) else v
            return None if not isinstance(v, int) else v % k == rest

        return _add(c, line, "parity", parity)
    m = re.fullmatch(r"(\w+) is (?:a permutation|an anagram) of (\w+)", text)
    if m and m.group(1) in params and m.group(2) in params:
        a, b = m.groups()
        return _add(c, line, "permutation of", lambda args: sorted(map(json.dumps, list(args[a]))) == sorted(map(json.dumps, list(args[b])))  # type: ignore[call-overload]
                    if isinstance(args.get(a), (list, str)) and isinstance(args.get(b), (list, str)) else None,
                    made=(a, "permutation", b))
    m = re.fullmatch(r"(\w+) contains each (?:english )?lowercase (?:english )?letter exactly once(?: in (?:some|any) order)?", text, re.I)
    if m and params.get(m.group(1)) == "str":
        a, abc = m.group(1), "abcdefghijklmnopqrstuvwxyz"
        return _add(c, line, "each letter once", lambda args: None if not isinstance(v := args.get(a), str) else sorted(v) == list(abc),
                    made=(a, "letters", abc))
    m = re.fullmatch(r"(\w+) is a subsequence of (\w+)", text)
    if m and m.group(1) in params and m.group(2) in params:
        a, b = m.groups()

        def subseq(args: dict[str, object]) -> bool | None:
            x, y = args.get(a), args.get(b)
            if not isinstance(x, (list, str)) or not isinstance(y, (list, str)):
                return None
            it = iter(y)
            return all(any(v == w for w in it) for v in x)

        return _add(c, line, "subsequence of", subseq, made=(a, "subsequence", b))
    m = re.search(r"(?:all the \w+ of|each value of) (\w+) also appears? in (\w+)", text, re.I) \
        or re.fullmatch(r"(\w+) and (\w+) are in (\w+)", text)
    if m and all(g in params for g in m.groups()):
        *items, pool_name = m.groups()

        def within(args: dict[str, object]) -> bool | None:
            pool = args.get(pool_name)
            if not isinstance(pool, list):
                return None
            have = {json.dumps(v) for v in pool}
            for n in items:
                v = args.get(n)
                vals = v if isinstance(v, list) and params[n] == "list" and len(items) == 1 else [v]
                if any(json.dumps(x) not in have for x in vals):
                    return False
            return True

        if all(params[n] != "list" for n in items):  # single values: drawn from the pool
            c.checks.append(Check(line, "values appear in another argument", within, tuple(items), pool_name))
            return True
        return _add(c, line, "values appear in another argument", within)
    m = re.fullmatch(r"(\w+) and (\w+) exist in the tree", text) or re.fullmatch(r"(\w+) is the value of one of the nodes in the tree", text)
    trees_ = [n for n, k in params.items() if k == "treenode"]
    if m and all(g in params for g in m.groups()) and len(trees_) == 1:
        vals, tree = list(m.groups()), trees_[0]
        return _add(c, line, "values appear in the tree", lambda args: None if not isinstance(args.get(tree), list)
                    else all(args.get(v) in args[tree] for v in vals))  # type: ignore[operator]
    m = re.fullmatch(r"(\w+) equals to an element of (\w+)", text)
    if m and all(g in params for g in m.groups()):
        a, b = m.groups()
        c.checks.append(Check(line, "value appears in another argument",
                              lambda args: None if not isinstance(args.get(b), list) else args.get(a) in args[b],  # type: ignore[operator]
                              (a,) if params[a] != "list" else (), b if params[a] != "list" else ""))
        return True
    m = re.fullmatch(r"(\w+) contains at least one '(.)'", text)
    if m and m.group(1) in params:
        a, ch = m.groups()
        return _add(c, line, "contains a character", lambda args: None if not isinstance(args.get(a), str) else ch in args[a])  # type: ignore[operator]
    m = re.fullmatch(r"(\w+) will not be in the list (\w+)", text)
    if m and all(g in params for g in m.groups()):
        a, b = m.groups()
        return _add(c, line, "not in another argument", lambda args: None if not isinstance(args.get(b), list) else args.get(a) not in args[b])  # type: ignore[operator]
    lists = _named(text, params, ("list",)) or [n for n, k in params.items() if k == "list"][:1]
    spec = ("twice-one" if re.search(r"appears? twice except for one", low) else
            "three-one" if re.search(r"appears? exactly three times except for one", low) else
            "twice-two" if re.search(r"appear twice, only two", low) else
            "once-twice" if re.search(r"appears? once or twice", low) else "")
    if spec and lists:
        return _add(c, line, "element counts", _each(lists[:1], lambda v: _counts_ok(v, spec)))
    m = re.fullmatch(r"there is at least one (\S+) in (\w+)", text, re.I)
    if m and m.group(2) in params:
        want, name, quoted = number(m.group(1)), m.group(2), m.group(1).strip("'\"")
        return _add(c, line, "at least one value", lambda args: None if args.get(name) is None
                    else want in _flat(args.get(name)) or quoted in map(str, _flat(args.get(name))))
    trees = [n for n, k in params.items() if k == "treenode"]
    m = re.search(r"depth of the (?:binary )?tree (?:will not exceed|is less than or equal to|is at most) (\S+)", low) \
        or re.search(r"depth of the (?:binary )?tree (?:is|will be) in the range \[\s*\S+,\s*([^\]]+)\]", low)
    if m and trees and number(m.group(1)) is not None:
        cap = number(m.group(1))
        return _add(c, line, "tree depth", lambda args: all(not isinstance(args.get(t), list) or _depth(args[t]) <= cap  # type: ignore[arg-type, operator]
                                                            for t in trees))
    if re.search(r"balanced parentheses|valid parentheses", low) and subject:
        return _add(c, line, "balanced parentheses", _each(subject, _balanced))
    m = re.fullmatch(r"(\w+) represents? a valid tree", text)
    if m and m.group(1) in params:
        edges = m.group(1)
        ints = [n for n, k in params.items() if k == "int" and n == "n"]
        if not ints:
            return False
        c.checks.append(Check(line, "valid tree", lambda args: _valid_tree(args.get(edges), args.get(ints[0])), trees=((edges, ints[0]),)))
        return True
    edge_lists = [n for n, k in params.items() if k == "list"]
    if re.search(r"\b(?:the (?:given )?)?(?:input|graph) is (?:guaranteed to be )?a (?:valid )?tree\b", low) \
            and len(edge_lists) == 1 and params.get("n") == "int":  # "The given input is guaranteed to be a tree and ..."
        c.checks.append(Check(line, "valid tree", lambda args: _valid_tree(args.get(edge_lists[0]), args.get("n")),
                              trees=((edge_lists[0], "n"),)))
        if not re.search(r"no (?:repeated|duplicate|multiple) edges", low):
            return True
    if re.search(r"no (?:repeated|duplicate|multiple) (?:edges|roads|flights)|not be any multiple \w+ between", low) and lists:
        return _add(c, line, "distinct items", _each(lists[:1], lambda v: not isinstance(v, list) or len({json.dumps(sorted(x) if isinstance(x, list) else x) for x in v}) == len(v)))
    if re.search(r"(?:all|the) (?:the )?(?:strings|words).* (?:are of |have )the same length", low) and lists:
        words = lists[0]  # the list itself, not each of its strings (_each would test every string alone)
        c.same_length.add(words)  # drawn so (clr.inputs_values), not filtered blind
        return _add(c, line, "same length", one_length(words))
    return False


_FNS = r"((?:\w+(?:\(\))?(?:,\s*|\s+and\s+|,\s*and\s+|\s+or\s+)?)+)"


def _read_calls(text: str, c: Constraints) -> bool:
    """Design problems: "At most 2 * 10^5 calls will be made to get and put", "At most 1000
    function calls will be made", "There will be at most 2 * 10^4 calls in total to checkIn,
    checkOut, and getAverageTime", "f will be called at most N times". A limit on several
    methods together bounds each of them; ``"*"`` is the limit on all calls."""
    m = re.search(rf"at most ([\d^*\s]+?) (?:function )?calls?(?: in total)?(?: will be made| are made)?(?: in total)?(?: to {_FNS})?\s*$",
                  text, re.I)
    if m:
        count, fns = number(m.group(1)), m.group(2)
    else:
        m = re.search(r"(\w+) will be called at most ([\d^*\s]+?) times", text, re.I)
        if not m:
            return False
        count, fns = number(m.group(2)), m.group(1)
    if not isinstance(count, int):
        return False
    names = [w for w in re.findall(r"\w+", fns or "") if w not in ("and", "or")] or ["*"]
    for fn in names:
        c.calls[fn] = min(count, c.calls.get(fn, count))
    return True


def _flat(v: object) -> list[object]:
    if isinstance(v, list):
        return [x for item in v for x in _flat(item)]
    if isinstance(v, str):
        return list(v)
    return [v]
