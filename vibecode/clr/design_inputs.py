"""Generated operation sequences for design-class problems (LRUCache, MinStack, Trie, ...).

Each method (the constructor too) is treated as a small problem of its own: its parameters, the
statement's constraint lines, and its calls in the examples. Its argument pool is those calls
plus what :func:`vibecode.clr.inputs.generate_inputs` makes from the types and constraints. A
sequence starts with a constructor call and then calls methods at random; about half of the
arguments (nine in ten in every third sequence) reuse a value already used in the sequence (or a
prefix of a string), so that keys collide, caches evict, minimums repeat and prefixes match;
every third sequence repeats an example's operations with other arguments; every fourth calls
the adding methods three times as often, on one of the smallest constructors. Where a method
takes a direction on a board the constructor sizes, a third of the sequences are walks on a small
board (:mod:`vibecode.clr.design_walks`). Constructors take an
example's arguments half of the time and the smallest generated ones (capacity 1, 2) often. Every sixth sequence
is long (``LONG`` calls, within the stated call limits) on a smallest constructor, reusing values nine
in ten times and adding often, so that state accumulates past the limits a statement names. Every call is checked with
:func:`vibecode.clr.inputs.validate_input` against its method's constraints.

Preconditions that the statement states ("pop, top and getMin will always be called on
non-empty stacks", "all the calls to pop and peek are valid", "at least one element ... before
calling findMedian") are kept by a rule that does not depend on any candidate: the sequence
counts the elements added (``push``/``add``/``insert``/``put``...) and removed
(``pop``/``remove``/``delete``...) and calls a guarded method only when the count is positive.
Where the statement guards a method but nothing adds elements (an iterator over its
constructor's input), that method is not generated, and the notes say so. A parameter the
statement says rises from call to call ("timestamp is monotonically increasing", see
:mod:`vibecode.problems.constraint_order`) gets each sequence's drawn values in order; arguments it
says never repeat ("(row, col) are unique for each different call to move",
:mod:`vibecode.problems.constraint_unique`) are drawn again when they would.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

from vibecode.clr.design_relations import Relations
from vibecode.clr.design_walks import board, walk
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.constraint_call_limits import CallLimit, call_limit, exceeded
from vibecode.problems.constraint_design import guarded_methods, method_problem
from vibecode.problems.constraint_order import Rising, broken, rising, values
from vibecode.problems.constraint_unique import Unique, call_key, repeated, unique
from vibecode.problems.constraints import Constraints, parse_constraints
from vibecode.problems.design import (
    ARGUMENTS,
    OPERATIONS,
    RESULT,
    fold,
    is_iterator,
    is_round_trip,
    method_for,
    round_trip_sequence,
    sequence_error,
)
from vibecode.problems.typespec import parse_type
from vibecode.types import InputSet, Problem, Signature

LENGTHS = (8, 16, 32, 48)  # operations after the constructor, in turn
LONG = 4 * max(LENGTHS)  # every sixth sequence: this long (within the call limits), values nearly always reused
_CALLS = re.compile(r"\bat most\b.*\bcalls?\b", re.I)
_ADDS = ("push", "add", "insert", "put", "offer", "enqueue", "append")
_REMOVES = ("pop", "remove", "delete", "dequeue", "poll")
_REDRAWS = 24  # draws of one call's arguments before a repeated tuple leaves the call out


def _elements(value: object) -> int:
    """How many values a constructor argument holds (nested lists and trees: the non-null leaves)."""
    if isinstance(value, list):
        return sum(_elements(v) for v in value)
    return 0 if value is None else 1


def _size(args: list[object]) -> float:
    """How large constructor arguments are: numbers by magnitude, lists and strings by length."""
    total = 0.0
    for v in args:
        total += len(v) if isinstance(v, (list, str)) else abs(v) if isinstance(v, (int, float)) else 0
    return total


def _prefixed(name: str, prefixes: tuple[str, ...]) -> bool:
    return fold(name).startswith(prefixes)


class _Sequences:
    def __init__(self, problem: Problem, rng: random.Random) -> None:
        self.problem, self.rng = problem, rng
        self.sig = problem.signature
        self.minis = {m.function: method_problem(problem, m) for m in self.sig.methods}
        self.relations = Relations(problem)
        self.readings = {f: parse_constraints(mini) for f, mini in self.minis.items()}
        self.ctor: list[object] = []
        self.pools: dict[str, list[list[object]]] = {}
        self.notes: list[str] = []
        for m in self.sig.methods:
            mini = self.minis[m.function]
            pool = [list(e.inputs.values()) for e in mini.examples]
            if m.params:
                made = generate_inputs(mini, seed=rng.randrange(1 << 30), max_inputs=24)
                pool += [[x[n] for n in mini.signature.arg_names] for x in made.inputs]
            elif not pool:
                pool = [[]]
            if pool:
                self.pools[m.function] = pool
            else:
                self.notes.append(f"no valid arguments for `{m.function}`; it is not called")
        guarded = guarded_methods(problem)
        if is_iterator(self.sig):  # next past the end is undefined whether or not the statement says so
            guarded |= {m.function for m in self.sig.methods[1:] if fold(m.function) in ("next", "peek")}
        self.adders = [m.function for m in self.sig.methods[1:] if _prefixed(m.function, _ADDS)]
        # an iterator over its constructor's input: it holds as many elements as that input
        self.iterates = not self.adders and bool(guarded) and all(_prefixed(g, ("next", "peek")) for g in guarded) and any(
            parse_type(p.type).base.kind in ("list", "treenode") or (p.type or "").startswith("Iterator")
            or "nested" in p.name.lower() for p in self.sig.methods[0].params)
        if guarded and not self.adders and not self.iterates:
            self.notes.append(f"{', '.join(sorted(guarded))}: only valid in states vibecode cannot track; not called")
        self.guarded = guarded
        # "At most N calls will be made to f": f is called at most N times, all calls at most "*"
        self.limits = {fold(f): n for f, n in parse_constraints(problem).calls.items()}
        self.ctor_limits = [cl for line in problem.constraints if (cl := call_limit(line, self.sig))]  # "At most n^2 calls"
        self.bounds = dict(self.limits)  # this sequence's limits: ``limits`` and those of its constructor's arguments
        # "All the timestamps of set are strictly increasing": each sequence's values put in order
        self.rising = [r for line in problem.constraints if (r := rising(line, self.sig))]
        # "(row, col) are unique for each different call to move": a repeated tuple is drawn again
        self.unique = [u for line in problem.constraints if (u := unique(line, self.sig))]

    def callable_now(self, count: int, made: dict[str, int] | None = None) -> list[Signature]:
        made = made or {}
        return [m for m in self.sig.methods[1:] if m.function in self.pools
                and made.get(m.function, 0) < self.bounds.get(fold(m.function), 1 << 62)
                and (m.function not in self.guarded or ((self.adders or self.iterates) and count > 0))]

    def valid(self, method: Signature, args: list[object]) -> bool:
        """Whether a call keeps its method's lines and those relating it to this sequence's constructor."""
        mini = self.minis[method.function]
        return not validate_input(dict(zip(mini.signature.arg_names, args, strict=True)), mini, self.readings[method.function]) \
            and not self.relations.errors(method, args, self.ctor)

    def arguments(self, method: Signature, used: dict[str, list[object]], reuse: float) -> list[object] | None:
        """One call's arguments: from the method's pool, each int or str replaced (with
        probability ``reuse``) by one of a few values this sequence keeps for that parameter name,
        or (less often) by a value already used, or a prefix of a used string. Where a line bounds
        them by the constructor's arguments (``index < nums.length``) a pool row that breaks it is
        drawn again within the bound (:class:`Relations`); None when no arguments keep it."""
        pool = self.pools[method.function]
        base = list(self.rng.choice(pool))
        if self.relations.lines.get(method.function):
            drawn = self.relations.draw(method, base, self.ctor, self.rng)
            if drawn is None or not self.valid(method, drawn):
                rows = [row for row in pool if self.valid(method, list(row))]
                drawn = list(self.rng.choice(rows)) if rows else None
            if drawn is None:
                return None
            base = drawn
        for n, p in enumerate(method.params):
            kind = parse_type(p.type).base.kind
            seen = used.get(kind, [])
            roll = self.rng.random()
            if kind not in ("int", "str") or roll >= reuse + 0.2:
                continue
            if roll < reuse:
                column = sorted({json.dumps(row[n]) for row in pool})
                keep = self.universe.setdefault(p.name, self.rng.sample(column, min(len(column), self.rng.choice((2, 3, 4)))))
                value = json.loads(self.rng.choice(keep))
            elif seen:
                value = self.rng.choice(seen)
                if kind == "str" and isinstance(value, str) and value and self.rng.random() < 0.5:
                    value = value[: self.rng.randint(1, len(value))]
            else:
                continue
            trial = [*base[:n], value, *base[n + 1 :]]
            if self.valid(method, trial):
                base = trial
        for p, v in zip(method.params, base, strict=True):
            used.setdefault(parse_type(p.type).base.kind, []).append(v)
        return base

    def fresh(self, method: Signature, used: dict[str, list[object]], reuse: float,
              taken: set[tuple[int, str]]) -> list[object] | None:
        """One call's arguments (:meth:`arguments`) whose values differ from every earlier call's
        where a line says they never repeat (drawn again, at most ``_REDRAWS`` times, with less
        reuse each time); the values are added to ``taken``. None when no arguments keep it."""
        for attempt in range(_REDRAWS if self.unique else 1):
            call = self.arguments(method, used, reuse * (1 - attempt / _REDRAWS))
            if call is None:
                return None
            keys = {(n, k) for n, u in enumerate(self.unique) if (k := call_key(u, self.sig, method.function, call)) is not None}
            if not keys & taken:
                taken |= keys
                return call
        return None

    def sequence(self, ctor: list[object], length: int, reuse: float,
                 pattern: list[str] | None = None, churn: bool = False) -> dict[str, object] | None:
        """A constructor call and ``length`` calls: random methods, or ``pattern``'s in turn
        (an example's operations) where the state allows them. With ``churn`` the methods that
        add (``put``, ``push``, ...) are three times as likely, so that updates and evictions
        follow each other without reads in between (a stale update in an LRU cache)."""
        ops: list[object] = [self.sig.class_name or ""]
        args: list[object] = [ctor]
        self.ctor = ctor
        named = dict(zip((p.name for p in self.sig.methods[0].params), ctor, strict=False))
        self.bounds = dict(self.limits)
        for cl in self.ctor_limits:
            if (bound := cl.bound(named)) is not None:
                for f in cl.methods:
                    self.bounds[fold(f)] = min(bound, self.bounds.get(fold(f), bound))
        failed: set[str] = set()  # methods no arguments keep the constructor's bounds for
        used: dict[str, list[object]] = {}
        self.universe: dict[str, list[str]] = {}
        for p, v in zip(self.sig.methods[0].params, ctor, strict=True):
            used.setdefault(parse_type(p.type).base.kind, []).append(v)
        count = sum(_elements(v) for v in ctor) if self.iterates else 0
        made: dict[str, int] = {}
        taken: set[tuple[int, str]] = set()  # (which unique reading, the values it keeps apart) used so far
        for _ in range(min(length, self.bounds.get("*", length + 1) - 1)):  # the constructor is a call too
            choices = [m for m in self.callable_now(count, made) if m.function not in failed]
            if not choices:
                break
            wanted = method_for(self.sig, pattern[(len(ops) - 1) % len(pattern)]) if pattern else None
            weighted = [m for m in choices for _ in range(3 if churn and m.function in self.adders else 1)]
            method = wanted if wanted in choices else self.rng.choice(weighted)
            call = self.fresh(method, used, reuse, taken)
            if call is None:  # this call is left out, not the sequence
                failed.add(method.function)
                continue
            ops.append(method.function)
            made[method.function] = made.get(method.function, 0) + 1
            args.append(call)
            removes = _REMOVES + (("next",) if self.iterates else ())
            count += _prefixed(method.function, _ADDS) - (count > 0 and _prefixed(method.function, removes))
        if len(ops) < 2 or sequence_error(self.sig, ops, args) or not all(self.rise(r, ops, args) for r in self.rising):
            return None
        return {OPERATIONS: ops, ARGUMENTS: args}

    def rise(self, r: Rising, ops: list[object], args: list[object]) -> bool:
        """The drawn values of a rising parameter put in order over the calls (one added to a value
        that would repeat its predecessor, when it must rise strictly); False when a call no longer
        keeps its method's lines."""
        seen = values(r, self.sig, ops, args)
        drawn = sorted(v for _, _, v in seen if isinstance(v, int))
        if len(drawn) != len(seen):
            return False
        for k in range(1, len(drawn)):
            drawn[k] = max(drawn[k], drawn[k - 1] + 1) if r.strict else drawn[k]
        for (i, pos, _), v in zip(seen, drawn, strict=True):
            call = args[i]
            assert isinstance(call, list)
            call[pos] = v
            method = method_for(self.sig, str(ops[i]))
            if method is None or not self.valid(method, call):
                return False
        return True


def generate_design_inputs(problem: Problem, *, seed: int = 0, max_inputs: int = 24) -> InputSet:
    """Operation sequences for a design problem (see the module doc); notes say what was left out."""
    rng = random.Random(seed)
    gen = _Sequences(problem, rng)
    if is_round_trip(problem.signature):  # a Codec: decode(encode(x)) for generated values of x
        first = problem.signature.methods[1]
        trips = [round_trip_sequence(problem.signature, row[0])[0] for row in gen.pools.get(first.function, [])]
        known_values = [e.inputs.get(ARGUMENTS) for e in problem.examples]
        fresh = [t for t in trips if t[ARGUMENTS] not in known_values]
        return InputSet(tuple({json.dumps(t, sort_keys=True): t for t in fresh}.values())[:max_inputs], "type", tuple(gen.notes))
    ctor_pool = gen.pools.get("__init__", [])
    if not ctor_pool:
        return InputSet((), "type", (*gen.notes, "no valid constructor arguments: no operation sequences generated"))
    examples = [list(e.inputs.values()) for e in gen.minis["__init__"].examples]
    small = sorted(ctor_pool, key=_size)[:3]
    patterns = [ops[1:] for e in problem.examples if isinstance(ops := e.inputs.get(OPERATIONS), list) and len(ops) > 1]
    out: dict[str, dict[str, object]] = {}
    known = {json.dumps(e.inputs, sort_keys=True) for e in problem.examples}
    if (b := board(problem)) is not None:  # a method that takes a direction: a third are walks on a small board
        for n in range(max_inputs):
            trail = walk(b, problem.signature.class_name or "", LENGTHS[n % len(LENGTHS)], rng)
            if not validate_design_input(trail, problem):
                out.setdefault(json.dumps(trail, sort_keys=True), trail)
            if len(out) >= max_inputs // 3:
                break
    for n in range(max_inputs * 3):
        if examples and n % 2 == 0:
            ctor = examples[(n // 2) % len(examples)]
        else:  # small capacities and sizes make caches evict: half of the others are the smallest
            ctor = rng.choice(small if n % 4 == 1 else ctor_pool)
        # every other sequence reuses values nearly always (repeated keys, equal minimums); every
        # third one repeats an example's operations with other arguments
        pattern = [str(o) for o in patterns[n % len(patterns)]] if patterns and n % 3 == 2 else None
        if n % 6 == 5:  # long and concentrated: state accumulates past the limits a statement names
            seq = gen.sequence(list(rng.choice(small)), LONG, 0.95, None, churn=True)
        else:
            seq = gen.sequence(list(ctor), LENGTHS[n % len(LENGTHS)], 0.8 if n % 2 else 0.5, pattern, churn=n % 4 == 1)
        key = json.dumps(seq, sort_keys=True)
        if seq is not None and key not in known:
            out.setdefault(key, seq)
        if len(out) >= max_inputs:
            break
    notes = list(gen.notes)
    if gen.limits:
        notes.append(f"sequences stay short (at most {LONG} calls) and within the stated call limits "
                     f"({', '.join(f'{f}: {n}' for f, n in sorted(gen.limits.items()))}); the limits are not stress-tested")
    elif any(_CALLS.search(line) for line in problem.constraints):
        notes.append(f"sequences stay short (at most {LONG} calls); the stated call limit is not stress-tested")
    return InputSet(tuple(out.values()), "type", tuple(notes))


@dataclass
class DesignReading:
    """What checking a sequence needs of a design problem, read from its statement once: each
    method as a problem of its own with its parsed constraints, the relation lines, and the lines
    about the sequence as a whole (rising values, unique arguments, call limits)."""

    problem: Problem
    relations: Relations
    rises: list[Rising]
    uniques: list[Unique]
    limits: list[CallLimit]
    methods: dict[str, tuple[Problem, Constraints]] = field(default_factory=dict)

    def method(self, method: Signature) -> tuple[Problem, Constraints]:
        """The method as a problem of its own, and its parsed constraints."""
        got = self.methods.get(method.function)
        if got is None:
            mini = method_problem(self.problem, method)
            got = self.methods[method.function] = (mini, parse_constraints(mini))
        return got


_READINGS: dict[int, DesignReading] = {}


def design_reading(problem: Problem) -> DesignReading:
    """``problem``'s reading, kept across calls (by identity, a few problems at a time): shrinking
    a sequence checks hundreds of them, and parsing is the slow part (sealed held-out runs spent
    over 15 minutes on one design pool re-parsing every method's lines for each check)."""
    held = _READINGS.get(id(problem))
    if held is None or held.problem is not problem:
        if len(_READINGS) >= 8:
            _READINGS.clear()
        sig, lines = problem.signature, problem.constraints
        held = _READINGS[id(problem)] = DesignReading(
            problem, Relations(problem), [r for line in lines if (r := rising(line, sig))],
            [u for line in lines if (u := unique(line, sig))], [cl for line in lines if (cl := call_limit(line, sig))])
    return held


def validate_design_input(args: dict[str, object], problem: Problem) -> list[str]:
    """What is wrong with an operation sequence for this problem (its form, then each call's
    arguments against the constraints, and against the lines that bound them by the constructor's
    arguments, given this sequence's constructor); empty when valid."""
    sig = problem.signature
    ops, arg_lists = args.get(OPERATIONS), args.get(ARGUMENTS)
    err = sequence_error(sig, ops, arg_lists)
    if err:
        return [err]
    assert isinstance(ops, list) and isinstance(arg_lists, list)
    reading = design_reading(problem)
    out: list[str] = []
    ctor = arg_lists[0] if isinstance(arg_lists[0], list) else []
    for i, (op, a) in enumerate(zip(ops, arg_lists, strict=True)):
        method = sig.methods[0] if i == 0 else method_for(sig, str(op))
        assert method is not None
        if not method.params or any(isinstance(v, dict) and RESULT in v for v in a):
            continue
        mini, c = reading.method(method)
        own = validate_input(dict(zip(mini.signature.arg_names, a, strict=True)), mini, c)
        if not own and i > 0 and not any(e.startswith("operation 0 ") for e in out):  # the constructor's arguments are valid: relate the call to them
            own = reading.relations.errors(method, a, ctor)
        out += [f"operation {i} `{op}`: {e}" for e in own]
    named = dict(zip((p.name for p in sig.methods[0].params), ctor, strict=False))
    return out + [e for r in reading.rises if (e := broken(r, sig, ops, arg_lists))] \
        + [e for u in reading.uniques if (e := repeated(u, sig, ops, arg_lists))] \
        + [e for cl in reading.limits if (e := exceeded(cl, sig, ops, named))]
