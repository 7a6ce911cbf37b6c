"""Accept a plain function where a LeetCode problem asks for a ``class Solution`` method.

Small models often answer ``def coinChange(coins, amount)`` (sometimes keeping the starter's
``self``) instead of the method. Such code is wrapped in the class the harness calls, with a
note, instead of being dropped: what counts is whether the function is right.
"""

from __future__ import annotations

import ast

from vibecode.errors import ExtractionError
from vibecode.patch.extract import extract_code
from vibecode.types import Signature

NOTE = "defined a plain function instead of the method; wrapped in class {cls}"


def extract_entry(answer: str, signature: Signature) -> tuple[str, str | None]:
    """The candidate's code for ``signature``, and a note when it had to be adapted."""
    try:
        return extract_code(answer, signature.entry_point), None
    except ExtractionError as exc:
        if signature.class_name is None:
            raise
        original = exc
    try:
        adapted = wrap_function(extract_code(answer, signature.function), signature)
    except ExtractionError:
        adapted = None
    if adapted is None:
        raise original
    return adapted, NOTE.format(cls=signature.class_name)


def wrap_function(code: str, signature: Signature) -> str | None:
    """``code`` plus a class whose method calls the top-level function; None if there is none."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    function = next(
        (n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
         and n.name == signature.function),
        None,
    )
    if function is None:
        return None
    params = function.args.posonlyargs + function.args.args
    takes_self = bool(params) and params[0].arg == "self"
    call_self = "None, " if takes_self else ""
    return (
        f"{code.rstrip()}\n\n\n"
        f"_vibecode_function = {signature.function}\n\n\n"
        f"class {signature.class_name}:\n"
        f"    def {signature.function}(self, *args, **kwargs):\n"
        f"        return _vibecode_function({call_self}*args, **kwargs)\n"
    )
