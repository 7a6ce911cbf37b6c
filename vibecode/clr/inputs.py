"""Extra inputs for telling candidates apart: type-driven generation and model-proposed edge cases.

:func:`generate_inputs` builds inputs from the signature's types and the constraints
(:mod:`vibecode.problems.constraints`): minimal sizes (empty when allowed), a single element, all
duplicates, negatives, extremes of the value range, and a few seeded random ones. Sizes are
scaled down (lists of at most ``MAX_LEN`` items, scalar integers within ``±SCALAR_CAP``) so every
input runs fast. Where a bound is unknown the examples' own ranges are used (never wider), so a
generated input stays valid for what the problem shows. When the problem promises a hidden
property of its inputs ("exactly one solution") or has a constraint on an argument that is not
understood, nothing is generated and the notes say why.

:func:`parse_model_inputs` reads edge cases the model proposed, in the format that
:func:`edge_case_prompt` asks for: one JSON object of arguments per line. It also accepts Python
call lines (``twoSum(nums=[1,2], target=3)`` or positional) and LeetCode lines
(``nums = [1,2], target = 3``). Every input is checked against the signature's types and the
constraints; rejected lines are listed in ``notes``.
"""

from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Sequence
from typing import Any

from vibecode.errors import ProblemError
from vibecode.problems.binding import bind_arguments
from vibecode.problems.constraints import (
    Constraints,
    differ_violations,
    holds,
    parse_constraints,
    resolve,
)
from vibecode.problems.literals import (
    LiteralError,
    parse_arguments,
    parse_value,
    read_call,
    to_leetcode,
)
from vibecode.problems.typespec import TypeSpec, check_value, parse_type
from vibecode.types import InputSet, Problem

MAX_LEN = 40
SCALAR_CAP = 10_000
_SUPPORTED = {"int", "float", "bool", "str", "list", "listnode", "treenode"}


def _key(args: dict[str, object]) -> str:
    try:
        return json.dumps(args, sort_keys=True)
    except TypeError:  # a dict with keys of mixed types ({'a': 1, 8: 2}) cannot be sorted
        return repr(args)


def _specs(problem: Problem) -> dict[str, TypeSpec]:
    return {p.name: parse_type(p.type) for p in problem.signature.params}


def _leaf(spec: TypeSpec) -> TypeSpec:
    spec = spec.base
    while spec.kind == "list":
        spec = spec.element.base
    return spec


def _supported(spec: TypeSpec) -> bool:
    spec = spec.base
    if spec.kind in ("listnode", "treenode"):
        return True
    if spec.kind == "list":
        return _supported(spec.element)
    return spec.kind in _SUPPORTED - {"list"}


def _seen(problem: Problem, name: str) -> list[object]:
    return [ex.inputs[name] for ex in problem.examples if name in ex.inputs]


def _leaves(value: object) -> list[object]:
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def _lengths(value: object, depth: int) -> list[int]:
    if depth == 0:
        return [sum(v is not None for v in value) if isinstance(value, list) else len(value)] if isinstance(value, (list, str)) else []
    return [n for v in value for n in _lengths(v, depth - 1)] if isinstance(value, list) else []


def validate_input(args: dict[str, object], problem: Problem, constraints: Constraints | None = None) -> list[str]:
    """What is wrong with ``args`` (argument name -> value) for this problem; empty when valid."""
    c = constraints if constraints is not None else parse_constraints(problem)
    problems: list[str] = []
    for name, spec in _specs(problem).items():
        if name not in args:
            problems.append(f"missing argument {name}")
            continue
        value = args[name]
        err = check_value(value, spec, name)
        if err:
            problems.append(err)
            continue
        if value is None:
            continue
        if name in c.length:
            for n in _lengths(value, 0):
                if not holds(n, c.length[name], args):
                    problems.append(f"{name} has length {n} outside the constraints")
        if name in c.inner_length:
            for n in _lengths(value, 1):
                if not holds(n, c.inner_length[name], args):
                    problems.append(f"an item of {name} has length {n} outside the constraints")
        leaves = [v for v in _leaves(value) if v is not None]
        if name in c.value:
            bad = [v for v in leaves if isinstance(v, (int, float)) and not holds(v, c.value[name], args)]
            if bad:
                problems.append(f"{name} has value {bad[0]} outside the constraints")
        if name in c.choices:
            bad_choice = [v for v in leaves if v not in c.choices[name]]
            if bad_choice:
                problems.append(f"{name} has value {bad_choice[0]!r}, not one of {c.choices[name]}")
        if name in c.chars:
            text = "".join(v for v in leaves if isinstance(v, str))
            extra = sorted(set(text) - set(c.chars[name]))
            if extra:
                problems.append(f"{name} has characters {''.join(extra)!r} the constraints do not allow")
        flat = [v for v in (value if isinstance(value, list) else []) if not isinstance(v, list)]
        if name in c.sorted and flat and flat != sorted(flat, key=lambda v: (v is None, v)):
            problems.append(f"{name} should be sorted")
        units = value if isinstance(value, list) and any(isinstance(v, list) for v in value) else leaves
        if name in c.unique and len(set(map(json.dumps, units))) != len(units):
            problems.append(f"{name} should have distinct values")
        pairs = value if name in c.pair_sorted and isinstance(value, list) else []
        if any(isinstance(v, list) and len(v) == 2 and v[0] > v[1] for v in pairs):
            problems.append(f"the pairs in {name} should be ordered")
    if not problems:
        problems += differ_violations(c, args)
    if not problems:
        problems += [f"breaks {ch.line!r}" for ch in c.checks if ch.test(args) is False]
    return problems


class _Gen:
    """Values for one problem; ``mode`` picks the kind of case."""

    def __init__(self, problem: Problem, c: Constraints, rng: random.Random) -> None:
        self.problem, self.c, self.rng = problem, c, rng

    def _range(self, name: str, assigned: dict[str, object], integer: bool) -> tuple[float, float]:
        los: list[float] = []
        his: list[float] = []
        for lo_t, hi_t in self.c.value.get(name, []):
            lv, hv = resolve(lo_t, assigned), resolve(hi_t, assigned)
            if lv is not None:
                los.append(lv)
            if hv is not None:
                his.append(hv)
        seen = [float(v) for v in _leaves(_seen(self.problem, name)) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        lo = max(los) if los else (min(seen) if seen else 0.0)
        hi = min(his) if his else (max(seen) if seen else 10.0)
        return (lo, hi)

    def _len_range(self, name: str, assigned: dict[str, object], inner: bool) -> tuple[int, int]:
        ranges = (self.c.inner_length if inner else self.c.length).get(name, [])
        los = [v for lo, _ in ranges if (v := resolve(lo, assigned)) is not None]
        his = [v for _, hi in ranges if (v := resolve(hi, assigned)) is not None]
        seen = _lengths(_seen(self.problem, name), 2 if inner else 1)
        lo = int(max(los)) if los else (min(seen) if seen else 1)
        hi = int(min(his)) if his else (max(max(seen), 8) if seen else 8)
        return max(lo, 0), max(min(hi, MAX_LEN), max(lo, 0))

    def _chars(self, name: str) -> str:
        if name in self.c.chars:
            return self.c.chars[name]
        seen = "".join(v for v in _leaves(_seen(self.problem, name)) if isinstance(v, str))
        return "".join(sorted(set(seen))) or string.ascii_lowercase

    def scalar(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], item: bool = False) -> object:
        """One value; ``item``: an element of a list, whose stated range is used in full (up to the
        32-bit bounds) for the extremes and the "wide" mode, where a scalar argument stays capped
        (it is often a size or a loop count)."""
        k = spec.kind
        if k == "bool":
            return mode == "max" or (mode == "random" and self.rng.random() < 0.5)
        if k == "str":
            chars = self._chars(name)
            return self.rng.choice(chars)
        choices = [v for v in self.c.choices.get(name, []) if isinstance(v, (int, float))]
        if choices:
            return min(choices) if mode in ("min", "negative") else max(choices) if mode == "max" else self.rng.choice(choices)
        lo, hi = self._range(name, assigned, k == "int")
        if k == "int" and item and name in self.c.value and mode in ("min", "max", "negative", "wide"):
            lo_w, hi_w = int(max(lo, -(2**31))), int(min(hi, 2**31 - 1))
            if lo_w <= hi_w:
                if mode == "wide":
                    return self.rng.randint(lo_w, hi_w)
                return lo_w if mode in ("min", "negative") else hi_w
        if k == "int":
            lo_i, hi_i = int(max(lo, -SCALAR_CAP)), int(min(hi, SCALAR_CAP))
            if lo_i > hi_i:  # the whole range lies beyond the cap: keep its low end
                lo_i, hi_i = int(lo), int(min(hi, lo + SCALAR_CAP))
            if mode == "min" or mode == "negative":
                return lo_i
            if mode == "max":
                return hi_i
            # Mostly small values (where off-by-one and greedy mistakes show), sometimes any.
            roll = self.rng.random()
            for width, share in ((10, 0.5), (100, 0.8)):
                w_lo, w_hi = max(lo_i, -width), min(hi_i, width)
                if w_lo > w_hi:
                    w_lo, w_hi = lo_i, min(hi_i, lo_i + width)
                if roll < share:
                    return self.rng.randint(w_lo, w_hi)
            return self.rng.randint(lo_i, hi_i)
        if mode in ("min", "negative"):
            return float(lo)
        if mode == "max":
            return float(hi)
        return round(self.rng.uniform(lo, hi), 3)

    def element(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], depth: int) -> object:
        """An item at nesting ``depth`` (1 = an element of the argument itself)."""
        spec = spec.base
        if spec.kind == "list":
            return self.sequence(spec, name, mode, assigned, depth)
        if spec.kind == "str":
            lo, hi = self._len_range(name, assigned, inner=True) if name in self.c.inner_length else (1, 6)
            n = lo if mode == "min" else hi if mode == "max" else self.rng.randint(lo, max(lo, min(hi, 6)))
            chars = self._chars(name)
            return "".join(self.rng.choice(chars) for _ in range(n))
        return self.scalar(spec, name, mode, assigned, item=True)

    def sequence(self, spec: TypeSpec, name: str, mode: str, assigned: dict[str, object], depth: int = 0) -> object:
        """A list (or string, or linked list) at nesting ``depth`` (0 = the argument itself)."""
        lo, hi = self._len_range(name, assigned, inner=depth > 0)
        small = self.rng.randint(lo, max(lo, min(hi, 10)))
        n = {"min": lo, "single": max(lo, min(1, hi)), "max": hi, "wide": self.rng.randint(lo, hi)}.get(mode, small)
        elem = spec.element if spec.kind == "list" else TypeSpec("int")
        if spec.kind == "str":
            chars = self._chars(name)
            if mode == "duplicates":
                return self.rng.choice(chars) * max(n, 2 if hi >= 2 else n)
            return "".join(self.rng.choice(chars) for _ in range(n))
        if mode == "duplicates":
            one = self.element(elem, name, "random", assigned, depth + 1)
            items = [one] * max(n, 2 if hi >= 2 else n)
        elif mode == "extremes":
            items = [self.element(elem, name, "min" if i % 2 else "max", assigned, depth + 1) for i in range(n)]
        else:
            sub = mode if mode in ("min", "max", "negative", "wide") else "random"
            items = [self.element(elem, name, sub, assigned, depth + 1) for _ in range(n)]
        if name in self.c.pair_sorted and depth == 0:
            items = [sorted(v) if isinstance(v, list) else v for v in items]
        if name in self.c.unique:
            items = list({json.dumps(v): v for v in items}.values())
        if name in self.c.sorted and depth == 0:
            items.sort()
        return items

    def tree(self, name: str, mode: str, assigned: dict[str, object]) -> object:
        values = self.sequence(TypeSpec("list", (TypeSpec("int"),)), name, mode, assigned)
        assert isinstance(values, list)
        if name in self.c.bst:
            return _bst(list(dict.fromkeys(values)))
        out: list[object] = list(values)
        if len(out) > 2 and mode == "random":
            for i in range(1, len(out)):
                if self.rng.random() < 0.2:
                    out.insert(i, None)
        while out and out[-1] is None:
            out.pop()
        return out


def _bst(values: list[Any]) -> list[object]:
    """The level-order serialization of the BST built by inserting ``values`` in order."""
    root: list[Any] | None = None

    def insert(node: list[Any] | None, v: Any) -> list[Any]:
        if node is None:
            return [v, None, None]
        side = 1 if v < node[0] else 2
        node[side] = insert(node[side], v)
        return node

    for v in values:
        root = insert(root, v)
    out: list[object] = []
    queue: list[list[Any] | None] = [root]
    while queue:
        node = queue.pop(0)
        if node is None:
            out.append(None)
            continue
        out.append(node[0])
        queue.extend([node[1], node[2]])
    while out and out[-1] is None:
        out.pop()
    return out


# edge cases, then random inputs at small sizes, then at any allowed size (up to MAX_LEN) with values
# across the whole stated range ("wide")
_MODES = ("min", "single", "duplicates", "negative", "max", "extremes") + ("random", "wide") * 5


def generate_inputs(problem: Problem, *, seed: int = 0, max_inputs: int = 12) -> InputSet:
    """Type-driven inputs (LeetCode serialization), validated; see the module doc."""
    c = parse_constraints(problem)
    specs = _specs(problem)
    unsupported = [n for n, s in specs.items() if not _supported(s)]
    if not specs:
        return InputSet((), "type", ("the function takes no arguments",))
    if unsupported:
        types = {p.name: p.type for p in problem.signature.params}
        return InputSet((), "type", (f"cannot generate values of type {types[unsupported[0]]} for {unsupported[0]}",))
    rng = random.Random(seed)
    gen = _Gen(problem, c, rng)
    order = sorted(specs, key=lambda n: specs[n].base.kind in ("int", "float", "bool"))
    out: dict[str, dict[str, object]] = {}
    notes: list[str] = list(c.notes)
    rejected = 0
    for mode in _MODES:
        if mode == "negative" and all(gen._range(n, {}, True)[0] >= 0 for n in specs if _leaf(specs[n]).kind in ("int", "float")):
            continue
        args: dict[str, object] = {}
        for name in order:
            base = specs[name].base
            if base.kind == "treenode":
                args[name] = gen.tree(name, mode, args)
            elif base.kind in ("list", "listnode", "str"):
                args[name] = gen.sequence(base, name, mode, args)
            else:
                args[name] = gen.scalar(base, name, mode if mode in ("min", "max", "negative") else "random", args)
        ordered = {p.name: args[p.name] for p in problem.signature.params}
        if validate_input(ordered, problem, c):
            rejected += 1
            continue
        out.setdefault(_key(ordered), ordered)
        if len(out) >= max_inputs:
            break
    if rejected:
        notes.append(f"{rejected} generated input(s) did not satisfy the constraints and were dropped")
    return InputSet(tuple(out.values()), "type", tuple(notes))


def edge_case_prompt(problem: Problem, *, count: int = 8) -> str:
    """The user message asking the model for edge-case inputs in the format
    :func:`parse_model_inputs` reads."""
    sig = problem.signature
    if problem.examples:
        sample = problem.examples[0].inputs
    else:
        sample = {p.name: _placeholder(parse_type(p.type)) for p in sig.params}
    example_line = "{" + ", ".join(f"{json.dumps(k)}: {to_leetcode(v)}" for k, v in sample.items()) + "}"
    constraints = "\n".join(f"- {c}" for c in problem.constraints) or "- (none stated)"
    return (
        f"Here is a programming problem.\n\n# {problem.title}\n\n{problem.statement}\n\n"
        f"Constraints:\n{constraints}\n\nThe function is:\n```python\n{problem.starter.rstrip()}\n```\n\n"
        f"List up to {count} tricky but VALID inputs for `{sig.function}` that are likely to expose bugs: "
        "smallest and largest allowed sizes, duplicates, negative numbers, extremes of the allowed "
        "values. Every input must satisfy all the constraints and promises of the problem.\n"
        "Write each input on its own line as one JSON object that maps every argument name to its "
        "value, and nothing else on that line, for example:\n"
        f"{example_line}\n"
        "Write linked lists and binary trees as LeetCode arrays (trees level by level, null for a "
        "missing child). Do not write the expected outputs."
    )


def _placeholder(spec: TypeSpec) -> object:
    k = spec.base.kind
    return {"int": 1, "float": 1.5, "bool": True, "str": "ab"}.get(k, [1, 2])


def parse_model_inputs(text: str, problem: Problem, *, max_inputs: int = 10) -> InputSet:
    """Inputs proposed by the model, one per line, checked against the signature and constraints."""
    c = parse_constraints(problem)
    sig = problem.signature
    out: dict[str, dict[str, object]] = {}
    notes: list[str] = []
    for raw in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", raw.strip()).strip().rstrip(",;")
        line = re.sub(r"^(?:input|inputs)\s*:\s*", "", line, flags=re.I)
        if not line or line.startswith(("```", "#")):
            continue
        pairs = _read_line(line, sig.function, sig.arg_names)
        if pairs is None and " #" in line:
            pairs = _read_line(line[: line.rfind(" #")].strip(), sig.function, sig.arg_names)
        if pairs is None:
            continue
        try:
            args = bind_arguments(sig, pairs, "a proposed input")
        except ProblemError as exc:
            notes.append(f"rejected {line[:60]!r}: {exc.message}")
            continue
        problems = validate_input(args, problem, c)
        if problems:
            notes.append(f"rejected {line[:60]!r}: {problems[0]}")
            continue
        out.setdefault(_key(args), args)
        if len(out) >= max_inputs:
            break
    return InputSet(tuple(out.values()), "model", tuple(notes))


def _read_line(line: str, function: str, names: Sequence[str]) -> list[tuple[str | None, object]] | None:
    if line.startswith("{"):
        try:
            obj = parse_value(line)
        except LiteralError:
            return None
        return [(str(k), v) for k, v in obj.items()] if isinstance(obj, dict) else None
    call = read_call(line)
    if call is not None and not line[call[3] :].strip() and call[0] in (function, "f", "solve", "solution"):
        if len(call[1]) > len(names):
            return None
        pairs: list[tuple[str | None, object]] = [(names[i], v) for i, v in enumerate(call[1])]
        return pairs + [(k, v) for k, v in call[2].items()]
    if re.match(r"^[A-Za-z_]\w*\s*=(?!=)", line):
        try:
            return parse_arguments(line)
        except LiteralError:
            return None
    return None
