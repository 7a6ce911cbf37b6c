"""The brute-force oracle (the ALGO idea): a simple, obviously correct solution that the model
writes next to the candidates, and an input generator.

An oracle is *usable* when it passes every example without crashing or timing out and answers
at least one generated input. It then judges the candidates on the generated inputs it answered
(a brute force is expected to time out on large inputs; those inputs are not judged). A
candidate whose answer differs there fails, with the input shown.

The generator is model code too: it runs in the sandbox (``generate_input(rng)`` called with
``random.Random(seed)`` for a few seeds), and what it returns is kept only when it is a valid,
small input for the problem (``vibecode.clr.inputs.validate_input``), its arguments named as the
signature names them (a spelling that differs only in case and underscores, ``words_dict`` for
``wordsDict``, is read as that name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from vibecode.clr.compare import check_examples
from vibecode.clr.execute import CandidateRunner
from vibecode.clr.inputs import validate_input
from vibecode.types import InputResult, InputSet, Param, Problem, Signature

ORACLE_INDEX = -1  # the oracle's key among the runner's codes
GENERATOR_SEEDS = 32  # inputs asked of the model's generator (a draw is cheap; more reach rarer bugs; duplicates dropped)
MAX_INPUT_CHARS = 2000  # "small": the JSON form of one generated input, at most
_BLOCK = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)```", re.S)
_WRAPPER = """

def _vibecode_generate(seed):
    import random as _random
    return generate_input(_random.Random(seed))
"""


@dataclass(frozen=True)
class OracleCheck:
    """Whether the oracle can judge, and why (one sentence either way)."""

    usable: bool
    reason: str


def generator_code(answer: str | None) -> str | None:
    """The last python code block of ``answer`` that defines ``generate_input``, made callable
    with a seed; None when there is none."""
    if not answer:
        return None
    blocks = [b for b in _BLOCK.findall(answer) if re.search(r"^def generate_input\s*\(", b, re.M)]
    if not blocks:
        return None
    code = blocks[-1]
    if "import random" not in code:
        code = "import random\n" + code
    return code + _WRAPPER


def run_generator(runner: CandidateRunner, problem: Problem, answer: str | None,
                  *, seeds: int = GENERATOR_SEEDS) -> InputSet:
    """Run the model's input generator in the sandbox; keep the valid, small inputs."""
    code = generator_code(answer)
    if code is None:
        return InputSet((), "generator", ("the model gave no input generator",))
    signature = Signature("_vibecode_generate", (Param("seed", "int"),))
    results = runner.run(signature, {0: code}, {0: [{"seed": s} for s in range(seeds)]})[0]
    names = set(problem.signature.arg_names)
    kept: dict[str, dict[str, object]] = {}
    dropped: list[str] = []
    for r in results:
        if r.status != "ok" or not isinstance(r.output, dict):
            dropped.append("crashed" if r.status != "ok" else "not a dict of arguments")
            continue
        args = _renamed({str(k): v for k, v in r.output.items()}, names)
        if set(args) != names:
            dropped.append(f"argument names {sorted(args)} instead of {sorted(names)}")
            continue
        text = json.dumps(args, sort_keys=True, default=str)
        if len(text) > MAX_INPUT_CHARS:
            dropped.append("too large for the oracle")
            continue
        wrong = validate_input(dict(args), problem)
        if wrong:
            dropped.append(wrong[0])
            continue
        kept.setdefault(text, {p: args[p] for p in problem.signature.arg_names})
    notes = (f"{len(dropped)} input(s) from the model's generator were dropped (first: {dropped[0]})",) if dropped else ()
    return InputSet(tuple(kept.values()), "generator", notes)


def _spelling(name: str) -> str:
    return name.replace("_", "").lower()


def _renamed(args: dict[str, object], names: set[str]) -> dict[str, object]:
    """``args`` under the signature's ``names`` where they differ only in spelling
    (``words_dict`` for ``wordsDict``, as a model that writes snake_case Python does), one to
    one; otherwise ``args`` as they are."""
    if set(args) == names:
        return args
    by_spelling = {_spelling(n): n for n in names}
    target = {k: by_spelling.get(_spelling(k)) for k in args}
    if len(by_spelling) != len(names) or None in target.values() or len(set(target.values())) != len(args):
        return args
    return {str(target[k]): v for k, v in args.items()}


_RESOURCES = re.compile(r"\b(?:MemoryError|RecursionError)\b|while running this input$")


def out_of_resources(result: InputResult) -> bool:
    """Whether a crash is the brute force running out of memory or stack (a ``MemoryError``, a
    ``RecursionError``, or the process dying in the middle of the input, as under the memory
    limit), which says no more about the input than a timeout does."""
    return result.status == "error" and bool(_RESOURCES.search(result.error))


def check_oracle(problem: Problem, results: Sequence[InputResult], n_shared: int,
                 answered: Sequence[int] = (), trusted: Sequence[bool] | None = None) -> OracleCheck:
    """Judge the oracle's own run: every example passed, no crash on a generated input that some
    candidate answered (``answered``: those input indices) and that is valid for all we know
    (``trusted``, per shared input, as :func:`vibecode.clr.trust.input_trust`: an input vibecode
    drew where the problem has guarantees it cannot check may be invalid, and a brute force may
    rightly refuse it; without ``trusted`` every input counts) and that did not just exhaust the
    brute force's memory (:func:`out_of_resources`, like a timeout), some generated input answered."""
    n = len(problem.examples)
    if not n:
        return OracleCheck(False, "no usable oracle: the problem has no examples to validate it on")
    examples = check_examples(problem, results[:n])
    for e in examples:
        if not e.passed:
            why = {"timeout": "times out on", "error": "crashes on"}.get(e.status, "fails")
            return OracleCheck(False, f"no usable oracle: the brute-force solution {why} example {e.index + 1}")
    generated = results[n:n_shared]
    valid = set(answered)
    vouched = [trusted is None or (n + i < len(trusted) and trusted[n + i]) for i in range(len(generated))]
    crashed = [i for i, r in enumerate(generated)
               if r.status == "error" and n + i in valid and vouched[i] and not out_of_resources(r)]
    if crashed:
        return OracleCheck(False, f"no usable oracle: the brute-force solution crashes on generated input {n + crashed[0] + 1}")
    ok = sum(r.status == "ok" for r in generated)
    if not ok:
        return OracleCheck(False, "no usable oracle: the brute-force solution answered no generated input in time")
    return OracleCheck(True, f"a brute-force oracle passes all {n} examples and judged {ok} generated input(s)")
