"""Bound lines, for :mod:`vibecode.problems.constraints`: comparison chains
(``1 <= nums.length <= 10^4``, ``0 <= k < n``, ``starti <= endi``, ``a != b``), node counts in
words ("The number of nodes in the list is in the range [0, 5000]"), character sets ("s consists
of lowercase English letters") and value choices ("x is either 0 or 1"), read into the length,
row-length and value bounds of :class:`~vibecode.problems.constraint_types.Constraints`."""

from __future__ import annotations

import re

from vibecode.problems.constraint_rows import strictly_ascending_rows
from vibecode.problems.constraint_sets import read_chars, read_choice
from vibecode.problems.constraint_terms import bound_term, name_term, subject
from vibecode.problems.constraint_types import Check, Constraints, Range, Term, number

_NODES = re.compile(
    r"(?:(?:total )?number of (?:the )?nodes(?: in)?|length of) [\w ]{1,40}?\s*(?:is|are|will be)?\s*"
    r"(?:in )?(?:the )?(?:range|between)\s*(?:of\s*)?\[\s*([^,\]]+),\s*([^\]]+)\]",
    re.I,
)
NODE_COUNT = re.compile(r"number of nodes in [\w ]{1,40}? is ([A-Za-z_]\w*)$", re.I)
_CONSISTS = re.compile(r"^(.*?)\b(?:(?:is|are)\s+(?:an?\s+|either\s+|all\s+)?(?=(?:lowercase|uppercase|english|digits?)\b)|consists?\s+(?:only\s+)?of|(?:only\s+)?contains?\s+only|only\s+contains?|contains?\s+(?=(?:the characters|lowercase|uppercase|lower[- ]case|upper[- ]case|english|digits)\b)|(?:is|are)\s+(?:made\s+)?(?:up\s+)?of(?:\s+only)?|(?:is|are)\s+(?:all\s+)?from\s+(?=the\s+set\b))\b(.*)$", re.I)
_CHOICE = re.compile(r"^(.*?)(?:\b(?:is|are)|==)\s+(?:either\s+|only\s+|one of\s+|all\s+)?(.+?\bor\b.+)$", re.I)


def read_line(line: str, params: dict[str, str], aliases: dict[str, Term], node_params: list[str], c: Constraints) -> bool:
    text = line.strip().rstrip(".").strip()
    if "==" in text and len(text.split("==")) == 2 and any(p.strip() in aliases for p in text.split("==")):
        left, right = (p.strip() for p in text.split("=="))
        alias, other = (left, right) if left in aliases else (right, left)
        if bound_term(other, params, {}) == aliases[alias] or bound_term(other, params, aliases) is not None:
            if bound_term(other, params, {}) != aliases[alias]:  # "m == n": both sides sizes
                relate(alias, "==", other, params, aliases, node_params, c)
            return True
    count = NODE_COUNT.search(text)
    if count and count.group(1) in aliases:
        return True
    shifted = re.fullmatch(r"(.+?)\s*==\s*([A-Za-z_]\w*)\s*([+-])\s*(\d+)", text)
    if shifted and shifted.group(2) in aliases:  # the line that defined "n" as nums.length - 1
        k = int(shifted.group(4)) * (1 if shifted.group(3) == "+" else -1)
        kind, ref, off = aliases[shifted.group(2)]
        if bound_term(shifted.group(1), params, {}) == (kind, ref, off + k):
            return True
    if re.fullmatch(r"`?\w+`?\s+(?:is|are)\s+(?:an?\s+)?(?:integers?|strings?|(?:32-bit\s+)?signed\s+integers?)", text, re.I):
        return True  # the type already says so
    m = re.fullmatch(r"([^!<>=]+?)\s*!=\s*([^!<>=]+)", text)
    if m:
        a, b = (bound_term(g, params, aliases) or name_term(g, params) for g in m.groups())
        if a is not None and b is not None:
            c.differ.append((a, b))
            return True
        return False
    m = _NODES.search(text)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        if lo is None or hi is None:
            return False
        for n in node_params:
            c.length.setdefault(n, []).append((("num", lo, 0), ("num", hi, 0)))
        return bool(node_params)
    m = _CHOICE.match(text)
    if m and read_choice(m.group(1), m.group(2), params, c):
        return True
    m = _CONSISTS.match(text)
    if m:
        return read_chars(m.group(1), m.group(2), params, c)
    parts = re.split(r"(<=|>=|==|<|>)", text)
    if len(parts) < 3:
        return False
    terms = [p.strip() for p in parts[0::2]]
    ops = parts[1::2]
    expanded: list[list[str]] = [[t.strip() for t in part.split(",")] if number(part) is None else [part] for part in terms]
    known = [[number(t) is not None or t in aliases or subject(t, params, aliases) is not None
              for t in group] for group in expanded]
    unknown_names = [t for group, kg in zip(expanded, known, strict=False) for t, k in zip(group, kg, strict=False) if not k]
    if unknown_names:
        lists2d = [n for n, k in params.items() if k == "list"]
        # "start_i <= end_i": the names must stand on two sides of a "<=", not in one "ai, bi" list
        chained = sum(any(not k for k in kg) for kg in known) >= 2 and all(o in ("<=", "<") for o in ops)
        if chained and all(re.fullmatch(r"[a-z]+_?i", t) for t in unknown_names) and len(lists2d) == 1:
            name = lists2d[0]
            c.pair_sorted.add(name)
            named = [k for k, kg in enumerate(known) if not all(kg)]  # the terms "starti", "endi"
            if "<" in ops[named[0]:named[1]]:  # "starti < endi": a row's two values differ
                c.checks.append(Check(line, "row strictly ascending", strictly_ascending_rows(name)))
            nums = [number(g[0]) for g in expanded if number(g[0]) is not None]
            if len(nums) == 2:
                c.value.setdefault(name, []).append((("num", nums[0], 0), ("num", nums[1], 0)))
            return True
        # "0 <= ai, bi < n" is not applied to every entry: another line usually bounds another
        # column ("1 <= weighti <= 100"), and one range for all entries broke 1 in 20 hidden inputs
        return False
    understood = False
    for k, op in enumerate(ops):
        for left_text in expanded[k]:
            for right_text in expanded[k + 1]:
                understood |= relate(left_text, op, right_text, params, aliases, node_params, c)
    return understood


def relate(lt: str, op: str, rt: str, params: dict[str, str], aliases: dict[str, Term],
            node_params: list[str], c: Constraints) -> bool:
    if op in (">=", ">"):
        lt, rt = rt, lt
        op = "<=" if op == ">=" else "<"
    strict = 1 if op == "<" else 0
    ls = subject(lt, params, aliases)
    rs = subject(rt, params, aliases)
    lb, rb = bound_term(lt, params, aliases), bound_term(rt, params, aliases)
    sides = []  # (subject, bound, subject is on the left)
    if ls and rb:
        sides.append((ls, rb, True))
    if rs and lb:
        sides.append((rs, lb, False))
    if len(sides) == 2:  # both sides name arguments: constrain one of them only
        scalar = [s for s in sides if s[0][0] == "value" and params.get(s[0][1]) in ("int", "float")]
        sides = [scalar[0] if scalar else sides[0]]
    for (kind, name), bound, on_left in sides:
        if isinstance(bound[1], float) or params.get(name) == "float":
            strict = 0  # "0.0 < values[i]": no integer step below a real; the bound is kept loose
        subject_text = (lt if on_left else rt).strip().replace(" ", "")
        shift = -aliases[subject_text][2] if subject_text in aliases else 0  # n == nums.length - 1
        bound = (bound[0], bound[1], bound[2] + shift)
        if op == "==":
            rng: Range = (bound, bound)
        elif on_left:
            rng = (None, (bound[0], bound[1], bound[2] - strict))
        else:
            rng = ((bound[0], bound[1], bound[2] + strict), None)
        target = {"length": c.length, "inner": c.inner_length, "value": c.value}[kind]
        add_range(target, name, rng, node_params)
    return bool(sides)


def add_range(target: dict[str, list[Range]], name: str, rng: Range, node_params: list[str]) -> None:
    for n in node_params if name == "@nodes" else [name]:
        target.setdefault(n, []).append(rng)
