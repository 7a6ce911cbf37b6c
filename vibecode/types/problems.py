"""Problems and running candidates on them: signatures, examples, LeetCode/HumanEval/math problems, input results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# --- Problems (vibecode.problems) ----------------------------------------------------------------

ProblemStyle = Literal["leetcode", "humaneval"]
# How outputs are compared: "exact" lists as given; "any" the top-level list is a multiset;
# "any_nested" every list level is a multiset (the statement says the inner order does not matter
# either, e.g. "the order of the triplets and of the numbers in them does not matter").
OutputOrder = Literal["exact", "any", "any_nested"]
ANSWER_TOLERANCE = 1e-5  # float answers compare equal within this (absolute or relative; clr.compare)


@dataclass(frozen=True)
class Param:
    name: str
    # The annotation as written in the starter code ("List[int]", "Optional[ListNode]"), or the
    # type inferred from the examples when there was no starter; None when unknown.
    type: str | None = None


@dataclass(frozen=True)
class Signature:
    """The function a candidate must define."""

    function: str  # method or function name, e.g. "twoSum"
    params: tuple[Param, ...]
    returns: str | None = None  # return annotation; "None" means "modify the first argument in place"
    class_name: str | None = None  # "Solution" for LeetCode starters; None for a plain function
    inferred: bool = False  # True when names and types were inferred from the examples
    # A design class (LRUCache, MinStack): its constructor ("__init__") and public methods, each
    # as a Signature; the candidate runs operation sequences (vibecode.problems.design). Else ().
    methods: tuple[Signature, ...] = ()

    @property
    def design(self) -> bool:
        return bool(self.methods)

    @property
    def entry_point(self) -> str:
        if self.methods:  # a design class: the class is the entry point
            return self.class_name or self.function
        return f"{self.class_name}.{self.function}" if self.class_name else self.function

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)


@dataclass(frozen=True)
class Example:
    """One worked example: inputs and the expected output as Python values.

    Linked lists and trees stay in LeetCode's list serialization (``[1,2,3]``,
    ``[3,9,20,null,null,15,7]``); the harness converts them according to the parameter types.
    """

    inputs: dict[str, object]
    output: object
    explanation: str = ""
    source: str = ""  # the example's text as written


@dataclass(frozen=True)
class Problem:
    style: ProblemStyle
    title: str
    statement: str
    signature: Signature
    examples: tuple[Example, ...]
    constraints: tuple[str, ...]
    starter: str  # starter code to show the model: as given, or synthesized from the signature
    output_order: OutputOrder = "exact"
    text: str = ""  # the whole original text
    warnings: tuple[str, ...] = ()  # things the parser skipped, in words

    @property
    def any_order(self) -> bool:
        return self.output_order != "exact"


@dataclass(frozen=True)
class MathProblem:
    question: str  # the text to show the model
    title: str = ""
    # A reference answer from a trailing "Answer:" line, for evaluation only: never show it to
    # the model.
    reference: str | None = None


# --- Running candidates on inputs (vibecode.clr.harness) --------------------------------------

InputStatus = Literal["ok", "error", "timeout", "not_run"]


@dataclass(frozen=True)
class InputResult:
    """What one candidate did on one input. ``output`` is JSON-like (lists, not nodes)."""

    index: int
    status: InputStatus
    output: object = None
    error: str = ""
    duration_s: float = 0.0
    stdout: str = ""  # what the candidate printed while running this input (capped)


@dataclass(frozen=True)
class ExampleResult:
    index: int
    passed: bool
    status: InputStatus
    expected: object
    actual: object = None
    error: str = ""


@dataclass(frozen=True)
class InputSet:
    """Extra inputs (argument name -> value, LeetCode serialization) and how they were made."""

    inputs: tuple[dict[str, object], ...]
    source: str  # "type" (type-driven generation) or "model" (edge cases the model proposed)
    notes: tuple[str, ...] = ()  # why some were skipped or rejected, in words
    tiers: tuple[str, ...] = ()  # per input, the tier it belongs to: "edge", "random" or "stress" (see clr.inputs_tiers)
