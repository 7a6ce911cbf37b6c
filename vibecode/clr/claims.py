"""Find up to M decision-relevant claims in a candidate's reasoning.

Kinds, in the order they are preferred (the selection takes one of each kind in turn, so a
trace full of arithmetic still contributes its io claims):

- ``io``: what the function returns on an input, in any of these forms:
  ``f([1,2,3]) = 6``, ``f([1,2,3]) == 6``, ``twoSum(nums=[2,7], target=9) -> [0,1]``,
  ``f(x) should return y`` / ``returns`` / ``gives`` / ``is``, "for nums = [1,2], the answer is
  3" (also "with", "given", "when"; "we get", "the output should be", ...), and
  ``Input: nums = [1,2] ... Output: 3``. Arguments bind to the signature by name or position
  and must fit its types. (Needs the problem; math mode has none.)
- ``invariant``: "dp[i] is the minimum number of coins for amount i", "invariant: ...".
- ``complexity``: a sentence with ``O(...)`` about time or space.
- ``algebra``: an identity between expressions with variables, when the text marks it as one
  ("simplifies to", "expands to", "equals", a chain ``a = b = c``) or it has two or more
  variables; a one-variable equation without such a cue is an equation being solved, not a claim.
- ``arithmetic``: ``3 * 4 = 12``, ``2^10 = 1024``, chains ``1 + 2 + 3 = 6 = 2 * 3``, ``≈``.

Code fences inside the reasoning are skipped for every kind but ``io`` (a draft's
``assert f(...) == ...`` is still a claim about the function).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence

from vibecode.problems.literals import LiteralError, parse_arguments, read_call, scan_value
from vibecode.problems.typespec import check_value, parse_type
from vibecode.types import ExtractedClaim, Problem, Signature

M = 5
CODE_PRIORITY = ("io", "invariant", "complexity", "algebra", "arithmetic")
MATH_PRIORITY = ("algebra", "arithmetic")

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_RESULT = re.compile(
    r"\s*(?:==|=|->|→|=>|➞|:|\bis\b|\breturns?\b|\bshould\s+(?:return|be|give|output)\b|"
    r"\bwould\s+(?:return|be|give)\b|\bwill\s+(?:return|be|give)\b|\bgives?\b|\boutputs?\b|"
    r"\bevaluates\s+to\b|\byields?\b)\s*",
    re.I,
)
_FOR = re.compile(r"\b(?:for|with|given|when|if)\s+(?:the\s+)?(?:input\s+|example\s+|case\s+)?(?:of\s+)?", re.I)
_FOR_RESULT = re.compile(
    r"\s*[,:;]?\s*(?:then\s+)?(?:(?:the\s+)?(?:answer|output|result|return value|returned value|"
    r"expected\s+(?:output|answer|result)|function|code|solution|method|it|this|we)\s+)?"
    r"(?:is|should\s+be|would\s+be|will\s+be|must\s+be|=|==|->|→|returns?|should\s+return|"
    r"would\s+return|will\s+return|gets?|should\s+get|gives?|outputs?|yields?|becomes)\s*:?\s*",
    re.I,
)
_INPUT = re.compile(r"(?:\*\*)?\binput\s*(?:\*\*)?\s*:\s*(?:\*\*)?", re.I)
_OUTPUT = re.compile(r"(?:\*\*)?\boutput\s*(?:\*\*)?\s*:\s*(?:\*\*)?", re.I)
_ARITH_SEG = re.compile(r"(?:[\d\s+\-*/^()!%=≈]|\.(?=\d))+")
_ARITH_OP = re.compile(r"\d\s*[+\-*/^%]\s*[\d(]|\)\s*[+\-*/^%]|!|\d\s*\(")
_CUE = re.compile(r"simplif|expand|factor|equivalent|identity|\bequals?\b|is equal to|rewrite|same as", re.I)
_CUE_PHRASES = re.compile(r"\b(?:simplifies to|expands to|factors (?:as|into)|is equal to|equals|is equivalent to|can be written as)\b", re.I)
_MATH_WORDS = {"sqrt", "log", "ln", "exp", "sin", "cos", "tan", "pi"}
_COMPLEXITY = re.compile(r"\bO\(\s*[^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")
_INVARIANT = re.compile(
    r"\b(?:dp|memo|f|g|best|cnt|count|counts|prefix|pre|suffix|suf|left|right|res|ans|table|cache|"
    r"ways|reach|seen|last|first)\s*(?:\[[^\]\n]+\])+\s+(?:is|represents|stores|means|denotes|holds|"
    r"will be|equals|=\s*the|gives)\b",
    re.I,
)
_INVARIANT_WORDS = re.compile(r"\binvariant\b|\bat (?:each|every) step\b|\balways holds\b|\bwe maintain\b", re.I)


def _sentences(text: str) -> list[tuple[int, str]]:
    out = []
    for m in re.finditer(r"[^\n.!?]*(?:[.!?](?=\s|$)|\n|$)", text):
        s = m.group(0).strip()
        if s:
            out.append((m.start() + len(m.group(0)) - len(m.group(0).lstrip()), s))
    return out


def _blank_fences(text: str) -> str:
    return _FENCE.sub(lambda m: " " * len(m.group(0)), text)


# --- io claims ----------------------------------------------------------------------------------


def _bind(sig: Signature, pairs: list[tuple[str | None, object]]) -> dict[str, object] | None:
    names = sig.arg_names
    if not pairs:
        return None
    if all(n is None for n, _ in pairs):
        if len(pairs) != len(names):
            return None
        args = {n: v for n, (_, v) in zip(names, pairs, strict=False)}
    else:
        lowered = {n.lower(): n for n in names}
        args = {}
        for name, value in pairs:
            key = lowered.get((name or "").lower())
            if key is None:
                return None
            args[key] = value
        if set(args) != set(names):
            return None
    for p in sig.params:
        if check_value(args[p.name], parse_type(p.type), p.name):
            return None
    return {n: args[n] for n in names}


def _io_claim(text: str, start: int, end: int, args: dict[str, object], expected: object) -> ExtractedClaim:
    snippet = " ".join(text[start:end].split())[:240]
    return ExtractedClaim(snippet, "io", start, args=args, expected=expected)


def _call_claims(text: str, sig: Signature) -> list[ExtractedClaim]:
    names = {sig.function, "f", "solve", "solution"}
    out = []
    pattern = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*(?:\(\))?\.)*(" + "|".join(map(re.escape, names)) + r")\s*\(")
    for m in pattern.finditer(text):
        call = read_call(text, m.start())
        if call is None or call[0] not in names:
            continue
        _name, args, kwargs, end = call
        res = _RESULT.match(text, end)
        if not res or not res.group(0).strip():
            continue
        got = scan_value(text, res.end())
        if got is None:
            continue
        pairs: list[tuple[str | None, object]] = [(None, v) for v in args] if not kwargs else []
        if kwargs:
            if args and len(args) > len(sig.arg_names):
                continue
            pairs = [(sig.arg_names[i], v) for i, v in enumerate(args)]
            pairs += [(k, v) for k, v in kwargs.items()]
        bound = _bind(sig, pairs)
        if bound is not None:
            out.append(_io_claim(text, m.start(), got[1], bound, got[0]))
    return out


def _assignments(text: str, pos: int) -> tuple[list[tuple[str | None, object]], int] | None:
    """``nums = [1,2], target = 3`` (joined by commas or "and") at ``pos``."""
    pairs: list[tuple[str | None, object]] = []
    i = pos
    while True:
        m = re.compile(r"\s*(?:and\s+)?`?([A-Za-z_]\w*)`?\s*=\s*`?").match(text, i)
        if not m:
            break
        got = scan_value(text, m.end())
        if got is None:
            break
        pairs.append((m.group(1), got[0]))
        i = got[1]
        if i < len(text) and text[i] == "`":
            i += 1
        sep = re.compile(r"\s*,?\s*(?=(?:and\s+)?`?[A-Za-z_]\w*`?\s*=[^=])").match(text, i)
        if not sep:
            break
        i = sep.end()
    return (pairs, i) if pairs else None


def _for_claims(text: str, sig: Signature) -> list[ExtractedClaim]:
    out = []
    for m in _FOR.finditer(text):
        got_args = _assignments(text, m.end())
        if got_args is None:
            value = scan_value(text, m.end())
            if value is None or len(sig.params) != 1:
                continue
            got_args = ([(None, value[0])], value[1])
        pairs, end = got_args
        res = _FOR_RESULT.match(text, end)
        if not res or not res.group(0).strip(" ,:;"):
            continue
        value = scan_value(text, res.end())
        if value is None:
            continue
        bound = _bind(sig, pairs)
        if bound is not None:
            out.append(_io_claim(text, m.start(), value[1], bound, value[0]))
    return out


def _input_output_claims(text: str, sig: Signature) -> list[ExtractedClaim]:
    out = []
    for m in _INPUT.finditer(text):
        o = _OUTPUT.search(text, m.end(), min(len(text), m.end() + 600))
        if not o:
            continue
        raw = text[m.end() : o.start()].replace("`", "").strip().rstrip(",;").strip()
        try:
            pairs = parse_arguments(" ".join(raw.split()))
        except LiteralError:
            continue
        value = scan_value(text.replace("`", " "), o.end())
        if value is None:
            continue
        bound = _bind(sig, pairs)
        if bound is not None:
            out.append(_io_claim(text, m.start(), value[1], bound, value[0]))
    return out


# --- math claims --------------------------------------------------------------------------------


def _normalize_math(line: str) -> str:
    line = line.replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-").replace("**", "^")
    line = line.replace("\\times", "*").replace("\\cdot", "*").replace("\\approx", "≈").replace("~=", "≈")
    line = line.replace("==", "=").replace("$", " ")
    line = re.sub(r"(?<=\d),(?=\d{3}\b)", "", line)
    return re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", line)


def _split_relations(segment: str) -> list[tuple[str, str]]:
    """``a = b ≈ c`` -> [("a", ""), ("b", "="), ("c", "≈")]."""
    parts = re.split(r"(=|≈)", segment)
    out = [(parts[0].strip(), "")]
    for k in range(1, len(parts), 2):
        out.append((parts[k + 1].strip().rstrip(".").strip(), parts[k]))
    return out


def _arithmetic_claims(text: str) -> list[ExtractedClaim]:
    out = []
    offset = 0
    for raw in text.split("\n"):
        line = _normalize_math(raw)
        for m in _ARITH_SEG.finditer(line):
            raw_seg = m.group(0)
            seg = raw_seg.strip()
            lead = len(raw_seg) - len(raw_seg.lstrip())
            trail = len(raw_seg) - len(raw_seg.rstrip())
            cut_tail = seg.endswith("(")
            seg = seg.lstrip(")").rstrip("(").strip()
            if ("=" not in seg and "≈" not in seg) or not re.search(r"\d", seg):
                continue
            parts = _split_relations(seg)
            before = line[m.start() - 1] if m.start() > 0 and not lead else " "
            after = line[m.end()] if m.end() < len(line) and not trail and not cut_tail else " "
            if (before.isalnum() or before in "_].") and not seg.startswith(("=", "≈")):
                parts[0] = ("", "")
            if after.isalnum() or after in "_[":
                parts[-1] = ("", parts[-1][1])
            for (lhs, _), (rhs, rel) in itertools.pairwise(parts):
                if not lhs or not rhs or not re.search(r"\d", lhs) or not re.search(r"\d", rhs):
                    continue
                if lhs[0] in "*/^%)" or rhs[0] in "*/^%)" or lhs[-1] in "+-*/^(" or rhs[-1] in "+-*/^(":
                    continue
                if not (_ARITH_OP.search(lhs) or _ARITH_OP.search(rhs)) or lhs.count("(") != lhs.count(")") or rhs.count("(") != rhs.count(")"):
                    continue
                out.append(ExtractedClaim(f"{lhs} {rel} {rhs}", "arithmetic", offset + m.start(), lhs=lhs, rhs=rhs, relation=rel))
        offset += len(raw) + 1
    return out


def _math_chunks(line: str) -> list[str]:
    """Split a line at prose words, keeping runs that can be math."""
    chunks, current = [], ""
    for tok in re.findall(r"[A-Za-z]+|[^A-Za-z]", line):
        if tok.isalpha():
            glued = current and (current[-1].isdigit() or current[-1] in ")^")
            if len(tok) == 1 or tok in _MATH_WORDS or (glued and len(tok) <= 3):
                current += tok
                continue
            chunks.append(current)
            current = ""
            continue
        if tok in ",;:?[]{}\"'`" or tok == "_":
            chunks.append(current)
            current = ""
            continue
        current += tok
    chunks.append(current)
    return [c.strip() for c in chunks if "=" in c]


def _algebra_claims(text: str) -> list[ExtractedClaim]:
    out = []
    offset = 0
    for raw in text.split("\n"):
        if re.search(r"^\s*(?:def|return|for|while|if|elif|else|print)\b|==|\[", raw):
            offset += len(raw) + 1
            continue
        cue = bool(_CUE.search(raw))
        line = _normalize_math(_CUE_PHRASES.sub(" = ", raw))
        for chunk in _math_chunks(line):
            parts = [p for p in _split_relations(chunk) if p[0]]
            chain = len(parts) >= 3
            for (lhs, _), (rhs, rel) in itertools.pairwise(parts):
                lv = set(re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", lhs))
                rv = set(re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", rhs))
                if not lv or lv != rv or re.fullmatch(r"[A-Za-z]", lhs) or re.fullmatch(r"[A-Za-z]", rhs):
                    continue
                if not (cue or chain or len(lv) >= 2):
                    continue
                out.append(ExtractedClaim(f"{lhs} {rel or '='} {rhs}", "algebra", offset, lhs=lhs, rhs=rhs, relation=rel or "="))
        offset += len(raw) + 1
    return out


# --- other claims -------------------------------------------------------------------------------


def _complexity_claims(text: str) -> list[ExtractedClaim]:
    out, seen = [], set()
    for start, sentence in _sentences(text):
        for m in _COMPLEXITY.finditer(sentence):
            if not re.search(r"[A-Za-z0-9]", m.group(0)[2:]):
                continue
            if sentence not in seen:
                seen.add(sentence)
                out.append(ExtractedClaim(sentence[:240], "complexity", start))
    return out


def _invariant_claims(text: str) -> list[ExtractedClaim]:
    return [
        ExtractedClaim(sentence[:240], "invariant", start)
        for start, sentence in _sentences(text)
        if _INVARIANT.search(sentence) or _INVARIANT_WORDS.search(sentence)
    ]


def _io_key(claim: ExtractedClaim) -> str:
    try:
        return json.dumps([claim.args, claim.expected], sort_keys=True, default=str)
    except TypeError:  # a dict with keys of mixed types ({'a': 1, 8: 2}) cannot be sorted
        return repr([claim.args, claim.expected])


def _dedupe(claims: list[ExtractedClaim]) -> list[ExtractedClaim]:
    seen, out = set(), []
    for c in sorted(claims, key=lambda c: c.start):
        key = (c.kind, _io_key(c)) if c.kind == "io" else (c.kind, " ".join(c.text.split()))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def all_claims(reasoning: str, problem: Problem | None = None, *, mode: str = "code") -> dict[str, list[ExtractedClaim]]:
    """Every claim found, by kind, in order of appearance."""
    prose = _blank_fences(reasoning)
    found: dict[str, list[ExtractedClaim]] = {}
    if problem is not None and mode == "code":
        sig = problem.signature
        found["io"] = _dedupe(_call_claims(reasoning, sig) + _for_claims(prose, sig) + _input_output_claims(prose, sig))
    if mode == "code":
        found["invariant"] = _dedupe(_invariant_claims(prose))
        found["complexity"] = _complexity_claims(prose)
    found["algebra"] = _dedupe(_algebra_claims(prose))
    found["arithmetic"] = _dedupe(_arithmetic_claims(prose))
    return found


_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.S)


def claim_text(reasoning: str, answer: str) -> str:
    """Where claims are read: the reasoning and the answer's prose outside code blocks."""
    prose = _CODE_BLOCK.sub("\n", answer or "").strip()
    return f"{reasoning}\n\n{prose}" if reasoning and prose else reasoning or prose


def extract_claims(
    reasoning: str, problem: Problem | None = None, *, limit: int = M, mode: str = "code",
    priority: Sequence[str] | None = None,
) -> tuple[ExtractedClaim, ...]:
    """Up to ``limit`` claims: one of each kind in turn (``priority`` order), then by position."""
    found = all_claims(reasoning, problem, mode=mode)
    order = list(priority or (CODE_PRIORITY if mode == "code" else MATH_PRIORITY))
    queues = {k: list(found.get(k, [])) for k in order}
    chosen: list[ExtractedClaim] = []
    while len(chosen) < limit and any(queues.values()):
        for kind in order:
            if queues[kind] and len(chosen) < limit:
                chosen.append(queues[kind].pop(0))
    return tuple(sorted(chosen, key=lambda c: c.start))
