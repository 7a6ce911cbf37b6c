"""Pieces shared by the problem parsers: binding example arguments to a signature, and reading
whether the statement says the output order does not matter."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vibecode.errors import ProblemError
from vibecode.problems.typespec import check_value, parse_type
from vibecode.types import OutputOrder, Signature

_ORDER = re.compile(
    r"\bin any order\b|\bany order\b|\border\b[^.\n]{0,80}?\b(?:does not|doesn't|do not|don't|"
    r"does n't)\s+matter\b|\b(?:order|ordering)\s+(?:is\s+)?(?:not important|irrelevant)\b",
    re.I,
)
_NESTED = re.compile(r"\band the order of\b|\border (?:within|inside|of the (?:elements|numbers|values) in)\b", re.I)


# "group the anagrams together ... in any order": a group is a set, so its order is free too
_GROUPS = re.compile(r"\bgroup(?:s|ed)?\b[^.\n]{0,40}\btogether\b|\bgroups? of\b", re.I)


# In an example's Explanation only a plain statement counts ("any order would be wrong" does not)
_EXPLAINED = re.compile(
    r"\border\b[^.\n]{0,80}?\b(?:does not|doesn't|do not|don't)\s+matter\b|"
    r"\b(?:can|may)\s+(?:also\s+)?(?:be\s+)?return(?:ed)?\b[^.\n]{0,30}\bin any order\b|\bis also (?:accepted|correct)\b[^.\n]{0,30}order",
    re.I,
)


def detect_output_order(prose: str, explanations: Sequence[str] = ()) -> OutputOrder:
    """"exact" unless the text says the order does not matter ("any"); "any_nested" when it says
    so twice, about the order inside the items as well, or when the items are groups."""
    found = _ORDER.findall(prose)
    for text in explanations:
        if _EXPLAINED.search(text):
            found += _ORDER.findall(text) or ["order"]
            prose = f"{prose}\n{text}"
    if not found:
        return "exact"
    if len(found) >= 2 or _NESTED.search(prose) or _GROUPS.search(prose):
        return "any_nested"
    return "any"


def _fold(name: str) -> str:
    """``numRows`` and ``num_rows`` name the same parameter."""
    return name.lower().replace("_", "")


def bind_arguments(
    sig: Signature, pairs: list[tuple[str | None, object]], where: str
) -> dict[str, object]:
    """Map parsed ``(name or None, value)`` pairs onto the signature's parameters.

    Raises :class:`ProblemError` naming ``where`` (e.g. "Example 2") when names or counts do not
    match or a value does not fit its parameter's type.
    """
    names = sig.arg_names
    if all(name is None for name, _ in pairs):
        if len(pairs) != len(names):
            raise ProblemError(
                f"{where} gives {len(pairs)} input value(s) but `{sig.function}` takes "
                f"{len(names)} ({', '.join(names) or 'none'}).",
                "Name the inputs as in `Input: nums = [1,2], target = 3`.",
            )
        bound = {n: v for n, (_, v) in zip(names, pairs, strict=False)}
    else:
        bound = {}
        lowered = {_fold(n): n for n in names}
        for name, value in pairs:
            assert name is not None
            key = name if name in names else lowered.get(_fold(name))
            if key is None:
                raise ProblemError(
                    f"{where} names an input `{name}`, but `{sig.function}` takes "
                    f"({', '.join(names) or 'no arguments'}).",
                    "Use the parameter names of the starter code.",
                )
            bound[key] = value
        missing = [n for n in names if n not in bound]
        if missing:
            raise ProblemError(
                f"{where} does not give a value for {', '.join(f'`{m}`' for m in missing)}.",
                "Every parameter of the starter code needs a value in each example's Input.",
            )
    for p in sig.params:
        err = check_value(bound[p.name], parse_type(p.type), p.name)
        if err:
            raise ProblemError(f"{where}: {err} (the starter code says {p.type}).")
    return {n: bound[n] for n in names}
