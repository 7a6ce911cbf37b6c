"""Arithmetic, algebra and answer equivalence with sympy (the only module that imports it, lazily).

Input text comes from a model, and sympy's parser evaluates Python, so every expression is first
reduced to a whitelist: digits, operators, parentheses, single-letter variables and a few named
functions (``sqrt``, ``log``, ``sin``, ``binomial``, ...). Powers with huge exponents and huge
factorials are refused before anything is evaluated. LaTeX basics are translated first:
``\\frac{a}{b}``, ``\\dfrac``, ``\\sqrt{x}``, ``\\sqrt[n]{x}``, ``\\cdot``, ``\\times``, ``\\div``,
``\\pi``, ``\\infty``, ``\\left(``/``\\right)``, ``^{...}``, ``\\text{...}``, ``\\%``, degrees.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

_FUNCS = {
    "sqrt", "log", "ln", "exp", "sin", "cos", "tan", "pi", "binomial", "factorial", "gcd", "lcm",
    "Abs", "abs", "floor", "ceiling", "oo", "E", "I", "Mod", "min", "max", "Min", "Max", "C",
}
_ALLOWED = re.compile(r"[0-9A-Za-z\s+\-*/^().,!%]*")
_MAX_LEN = 300
_MAX_EXPONENT = 10_000
_MAX_FACTORIAL = 2_000


def brace_group(text: str, i: int) -> tuple[str, int] | None:
    """The contents of the ``{...}`` group that opens at ``text[i]`` (nested braces are fine)
    and the index after its closing brace; None when it never closes."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    return None


def _braced(text: str, i: int) -> tuple[str, int]:
    """The contents of the ``{...}`` group at ``text[i]`` and the index after it (or one char);
    a group that never closes runs to the end."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return "", i
    if text[i] != "{":
        return text[i], i + 1
    return brace_group(text, i) or (text[i + 1 :], len(text))


def latex_to_text(s: str) -> str:
    """LaTeX basics -> a plain expression (``\\frac{1}{2}`` -> ``((1)/(2))``)."""
    s = s.strip().strip("$").strip()
    s = re.sub(r"\\(?:left|right|displaystyle|big|Big|bigg|Bigg)\b\.?", "", s)
    s = re.sub(r"\\[,;!:]|\\quad|\\qquad|~", " ", s)
    s = re.sub(r"\^\s*\{?\s*\\circ\s*\}?|°", "", s)
    s = re.sub(r"\\(?:text|mathrm|textbf|mathbf|operatorname)\s*\{([^{}]*)\}", r" \1 ", s)
    s = s.replace("\\%", "%").replace("\\cdot", "*").replace("\\times", "*").replace("\\div", "/")
    s = s.replace("\\pi", " pi ").replace("\\infty", " oo ").replace("\\ln", " log ").replace("\\log", " log ")
    s = re.sub(r"\\(sin|cos|tan|exp)\b", r" \1 ", s)
    out = []
    i = 0
    while i < len(s):
        m = re.match(r"\\[dt]?frac", s[i:])
        if m:
            num, j = _braced(s, i + m.end())
            den, k = _braced(s, j)
            out.append(f"(({latex_to_text(num)})/({latex_to_text(den)}))")
            i = k
            continue
        if s.startswith("\\sqrt", i):
            j = i + 5
            index = None
            if j < len(s) and s[j] == "[":
                close = s.find("]", j)
                index, j = s[j + 1 : close], close + 1
            body, k = _braced(s, j)
            inner = latex_to_text(body)
            out.append(f"(({inner})**(1/({latex_to_text(index)})))" if index else f"sqrt({inner})")
            i = k
            continue
        if s[i] == "{":
            body, k = _braced(s, i)
            out.append(f"({latex_to_text(body)})")
            i = k
            continue
        out.append(s[i])
        i += 1
    return "".join(out).replace("\\", " ")


def _clean(text: str) -> str | None:
    s = latex_to_text(text).replace("×", "*").replace("·", "*").replace("÷", "/").replace("−", "-")
    s = s.replace("**", "^").strip()
    if not s or len(s) > _MAX_LEN or not _ALLOWED.fullmatch(s):
        return None
    if re.search(r"[A-Za-z_)]\s*\.|\.\s*[A-Za-z_(]", s):  # attribute access, not a decimal point
        return None
    # sympy evaluates factorials and binomials of literals even unevaluated: bound them first.
    if re.search(r"\)\s*!", s) or any(int(n) > _MAX_FACTORIAL for n in re.findall(r"(\d+)\s*!", s)):
        return None
    if re.search(r"factorial|binomial|C\s*\(", s) and any(len(n) > 4 for n in re.findall(r"\d+", s)):
        return None
    for word in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", s):
        if len(word) > 1 and word not in _FUNCS and not re.fullmatch(r"[a-z]+", word):
            return None
        if "__" in word:
            return None
    if re.search(r"[A-Za-z]{2,}", s) and not all(
        w in _FUNCS or len(w) <= 3 for w in re.findall(r"[A-Za-z]{2,}", s)
    ):
        return None
    return s


@lru_cache(maxsize=1024)
def _parse(text: str) -> Any | None:
    s = _clean(text)
    if s is None:
        return None
    import sympy
    from sympy.parsing.sympy_parser import (
        convert_xor,
        implicit_multiplication_application,
        parse_expr,
        standard_transformations,
    )

    local = {"C": sympy.binomial, "ln": sympy.log, "abs": sympy.Abs, "min": sympy.Min, "max": sympy.Max,
             "E": sympy.E, "I": sympy.I}
    transformations = (*standard_transformations, implicit_multiplication_application, convert_xor)
    try:
        raw = parse_expr(s, local_dict=local, transformations=transformations, evaluate=False)
    except Exception:  # sympy raises many kinds of errors on bad input
        return None
    if not _safe(raw):
        return None
    try:
        return sympy.sympify(raw)
    except Exception:
        return None


def _safe(expr: Any) -> bool:
    import sympy

    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow):
            try:
                exp = abs(complex(node.exp.evalf(15)))
            except (TypeError, ValueError):
                continue
            base = node.base
            if exp > _MAX_EXPONENT and not (base.is_number and base in (0, 1, -1)):
                return False
        if isinstance(node, sympy.factorial):
            try:
                if abs(complex(node.args[0].evalf(15))) > _MAX_FACTORIAL:
                    return False
            except (TypeError, ValueError):
                return False
    return True


def parse_expression(text: str) -> Any | None:
    """A sympy expression for ``text`` (plain or LaTeX), or None when it cannot be read safely."""
    return _parse(text.strip())


def _decimals(text: str) -> int | None:
    m = re.fullmatch(r"\s*-?\d*\.(\d+)\s*", text)
    return len(m.group(1)) if m else None


def check_relation(lhs: str, rhs: str, relation: str = "=") -> bool | None:
    """Whether a numeric claim ``lhs = rhs`` (or ``≈``) holds; None when it cannot be evaluated.

    An ``=`` whose right side is a decimal with d digits also holds when it is the left side
    rounded to d digits (``10/3 = 3.33``); ``≈`` allows that or 1% relative error.
    """
    a, b = parse_expression(lhs), parse_expression(rhs)
    if a is None or b is None or a.free_symbols or b.free_symbols:
        return None
    import sympy

    try:
        if sympy.simplify(a - b) == 0:
            return True
        va, vb = complex(sympy.N(a, 30)), complex(sympy.N(b, 30))
    except Exception:
        return None
    d = _decimals(rhs)
    diff = abs(va - vb)
    if d is not None and diff <= 0.5 * 10 ** (-d) + 1e-12:
        return True
    if relation == "≈":
        return diff <= max(0.01 * abs(vb), 0.5 * 10 ** (-(d or 0)))
    return False


_KNOWN_FUNCTIONS = r"sin|cos|tan|log|ln|exp|sqrt|abs|min|max|floor|ceil|gcd|lcm|factorial|binomial"
# "f(n - 1)", "dp[i]", "T(n/2)": a function or sequence the text defines, not a formula to test
_UNKNOWN_CALL = re.compile(rf"\b(?!(?:{_KNOWN_FUNCTIONS})\b)[A-Za-z_]\w*\s*[(\[]")


def _defines_a_function(text: str) -> bool:
    """A name applied like a function (``f(n - 1)``, ``dp[i]``) that never stands alone as a
    variable: ``n(n+1)/2`` is a product, ``f(n) = f(n-1) + f(n-2)`` defines f."""
    for m in _UNKNOWN_CALL.finditer(text):
        name = re.match(r"[A-Za-z_]\w*", m.group(0))
        if name and not re.search(rf"\b{re.escape(name.group(0))}\b(?!\s*[(\[])", text):
            return True
    return False


def is_identity(lhs: str, rhs: str) -> bool | None:
    """Whether ``lhs = rhs`` holds for all values of its variables; None when unreadable or when
    it cannot be decided: a side that applies an unknown function (``f(n) = f(n-1) + f(n-2)`` is a
    recurrence that defines f, not an identity to test) or indexes a sequence (``dp[i]``)."""
    if _defines_a_function(f"{lhs} ; {rhs}"):
        return None
    a, b = parse_expression(lhs), parse_expression(rhs)
    if a is None or b is None:
        return None
    import sympy

    symbols = sorted(a.free_symbols | b.free_symbols, key=str)
    rng = random.Random(7)
    try:
        for _ in range(4):
            point = {s: sympy.Rational(rng.randint(2, 40), rng.randint(1, 7)) for s in symbols}
            va, vb = complex(sympy.N(a.subs(point))), complex(sympy.N(b.subs(point)))
            if abs(va - vb) > 1e-9 * max(1.0, abs(vb)):
                return False
        return True
    except Exception:
        try:
            return bool(sympy.simplify(a - b) == 0)
        except Exception:
            return None


def _split_top(s: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    return [p.strip() for p in parts]


def normalize_answer(answer: str) -> str:
    """Light textual normalization of a final answer (before any sympy parsing)."""
    s = answer.strip().strip("$").strip().rstrip(".").strip()
    s = re.sub(r"\\(?:text|mathrm|textbf)\s*\{([^{}]*)\}", r"\1", s)
    s = re.sub(r"^[A-Za-z]\s*=\s*", "", s)
    if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", s):
        s = s.replace(",", "")
    s = s.replace("\\%", "").rstrip("%").strip()
    s = re.sub(r"\\[!,;: ]", "", s)
    return re.sub(r"\s+", " ", s)


def equivalent(a: str, b: str) -> bool:
    """Whether two final answers are the same: ``1/2``, ``0.5``, ``2/4`` and ``\\frac{1}{2}`` are;
    tuples compare item by item; answers that are not math compare as normalized text."""
    na, nb = normalize_answer(a), normalize_answer(b)
    if na == nb:
        return True
    pa, pb = _split_top(na.strip("()[]") if na[:1] in "([" else na), _split_top(nb.strip("()[]") if nb[:1] in "([" else nb)
    if len(pa) != len(pb):
        return False
    if len(pa) > 1:
        return all(equivalent(x, y) for x, y in zip(pa, pb, strict=False))
    ea, eb = parse_expression(na), parse_expression(nb)
    if ea is None or eb is None:
        return na.lower() == nb.lower()
    import sympy

    try:
        if sympy.simplify(ea - eb) == 0:
            return True
        if ea.free_symbols or eb.free_symbols:
            return bool(is_identity(na, nb))
        va, vb = complex(sympy.N(ea, 30)), complex(sympy.N(eb, 30))
        return abs(va - vb) <= 1e-9 * max(1.0, abs(vb))
    except Exception:
        return False
