"""Differential steps for design problems (LRUCache, TicTacToe, ...): mutations and shrinking
steps of an operation sequence that keep it a sequence.

The generic steps of :mod:`vibecode.clr.differential` change one argument at a time, and a
design input's arguments are two parallel lists (``operations``, ``arguments``): dropping an item
of one alone, or changing a method's name, makes a malformed sequence. Here a step changes whole
calls (one dropped, repeated or swapped with the next; a chunk of calls dropped, when shrinking)
or one value of one call's arguments. Every step is kept only when :func:`valid`: well formed,
each call within its method's constraints and the lines that relate the calls
(:func:`vibecode.clr.design_inputs.validate_design_input`), and each number within the examples'
range where no line bounds it (as :func:`vibecode.clr.inputs_check.outside_examples` for one
call).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from vibecode.clr.design_inputs import design_reading, validate_design_input
from vibecode.clr.inputs_check import outside_examples
from vibecode.problems.design import ARGUMENTS, OPERATIONS, method_for
from vibecode.types import Problem

Values = Callable[[object], list[object]]


def _calls(args: dict[str, object]) -> tuple[list[object], list[object]] | None:
    ops, calls = args.get(OPERATIONS), args.get(ARGUMENTS)
    if not isinstance(ops, list) or not isinstance(calls, list) or len(ops) != len(calls) or not ops:
        return None
    return ops, calls


def _sequence(ops: list[object], calls: list[object]) -> dict[str, object]:
    return {OPERATIONS: ops, ARGUMENTS: calls}


def _argument_changes(ops: list[object], calls: list[object], i: int, values: Values) -> list[dict[str, object]]:
    """Call ``i`` with one of its arguments replaced by each of ``values(argument)``."""
    call = calls[i]
    if not isinstance(call, list):
        return []
    return [_sequence(ops, [*calls[:i], [*call[:j], v, *call[j + 1:]], *calls[i + 1:]])
            for j, a in enumerate(call) for v in values(a)]


def sequence_mutations(args: dict[str, object], rng: random.Random, values: Values) -> list[dict[str, object]]:
    """Sequences one small change away from ``args``: a call (after the constructor) dropped,
    repeated or swapped with the next, or one argument of a call changed by ``values``."""
    parts = _calls(args)
    if parts is None:
        return []
    ops, calls = parts
    if len(ops) < 2:
        return _argument_changes(ops, calls, 0, values)
    i = rng.randrange(1, len(ops))
    out = [_sequence(ops[:i] + ops[i + 1:], calls[:i] + calls[i + 1:]),
           _sequence([*ops[:i + 1], ops[i], *ops[i + 1:]], [*calls[:i + 1], calls[i], *calls[i + 1:]])]
    if i + 1 < len(ops):
        out.append(_sequence([*ops[:i], ops[i + 1], ops[i], *ops[i + 2:]], [*calls[:i], calls[i + 1], calls[i], *calls[i + 2:]]))
    return out + _argument_changes(ops, calls, rng.randrange(len(ops)), values)


def sequence_shrinks(args: dict[str, object], drops: Callable[[int], list[tuple[int, int]]],
                     values: Values) -> list[dict[str, object]]:
    """Sequences one shrinking step below ``args``: a chunk of the calls after the constructor
    dropped (``drops`` gives the chunks of a sequence of that many calls), or one argument of one
    call made smaller by ``values``."""
    parts = _calls(args)
    if parts is None:
        return []
    ops, calls = parts
    out = [_sequence(ops[:1 + a] + ops[1 + b:], calls[:1 + a] + calls[1 + b:]) for a, b in drops(len(ops) - 1)]
    for i in range(len(ops)):
        out += _argument_changes(ops, calls, i, values)
    return out


def valid(args: dict[str, object], problem: Problem) -> bool:
    """Whether a sequence is one vibecode may run as an input of ``problem`` (see the module)."""
    if validate_design_input(args, problem):
        return False
    parts = _calls(args)
    assert parts is not None  # validate_design_input checked the form
    ops, calls = parts
    sig = problem.signature
    reading = design_reading(problem)
    for i, (op, call) in enumerate(zip(ops, calls, strict=True)):
        method = sig.methods[0] if i == 0 else method_for(sig, str(op))
        if method is None or not method.params or not isinstance(call, list):
            continue
        mini, c = reading.method(method)
        if outside_examples(dict(zip(mini.signature.arg_names, call, strict=True)), mini, c):
            return False
    return True
