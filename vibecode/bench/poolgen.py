"""Candidate pools made from HumanEval: the canonical solution, its mutants, and reasoning.

For each problem (:func:`make_pool`):

1. **Mutants** (:mod:`vibecode.bench.mutants`) of the canonical solution, up to ``max_label`` of
   them chosen round-robin over the operator kinds, each **labelled** by the hidden tests in the
   sandbox. Mutants that pass (equivalent ones) count as correct.
2. **A pool** of K candidates, K uniform in [4, 10]. With probability 0.15 none is correct (when
   the problem has wrong mutants); otherwise the correct share is uniform in [0.1, 1]. Wrong slots
   go to one to three distinct wrong mutants, the first drawn three times as often as the others
   (models repeat their favourite mistake), so majority vote is sometimes wrong. Correct slots
   are the canonical solution, the same with renamed variables, or an equivalent mutant. Each
   candidate is cut short (no closing fence, the code half written) with probability 0.05.
3. **Reasoning** with io claims ``f(args) == value`` on probe inputs (the examples, inputs next
   to them, and type-driven inputs; never the hidden tests), written in four phrasings. A correct candidate
   states 1-3 true outputs, and with probability 0.12 also one slip (a wrong value). A wrong
   candidate is, at random:
   - ``intent`` (0.45): it states the *correct* output on an input where its code differs (the
     model believed its code does what the problem asks; execution refutes the claim);
   - ``traced`` (0.25): it states its own *wrong* output on such an input (it traced its buggy
     code; execution confirms the claim, so claims mislead here);
   - ``silent`` (0.30): only true claims on inputs where its code is right.
   When no probe input tells the mutant apart, it is ``silent``. Any candidate restates one of
   the problem's examples with probability 0.4.

Everything random comes from ``random.Random(f"{seed}:{task_id}")``: the same seed gives the
same pool. A line is ``{"task_id", "kind": "candidate", "text", "correct", "mutation",
"claims"}`` (``claims``: the style, for people reading the pool).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vibecode.bench.dataset import HumanEvalTask
from vibecode.bench.hidden import run_hidden
from vibecode.bench.mutants import Mutant, mutants, rename_locals, strip_docstring
from vibecode.clr.compare import outputs_equal
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs import generate_inputs, validate_input
from vibecode.problems.statement import parse_problem
from vibecode.sandbox import Sandbox
from vibecode.types import InputResult, Problem

FENCE = "```"
APPROACHES = (
    "I'll walk through the input once and build the answer as I go.",
    "A direct approach is enough here; the inputs are small.",
    "Let me handle the edge cases first and then the general case.",
    "I'll translate the description into code step by step.",
    "The simplest correct approach: loop and check the condition for each element.",
)


@dataclass(frozen=True)
class Slot:
    code: str
    correct: bool
    mutation: str


def _pick_mutants(found: Sequence[Mutant], rng: random.Random, limit: int) -> list[Mutant]:
    by_kind: dict[str, list[Mutant]] = {}
    for m in found:
        by_kind.setdefault(m.kind, []).append(m)
    for group in by_kind.values():
        rng.shuffle(group)
    kinds = sorted(by_kind)
    rng.shuffle(kinds)
    chosen: list[Mutant] = []
    while len(chosen) < limit and any(by_kind.values()):
        for kind in kinds:
            if by_kind[kind] and len(chosen) < limit:
                chosen.append(by_kind[kind].pop())
    return chosen


def _perturb(value: object, rng: random.Random) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, -1))
    if isinstance(value, float):
        return round(value + 0.5, 3)
    if isinstance(value, str):
        return value[:-1] if value and rng.random() < 0.5 else value + "a"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if value is None:
        return 0
    return None


def _call(problem: Problem, args: dict[str, object]) -> str:
    sig = problem.signature
    return f"{sig.function}({', '.join(repr(args[n]) for n in sig.arg_names)})"


def _claim(problem: Problem, args: dict[str, object], value: object, rng: random.Random) -> str:
    call = _call(problem, args)
    form = rng.randrange(4)
    if form == 0:
        return f"Check: {call} == {value!r}."
    if form == 1:
        return f"So {call} should return {value!r}."
    if form == 2:
        return f"Tracing it, {call} returns {value!r}."
    pairs = ", ".join(f"{n} = {args[n]!r}" for n in problem.signature.arg_names)
    return f"For {pairs}, the answer is {value!r}."


def _nearby(value: object) -> list[object]:
    """Values next to an example's: what reasoning about edge cases tries."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value - 1, value + 1, 0, 1]
    if isinstance(value, float):
        return [value + 1.0, 0.0]
    if isinstance(value, str):
        return ["", value[1:], value[:1], value + value[-1:]]
    if isinstance(value, list):
        return [[], value[1:], value[:1], value + value[-1:], value[::-1]]
    return []


def _probes(problem: Problem, limit: int = 40) -> list[dict[str, object]]:
    """Inputs the reasoning makes claims about: the examples first, then inputs next to them
    and type-driven ones (never the hidden tests), valid for the problem's types and
    constraints."""
    seen: set[str] = set()
    out: list[dict[str, object]] = []
    candidates = [dict(e.inputs) for e in problem.examples]
    for e in problem.examples:
        for name, value in e.inputs.items():
            candidates += [{**e.inputs, name: v} for v in _nearby(value)]
    for seed in (1, 2, 3):
        candidates += [dict(x) for x in generate_inputs(problem, seed=seed).inputs]
    for n, args in enumerate(candidates):
        key = repr(sorted(args.items()))
        if key in seen or (n >= len(problem.examples) and validate_input(args, problem)):
            continue
        seen.add(key)
        out.append(args)
    return out[:limit]


def _compose(rng: random.Random, correct: list[tuple[str, str]], wrong: list[tuple[str, str]]) -> list[Slot]:
    k = rng.randint(4, 10)
    if not wrong:
        n_correct = k
    elif rng.random() < 0.15:
        n_correct = 0
    else:
        n_correct = max(1, round(rng.uniform(0.1, 1.0) * k))
    distinct = rng.sample(wrong, min(len(wrong), rng.randint(1, 3))) if wrong else []
    weights = [3.0] + [1.0] * (len(distinct) - 1)
    slots = []
    for _ in range(n_correct):
        code, what = rng.choices(correct, weights=[2.0] + [1.0] * (len(correct) - 1))[0]
        slots.append(Slot(code, True, what))
    for _ in range(k - n_correct):
        code, what = rng.choices(distinct, weights=weights)[0]
        slots.append(Slot(code, False, what))
    rng.shuffle(slots)
    return slots


def _reasoning(problem: Problem, slot: Slot, truth: Sequence[InputResult], own: Sequence[InputResult],
               probes: Sequence[dict[str, object]], rng: random.Random) -> tuple[str, str]:
    n_examples = len(problem.examples)
    order = problem.output_order
    agree = [i for i in range(n_examples, len(probes))
             if truth[i].status == "ok" and own[i].status == "ok" and outputs_equal(own[i].output, truth[i].output, order)]
    differ = [i for i in range(n_examples, len(probes))
              if truth[i].status == "ok" and not (own[i].status == "ok" and outputs_equal(own[i].output, truth[i].output, order))]
    lines: list[str] = []
    style = "true"
    if slot.correct:
        for i in rng.sample(agree, min(len(agree), rng.randint(1, 3))):
            lines.append(_claim(problem, probes[i], truth[i].output, rng))
        if agree and rng.random() < 0.12:
            i = rng.choice(agree)
            lines.append(_claim(problem, probes[i], _perturb(truth[i].output, rng), rng))
            style = "slip"
    else:
        style = rng.choices(("intent", "traced", "silent"), weights=(0.45, 0.25, 0.30))[0]
        traceable = [i for i in differ if own[i].status == "ok"]
        if style == "traced" and not traceable:
            style = "intent"
        if not differ:
            style = "silent"
        for i in rng.sample(agree, min(len(agree), rng.randint(0 if style != "silent" else 1, 2))):
            lines.append(_claim(problem, probes[i], truth[i].output, rng))
        if style == "intent":
            i = rng.choice(differ)
            lines.append(_claim(problem, probes[i], truth[i].output, rng))
        elif style == "traced":
            i = rng.choice(traceable)
            lines.append(_claim(problem, probes[i], own[i].output, rng))
    rng.shuffle(lines)
    if problem.examples and rng.random() < 0.4:
        ex = rng.choice(problem.examples)
        lines.insert(0, _claim(problem, dict(ex.inputs), ex.output, rng))
    first = problem.statement.strip().split("\n")[0][:200]
    text = "\n".join([f"We need to write `{problem.signature.function}`. {first}", rng.choice(APPROACHES), *lines])
    return text, style


def make_pools(task: HumanEvalTask, sandbox: Sandbox, runner: CandidateRunner, *, seed: int = 0,
               count: int = 1, max_label: int = 14, hidden_timeout_s: float = 5.0,
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The pool lines of one problem, and facts about it (mutants found, labelled, correct).

    With ``count`` > 1 the problem gets that many pools, with ids ``<task_id>@0``, ``@1``, ...
    (the mutants are labelled once; each pool is composed and written with its own randomness).
    """
    rng = random.Random(f"{seed}:{task.task_id}")
    problem = parse_problem(task.prompt)
    canonical = strip_docstring(task.canonical_code, task.entry_point)
    found = mutants(task.canonical_code, task.entry_point)
    chosen = _pick_mutants(found, rng, max_label)
    codes = {0: canonical, **{i + 1: strip_docstring(m.code, task.entry_point) for i, m in enumerate(chosen)}}
    labels = run_hidden(sandbox, task, codes, timeout_s=hidden_timeout_s)
    if not labels[0].passed:
        raise RuntimeError(f"{task.task_id}: the canonical solution fails its own tests ({labels[0].detail})")
    correct = [(canonical, "canonical"), (rename_locals(canonical, task.entry_point), "canonical, renamed")]
    correct += [(codes[i + 1], f"equivalent mutant: {m.description}") for i, m in enumerate(chosen) if labels[i + 1].passed]
    wrong = [(codes[i + 1], f"{m.kind}: {m.description}") for i, m in enumerate(chosen) if not labels[i + 1].passed]
    probes = _probes(problem)
    pools = []
    for variant in range(count):
        pool_id = task.task_id if count == 1 else f"{task.task_id}@{variant}"
        prng = rng if count == 1 else random.Random(f"{seed}:{task.task_id}:{variant}")
        pools.append((pool_id, prng, _compose(prng, correct, wrong)))
    distinct = {s.code for _, _, slots in pools for s in slots} | {canonical}
    ids = {code: n for n, code in enumerate(sorted(distinct))}
    ran = runner.run(problem.signature, {n: code for code, n in ids.items()}, {n: probes for n in ids.values()}) if probes else {}
    truth = ran.get(ids[canonical], ())
    lines = []
    for pool_id, prng, slots in pools:
        for slot in slots:
            lines.append(_line(pool_id, problem, slot, truth, ran.get(ids[slot.code], ()), probes, prng))
    facts = {"task_id": task.task_id, "mutants": len(found), "labelled": len(chosen),
             "equivalent": sum(labels[i + 1].passed for i in range(len(chosen))), "pools": count,
             "candidates": len(lines), "correct": sum(line["correct"] for line in lines),
             "pools_without_correct": sum(not any(s.correct for s in slots) for _, _, slots in pools)}
    return lines, facts


def _line(pool_id: str, problem: Problem, slot: Slot, truth: Sequence[InputResult], own: Sequence[InputResult],
          probes: Sequence[dict[str, object]], rng: random.Random) -> dict[str, Any]:
    reasoning, style = _reasoning(problem, slot, truth, own, probes, rng) if probes else (
        f"We need to write `{problem.signature.function}`.", "none")
    code, correct, mutation = slot.code, slot.correct, slot.mutation
    answer = f"{FENCE}python\n{code}\n{FENCE}\n"
    if rng.random() < 0.05:
        answer = f"{FENCE}python\n{code[: max(1, len(code) // 2)]}"
        correct, mutation, style = False, "cut short: " + mutation, "none"
    return {"task_id": pool_id, "kind": "candidate", "text": f"<think>\n{reasoning}\n</think>\n\n{answer}",
            "correct": correct, "mutation": mutation, "claims": style}
