"""Read LeetCode constraint lines into bounds that input generation and validation can use.

Understood forms (``<=``, ``<``, ``==``, ``≤`` chains; numbers such as ``10^4``, ``2^31 - 1``,
``5 * 10^4``, ``1e5``):

- ``1 <= nums.length <= 10^4`` (also ``len(nums)``, ``nums.size()``) -> length of ``nums``;
- ``-10^9 <= nums[i] <= 10^9``, ``0 <= target <= 100``, ``-100 <= Node.val <= 100`` -> values;
- ``intervals[i].length == 2``, ``words[i].length <= 5`` -> length of the inner items;
- ``1 <= k <= nums.length``, ``0 <= k < n`` with ``n == nums.length`` -> bounds that refer to
  other arguments;
- ``0 <= starti <= endi <= 10^4`` -> inner pairs are ordered, with those value bounds;
- "The number of nodes in the list is in the range [0, 5000]" -> length of node arguments;
- "s consists of lowercase English letters / digits / '(' and ')'" -> allowed characters;
- "sorted", "unique"/"distinct" -> ordered / distinct elements.

Anything that promises a hidden property of the inputs ("exactly one solution", "it is
guaranteed that ...") or a constraint line that names an argument and is not understood makes
random inputs unsafe: such reasons are collected in ``blockers``.
"""

from __future__ import annotations

import ast
import operator
import re
import string
from dataclasses import dataclass, field

from vibecode.types import Problem

# A bound term: ("num", value, 0) | ("len", name, offset) | ("val", name, offset)
Term = tuple[str, object, int]
Range = tuple["Term | None", "Term | None"]

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUPER_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+")


def _plain(text: str) -> str:
    """``10⁹`` -> ``10^9``, ``≤`` -> ``<=``, backticks dropped."""
    text = _SUPER_RUN.sub(lambda m: "^" + m.group(0).translate(_SUPERSCRIPTS), text)
    return text.replace("≤", "<=").replace("≥", ">=").replace("`", "")
_BLOCKERS = re.compile(
    r"exactly one (?:valid )?(?:solution|answer)|only one valid answer|it is guaranteed|"
    r"is guaranteed|are guaranteed|guaranteed that|there (?:is|will be) always|will always be|"
    r"at least one (?:valid )?(?:solution|answer) exists",
    re.I,
)
_NODES = re.compile(
    r"number of nodes in (?:the |both |each )?(?:linked )?(?:lists?|trees?)\s*(?:is|are)?\s*"
    r"(?:in )?(?:the )?range\s*\[\s*([^,\]]+),\s*([^\]]+)\]",
    re.I,
)
_CONSISTS = re.compile(r"^(.*?)\bconsists?\s+(?:only\s+)?of\b(.*)$", re.I)
_SYMBOLS = "!#$%&()*+,-./:;<=>?@[]^_{|}~"


@dataclass
class Constraints:
    length: dict[str, list[Range]] = field(default_factory=dict)
    inner_length: dict[str, list[Range]] = field(default_factory=dict)
    value: dict[str, list[Range]] = field(default_factory=dict)
    chars: dict[str, str] = field(default_factory=dict)
    sorted: set[str] = field(default_factory=set)
    unique: set[str] = field(default_factory=set)
    pair_sorted: set[str] = field(default_factory=set)
    bst: set[str] = field(default_factory=set)
    blockers: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def number(text: str) -> int | float | None:
    """``10^4`` -> 10000, ``2^31 - 1``, ``5 * 10^4``, ``1e5``, ``-10^9``; None if not a number."""
    src = _plain(text).replace("^", "**").replace("×", "*").replace(",", "").strip()
    if not src or not re.fullmatch(r"[\d\s.eE+\-*/()]+", src):
        return None
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None
    try:
        value = _eval(node)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    if isinstance(value, float) and value.is_integer() and "." not in src and "e" not in src.lower():
        return int(value)
    return value


def _eval(node: ast.expr) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(b) > 64:
                raise ValueError("exponent too large")
            return a**b
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
        if type(node.op) in ops:
            return ops[type(node.op)](a, b)
        if isinstance(node.op, ast.Div):
            return a / b
    raise ValueError("not a number")


def _subject(term: str, params: dict[str, str], aliases: dict[str, Term]) -> tuple[str, str] | None:
    """("length"|"inner"|"value", name) for a term that names an argument."""
    t = term.strip().replace(" ", "")
    if t in aliases and aliases[t][0] == "len" and aliases[t][2] == 0:
        return ("length", str(aliases[t][1]))
    m = re.fullmatch(r"(?:len\((\w+)\)|(\w+)\.(?:length|size\(\)|len))", t)
    if m:
        name = m.group(1) or m.group(2)
        return ("length", name) if name in params else None
    m = re.fullmatch(r"(\w+)\[\w+\]\.(?:length|size\(\))|len\((\w+)\[\w+\]\)", t)
    if m:
        name = m.group(1) or m.group(2)
        return ("inner", name) if name in params else None
    m = re.fullmatch(r"(\w+)(?:\[\w+\])+", t)
    if m and m.group(1) in params:
        return ("value", m.group(1))
    if re.fullmatch(r"(?:node|Node|treeNode|TreeNode|ListNode)\.val", t):
        return ("value", "@nodes")
    if t in params:
        return ("value", t)
    return None


def _term(text: str, params: dict[str, str], aliases: dict[str, Term]) -> Term | None:
    value = number(text)
    if value is not None:
        return ("num", value, 0)
    m = re.fullmatch(r"\s*(.+?)\s*([+-])\s*(\d+)\s*", text)
    base, offset = (m.group(1), int(m.group(3)) * (1 if m.group(2) == "+" else -1)) if m else (text, 0)
    name = base.strip()
    if name in aliases:
        kind, ref, off = aliases[name]
        return (kind, ref, off + offset)
    subj = _subject(name, params, aliases)
    if subj is None:
        return None
    kind, ref = subj
    if kind == "length":
        return ("len", ref, offset)
    if kind == "value" and ref in params and params[ref] in ("int", "float"):
        return ("val", ref, offset)
    return None


def parse_constraints(problem: Problem) -> Constraints:
    from vibecode.problems.typespec import parse_type

    params = {}
    for p in problem.signature.params:
        spec = parse_type(p.type).base
        params[p.name] = spec.kind
    node_params = [n for n, k in params.items() if k in ("listnode", "treenode")]
    c = Constraints()
    aliases: dict[str, Term] = {}
    lines = [_plain(line) for line in problem.constraints]
    for line in lines:  # aliases first: "n == nums.length"
        m = re.fullmatch(r"\s*(\w+)\s*==\s*(.+?)\s*\.?\s*", line)
        if m and m.group(1) not in params:
            t = _term(m.group(2), params, aliases)
            if t is not None and t[0] == "len":
                aliases[m.group(1)] = t
    prose = problem.statement + "\n" + "\n".join(lines)
    for m in _BLOCKERS.finditer(prose):
        c.blockers.append(f"the problem promises a property of its inputs ({m.group(0)!r})")
    lower = prose.lower()
    one_d = [n for n, k in params.items() if k in ("list", "listnode")]
    if re.search(r"\bsorted\b", lower):
        c.sorted.update(one_d)
    if re.search(r"\b(?:unique|distinct)\b", lower):
        c.unique.update(one_d + [n for n, k in params.items() if k == "treenode"])
    if re.search(r"\bbinary search tree\b|\bbst\b", lower):
        c.bst.update(n for n, k in params.items() if k == "treenode")
    for line in lines:
        if not _read_line(line, params, aliases, node_params, c):
            mentioned = [n for n in params if re.search(rf"\b{re.escape(n)}\b", line)]
            if _BLOCKERS.search(line) or re.search(r"\b(?:sorted|unique|distinct)\b", line, re.I):
                continue
            c.unknown.append(line)
            if mentioned:
                c.blockers.append(f"a constraint was not understood: {line!r}")
    return c


def _add(target: dict[str, list[Range]], name: str, rng: Range, node_params: list[str]) -> None:
    for n in node_params if name == "@nodes" else [name]:
        target.setdefault(n, []).append(rng)


def _read_line(line: str, params: dict[str, str], aliases: dict[str, Term], node_params: list[str], c: Constraints) -> bool:
    text = line.strip().rstrip(".").strip()
    if re.fullmatch(r"\s*(\w+)\s*==\s*(.+)", text) and text.split("==")[0].strip() in aliases:
        return True
    m = _NODES.search(text)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        if lo is None or hi is None:
            return False
        for n in node_params:
            c.length.setdefault(n, []).append((("num", lo, 0), ("num", hi, 0)))
        return bool(node_params)
    m = _CONSISTS.match(text)
    if m:
        return _read_chars(m.group(1), m.group(2), params, c)
    parts = re.split(r"(<=|>=|==|<|>)", text)
    if len(parts) < 3:
        return False
    terms = [p.strip() for p in parts[0::2]]
    ops = parts[1::2]
    expanded: list[list[str]] = [[t.strip() for t in term.split(",")] if number(term) is None else [term] for term in terms]
    known = [[number(t) is not None or t in aliases or _subject(t, params, aliases) is not None
              for t in group] for group in expanded]
    unknown_names = [t for group, kg in zip(expanded, known, strict=False) for t, k in zip(group, kg, strict=False) if not k]
    if unknown_names:
        lists2d = [n for n, k in params.items() if k == "list"]
        if len(unknown_names) >= 2 and all(re.fullmatch(r"[a-z]+_?i", t) for t in unknown_names) and len(lists2d) == 1:
            name = lists2d[0]
            c.pair_sorted.add(name)
            nums = [number(g[0]) for g in expanded if number(g[0]) is not None]
            if len(nums) == 2:
                c.value.setdefault(name, []).append((("num", nums[0], 0), ("num", nums[1], 0)))
            return True
        return False
    understood = False
    for k, op in enumerate(ops):
        for left_text in expanded[k]:
            for right_text in expanded[k + 1]:
                understood |= _relate(left_text, op, right_text, params, aliases, node_params, c)
    return understood


def _relate(lt: str, op: str, rt: str, params: dict[str, str], aliases: dict[str, Term],
            node_params: list[str], c: Constraints) -> bool:
    if op in (">=", ">"):
        lt, rt = rt, lt
        op = "<=" if op == ">=" else "<"
    strict = 1 if op == "<" else 0
    ls = _subject(lt, params, aliases)
    rs = _subject(rt, params, aliases)
    lb, rb = _term(lt, params, aliases), _term(rt, params, aliases)
    sides = []  # (subject, bound, subject is on the left)
    if ls and rb:
        sides.append((ls, rb, True))
    if rs and lb:
        sides.append((rs, lb, False))
    if len(sides) == 2:  # both sides name arguments: constrain one of them only
        scalar = [s for s in sides if s[0][0] == "value" and params.get(s[0][1]) in ("int", "float")]
        sides = [scalar[0] if scalar else sides[0]]
    for (kind, name), bound, on_left in sides:
        if op == "==":
            rng: Range = (bound, bound)
        elif on_left:
            rng = (None, (bound[0], bound[1], bound[2] - strict))
        else:
            rng = ((bound[0], bound[1], bound[2] + strict), None)
        target = {"length": c.length, "inner": c.inner_length, "value": c.value}[kind]
        _add(target, name, rng, node_params)
    return bool(sides)


def _read_chars(subject: str, desc: str, params: dict[str, str], c: Constraints) -> bool:
    names = [n for n in re.findall(r"\w+", subject) if n in params]
    names += [m for m in re.findall(r"(\w+)\[\w+\]", subject) if m in params and m not in names]
    if not names:
        return False
    chars = ""
    low = desc.lower()
    quoted = re.findall(r"'([^']+)'|\"([^\"]+)\"", desc)
    for a, b in quoted:
        chars += a or b
    if "lowercase" in low:
        chars += string.ascii_lowercase
    if "uppercase" in low:
        chars += string.ascii_uppercase
    if re.search(r"(?<!lowercase )(?<!uppercase )english letters", low) or (re.search(r"\bletters\b", low) and "lowercase" not in low and "uppercase" not in low):
        chars += string.ascii_letters
    if "digit" in low:
        chars += string.digits
    if "space" in low:
        chars += " "
    if "symbol" in low or "punctuation" in low:
        chars += _SYMBOLS
    if not chars:
        return False
    unique = "".join(dict.fromkeys(chars))
    for n in names:
        c.chars[n] = unique
    return True


def resolve(term: Term | None, assigned: dict[str, object]) -> int | float | None:
    """A term's number given the values assigned so far; None when it cannot be resolved yet."""
    if term is None:
        return None
    kind, ref, off = term
    if kind == "num":
        return ref + off if isinstance(ref, (int, float)) else None
    value = assigned.get(str(ref))
    if value is None:
        return None
    if kind == "len" and isinstance(value, (list, str)):
        return (sum(v is not None for v in value) if isinstance(value, list) else len(value)) + off
    if kind == "val" and isinstance(value, (int, float)):
        return value + off
    return None


def holds(value: float, ranges: list[Range], assigned: dict[str, object]) -> bool:
    for lo, hi in ranges:
        lo_v, hi_v = resolve(lo, assigned), resolve(hi, assigned)
        if lo_v is not None and value < lo_v:
            return False
        if hi_v is not None and value > hi_v:
            return False
    return True

