"""Get a candidate's solution out of its answer, as the file vibecode runs, shows and writes.

Small models often answer ``def coinChange(coins, amount)`` (sometimes keeping the starter's
``self``) instead of the method. Such a function becomes a real method of the class the problem
asks for, with a note, instead of being dropped: what counts is whether the function is right.
Either way the code is completed into a self-contained file
(:func:`vibecode.problems.solution_file.complete_solution`): the harness runs exactly that text,
and ``solve --out`` and the TUI write exactly that text.
"""

from __future__ import annotations

from vibecode.errors import ExtractionError
from vibecode.patch.extract import extract_code
from vibecode.problems.solution_file import complete_solution, function_to_method
from vibecode.types import Signature

NOTE = "defined a plain function instead of the method; wrapped in class {cls} as its method"


def extract_entry(answer: str, signature: Signature) -> tuple[str, str | None]:
    """The candidate's solution file for ``signature``, and a note when it had to be adapted."""
    try:
        return complete_solution(extract_code(answer, signature.entry_point), signature), None
    except ExtractionError as exc:
        if signature.class_name is None:
            raise
        original = exc
    try:
        method = function_to_method(extract_code(answer, signature.function), signature)
    except (ExtractionError, SyntaxError):
        method = None
    if method is None:
        raise original
    return complete_solution(method, signature), NOTE.format(cls=signature.class_name)
