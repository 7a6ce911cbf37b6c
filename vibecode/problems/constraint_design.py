"""Constraint lines of design-class problems (LRUCache, MinStack, Trie, ...), read per method.

A design problem's inputs are an operation sequence (``operations``/``arguments``), so its lines
name the arguments of the constructor and of the methods: ``1 <= capacity <= 3000`` (the
constructor), ``0 <= key <= 10^4`` (``get`` and ``put``), ``word consists of lowercase English
letters``. Each method is read as a small problem of its own (:func:`method_problem`: its
parameters, the statement's lines, its calls in the examples); this is the problem that
:mod:`vibecode.clr.design_inputs` generates and validates each call's arguments with. A line is
understood when at least one method's reading understands it, so the figure counts only lines
that really bound some call's arguments. "At most N calls will be made to f" is recorded in
``calls`` and bounds the length of generated sequences.

A line that bounds a method's arguments by the constructor's (``0 <= index < nums.length``:
``update``'s index, the constructor's nums; ``1 <= seatNumber <= n``) is read with the constructor's
parameters as context (:func:`context_problem`: the method's parameters and then the constructor's,
the lines that name both, and the constructor's own lines for its aliases such as ``n == parent.length``).
It is understood when that reading understands it; :mod:`vibecode.clr.design_inputs` checks and
draws each call with its sequence's constructor arguments bound. Any other line that names the
arguments of two methods (``All the timestamps of set are strictly increasing``, a line on two
methods that are not the constructor) is a "relation across methods": it depends on the state,
which neither reading can see; except a parameter whose values rise from call to call ("All the
timestamps of set are strictly increasing"), read by :mod:`constraint_order`, and arguments that
never repeat across calls ("(row, col) are unique for each different call to move"), read by
:mod:`constraint_unique`. A call limit in the constructor's arguments ("At most n^2 calls will be
made to move") is read by :mod:`constraint_call_limits`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_call_limits import call_limit
from vibecode.problems.constraint_order import rising
from vibecode.problems.constraint_types import Constraints, constraint_line
from vibecode.problems.constraint_unique import unique
from vibecode.problems.design import ARGUMENTS, OPERATIONS, fold, method_for
from vibecode.types import Example, Problem, Signature

Parse = Callable[[Problem], Constraints]

_GUARD = re.compile(
    r"non-?empty|(?:always|will) be valid|\bare (?:always )?valid|at least one (?:element|number|item|value|key)|"
    r"not be called on an? empty|only be called when",
    re.I,
)


def guarded_methods(problem: Problem) -> set[str]:
    """Methods the statement says are only called in a valid (non-empty) state."""
    text = "\n".join([problem.statement, *problem.constraints])
    names = {fold(m.function): m.function for m in problem.signature.methods[1:]}
    out: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
        if _GUARD.search(sentence):
            out |= {names[fold(w)] for w in re.findall(r"[A-Za-z_]\w*", sentence) if fold(w) in names}
    return out


def guard_sentence(line: str, problem: Problem) -> bool:
    """A line that keeps some method to a valid state (\"All the calls to pop and peek are valid\"):
    the generated sequences keep it (:mod:`vibecode.clr.design_inputs` counts the elements)."""
    names = {fold(m.function) for m in problem.signature.methods[1:]}
    return bool(_GUARD.search(line)) and any(fold(w) in names for w in re.findall(r"[A-Za-z_]\w*", line))


def method_problem(problem: Problem, method: Signature) -> Problem:
    """The method as a problem of its own: its parameters, the constraints, its example calls."""
    sig = Signature(method.function, method.params, method.returns)
    examples = tuple(Example(dict(zip(sig.arg_names, a, strict=True)), out)
                     for a, out in method_calls(problem, method))
    lines = tuple(own_names(line, method, _others(problem, method)) for line in problem.constraints)
    return Problem("leetcode", problem.title, problem.statement, sig, examples, lines, "")


def own_names(line: str, method: Signature, others: frozenset[str] = frozenset()) -> str:
    """The line with the statement's spelling of the method's parameters replaced by the
    signature's (``wordsDict`` -> ``words_dict``, ``userId`` -> ``user_id``); in a list of terms
    (``1 <= stationName.length, startStation.length <= 10``) the terms that name only other
    methods' parameters (``others``, folded) are dropped."""
    names = {fold(p.name): p.name for p in method.params}
    if re.search(r"[<>=]", line):  # "0 <= start < end <= 10^9" for book(start_time, end_time)
        names.update({w: p.name for p in method.params for w in _short_names(p.name, method, others)})
    line = re.sub(r"[A-Za-z_]\w*", lambda m: names.get(fold(m.group(0)), m.group(0)), line)
    if not others or "," not in line:
        return line
    parts = re.split(r"(<=|>=|==|<|>)", line)
    for k in range(0, len(parts), 2):
        items = parts[k].split(",")
        if len(items) < 2:
            continue
        words = [{fold(w) for w in re.findall(r"[A-Za-z_]\w*", item)} for item in items]
        keep = [item for item, ws in zip(items, words, strict=True) if not (ws & others) or ws & set(names)]
        if keep and len(keep) < len(items):
            parts[k] = ",".join(keep) if k else ",".join(keep).rstrip() + " "
    return "".join(parts)


def _short_names(name: str, method: Signature, others: frozenset[str]) -> list[str]:
    """The first and the last word of a parameter's name (``start`` of ``start_time``), where no
    other parameter of the method and no other method's parameter starts or ends with that word."""
    words = [w for w in name.lower().split("_") if len(w) >= 3]
    if "_" not in name or not words:
        return []
    mine = [fold(p.name) for p in method.params if p.name != name]
    out = []
    for w in {words[0], words[-1]}:
        if not any(o == w or o.startswith(w) or o.endswith(w) for o in (*mine, *others)):
            out.append(w)
    return out


def method_calls(problem: Problem, method: Signature) -> list[tuple[list[object], object]]:
    """The example calls of ``method``: (arguments, what it returned)."""
    out = []
    for ex in problem.examples:
        ops, args, outputs = ex.inputs.get(OPERATIONS), ex.inputs.get(ARGUMENTS), ex.output
        if not isinstance(ops, list) or not isinstance(args, list) or not isinstance(outputs, list):
            continue
        for i, (op, a) in enumerate(zip(ops, args, strict=False)):
            target = problem.signature.methods[0] if i == 0 else method_for(problem.signature, str(op))
            if target is method and isinstance(a, list) and len(a) == len(method.params):
                out.append((a, outputs[i] if i < len(outputs) else None))
    return out


def _others(problem: Problem, method: Signature) -> frozenset[str]:
    """The folded parameter names of the other methods (and the constructor)."""
    own = {fold(p.name) for p in method.params}
    return frozenset(fold(p.name) for m in problem.signature.methods for p in m.params) - own


def _names(line: str, method: Signature) -> bool:
    return any(re.search(rf"\b{re.escape(p.name)}\b", line) for p in method.params)


def relation_lines(problem: Problem, method: Signature) -> list[str]:
    """The constraint lines that name both an argument of ``method`` and one of the constructor's
    (in the statement's spelling); empty for the constructor itself."""
    ctor = problem.signature.methods[0]
    if method is ctor or not method.params or not ctor.params:
        return []
    own, theirs = _folded(method), (_folded(ctor) | _aliases(problem)) - _folded(method)
    out = []
    for line in problem.constraints:
        words = {fold(w) for w in re.findall(r"[A-Za-z_]\w*", _normal(line))}
        if words & own and words & theirs:
            out.append(line)
    return out


def context_problem(problem: Problem, method: Signature, lines: list[str] | None = None) -> Problem | None:
    """``method`` with the constructor's parameters as context: a problem whose parameters are the
    method's and then the constructor's (those of other names), whose lines are ``lines`` (by
    default :func:`relation_lines`) and the lines that name only the constructor's parameters;
    None when no line relates the two."""
    related = relation_lines(problem, method) if lines is None else lines
    if not related:
        return None
    ctor = problem.signature.methods[0]
    own = _folded(method)
    extra = tuple(p for p in ctor.params if fold(p.name) not in own)
    sig = Signature(method.function, (*method.params, *extra), method.returns)
    others = _others(problem, method) - _folded(ctor)
    params = {fold(p.name) for m in problem.signature.methods for p in m.params} - _folded(ctor)
    ctor_only = [line for line in problem.constraints if line not in related and _names(own_names(line, ctor), ctor)
                 and not {fold(w) for w in re.findall(r"[A-Za-z_]\w*", line)} & params]
    texts = tuple(own_names(line, sig, others) for line in (*ctor_only, *related))
    return Problem("leetcode", problem.title, problem.statement, sig, (), texts, "")


def relation_understood(problem: Problem, method: Signature, line: str, parse: Parse) -> bool:
    """Whether the reading of ``method`` with the constructor as context understands ``line``. A
    line that orders a string parameter (``'A' <= column <= width``) is not: the checks compare
    numbers only, so it would bound nothing."""
    ctx = context_problem(problem, method, [line])
    if ctx is None:
        return False
    text = ctx.constraints[-1]
    strings = [p.name for p in method.params if (p.type or "") == "str"]
    if re.search(r"[<>]", _normal(text)) and any(re.search(rf"\b{re.escape(n)}\b", text) for n in strings):
        return False
    return _verdict(_normal(text), parse(ctx)) == "understood"


def _aliases(problem: Problem) -> set[str]:
    """Names the constructor's lines define (``n == parent.length``), folded."""
    ctor = problem.signature.methods[0]
    out: set[str] = set()
    for line in problem.constraints:
        text = _normal(line)
        if "==" in text and _names(own_names(text, ctor), ctor):
            out |= {fold(a or b) for a, b in re.findall(r"(?<![\w.\[])([A-Za-z_]\w*)\s*==|==\s*([A-Za-z_]\w*)(?![\w.\[(])", text)}
    return out - _folded(ctor)


def _folded(method: Signature) -> set[str]:
    return {fold(p.name) for p in method.params}


def design_constraints(problem: Problem, parse: Parse) -> Constraints:
    """The whole problem's reading: each line understood by some method, or skipped with its kind;
    the call limits of all methods in ``calls``. The per-argument fields stay empty (the inputs
    are operation sequences; each call is checked against its method's reading)."""
    methods = problem.signature.methods
    readings = [(m, parse(method_problem(problem, m))) for m in methods]
    c = Constraints()
    for _, r in readings:
        for fn, count in r.calls.items():
            c.calls.setdefault(fn, count)
        c.promises += [p for p in r.promises if p not in c.promises]
    for line in problem.constraints:
        norm = _normal(line)
        verdicts = [_verdict(_normal(own_names(line, m, _others(problem, m))), r) for m, r in readings]
        if "understood" in verdicts or guard_sentence(line, problem) or rising(line, problem.signature) \
                or unique(line, problem.signature) or call_limit(line, problem.signature):
            continue  # understood by a method, a precondition the sequences keep, arguments rising or unique
            # across calls, or a call limit in the constructor's arguments
        if "promise" in verdicts:
            c.promise_lines.append(norm)
            continue
        naming = [k for k, (m, _) in enumerate(readings) if _names(own_names(norm, m), m)]
        if _related(problem, line, parse):
            continue
        if len(naming) >= 2:
            c.skipped.append((norm, "relation across methods"))
        else:
            c.skipped.append((norm, verdicts[naming[0]] if naming else "names no argument"))
    return c


def _related(problem: Problem, line: str, parse: Parse) -> bool:
    """Whether some method's reading with the constructor as context understands ``line``."""
    return any(line in relation_lines(problem, m) and relation_understood(problem, m, line, parse)
               for m in problem.signature.methods[1:])


def _verdict(norm: str, reading: Constraints) -> str:
    """"understood", "promise", or the kind of line a method's reading skipped it as."""
    kinds = {line.strip(): kind for line, kind in reading.skipped}
    if norm.strip() in kinds:
        return kinds[norm.strip()]
    return "promise" if norm in reading.promise_lines else "understood"


def _normal(line: str) -> str:
    """The line as :func:`vibecode.problems.constraints.parse_constraints` lists it."""
    return constraint_line(line)
