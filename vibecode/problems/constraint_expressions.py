"""Arithmetic expression strings, read into a check and a rule that makes them (the calculator
problems): "s represents a valid expression." / "s is a valid expression." for a string argument
whose characters line lists operators (``s consists of integers and operators ('+', '-', '*',
'/') separated by some number of spaces``; parentheses where it lists ``'('`` and ``')'``).

- the check: ``s`` is numbers joined by those binary operators, with single spaces or none between
  tokens where spaces are allowed, parenthesised groups where parentheses are, a unary minus
  at the start of the expression where a line allows it ("'-' could be used as a unary
  operation") and at the start of a group always (basic_calculator_iii's data has ``1-(-7)``
  where no line says so), and no division by a literal zero;
- the rule (``made``: ``how`` "expression" or "expression, unary minus", ``source`` the operator
  characters): :func:`make_expression` draws such a string, so that vibecode's own inputs are
  expressions and not random strings of those characters (on which two correct calculators
  disagree, and a wrong one agrees with one of them);
- lines of the same grammar: "All the integers in the expression are non-negative integers in the
  range [0, 2^31 - 1]." (a range of every number), "'+' is not used as a unary operation" and
  "'-' could be used as a unary operation" (the grammar above), "There will be no two
  consecutive operators in the input." (no expression it accepts has two).

A check that cannot read an input says None.
"""

from __future__ import annotations

import random
import re

from vibecode.problems.constraint_types import Check, Constraints, number

_VALID = re.compile(r"^(\w+) (?:represents|is) a valid (?:arithmetic |mathematical )?expression\s*\.?$", re.I)
_INTEGERS = re.compile(r"^all (?:the )?integers in the expression are (?:non-negative )?integers in the range "
                       r"\[\s*([^,\]]+),\s*([^\]]+)\]\s*\.?$", re.I)
_UNARY = re.compile(r"^'([+-])' (?:is not|could be|can be|may be) used as a unary operation\b", re.I)
_NO_TWO = re.compile(r"^there will be no two consecutive operators in the input\s*\.?$", re.I)
_TOKEN = re.compile(r"\s*(\d+|[-+*/()])")
OPERATORS = "+-*/"


def _plain(line: str) -> str:
    return re.sub(r"\*\*|`", "", line).strip()


def _argument(lines: list[str], params: dict[str, str]) -> tuple[str, str] | None:
    """The expression argument and its operator characters (binary operators and parentheses),
    from the validity line and the argument's characters line."""
    for line in lines:
        m = _VALID.match(_plain(line))
        if not m or params.get(m.group(1)) != "str":
            continue
        name = m.group(1)
        listed = "".join(re.findall(r"'([-+*/()])'", " ".join(
            _plain(x) for x in lines if re.match(rf"^{re.escape(name)} consists of\b", _plain(x)))))
        ops = "".join(ch for ch in OPERATORS + "()" if ch in listed)
        if any(ch in OPERATORS for ch in ops):
            return name, ops
    return None


def _unary_minus(lines: list[str]) -> bool:
    return any((m := _UNARY.match(_plain(x))) and m.group(1) == "-" and "not" not in x.lower() for x in lines)


def read_expression(line: str, params: dict[str, str], lines: list[str], c: Constraints) -> bool:
    """Add what one of the module's lines states; False for any other line."""
    found = _argument(lines, params)
    if found is None:
        return False
    name, ops = found
    text = _plain(line)
    unary = _unary_minus(lines)
    if _VALID.match(text):
        how = "expression, unary minus" if unary else "expression"
        c.checks.append(Check(line, "expression", lambda a: parses(a.get(name), ops, unary), made=(name, how, ops)))
        return True
    m = _INTEGERS.match(text)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        if lo is None or hi is None:
            return False
        c.checks.append(Check(line, "expression numbers", lambda a: None if not isinstance(s := a.get(name), str)
                              else all(lo <= int(x) <= hi for x in re.findall(r"\d+", s))))
        return True
    return bool(_UNARY.match(text) or _NO_TWO.match(text))  # the grammar of the validity line


def parses(s: object, ops: str, unary: bool) -> bool | None:
    """Whether ``s`` is an expression of the module's grammar over ``ops``."""
    if not isinstance(s, str):
        return None
    tokens: list[str] = []
    at = 0
    while at < len(s.rstrip()):
        m = _TOKEN.match(s, at)
        if m is None or (not m.group(1).isdigit() and m.group(1) not in ops):
            return False
        tokens.append(m.group(1))
        at = m.end()
    pos = _expr(tokens, 0, ops, unary, 0)
    return pos == len(tokens)


def _expr(tokens: list[str], i: int, ops: str, unary: bool, depth: int) -> int | None:
    """The index after the expression starting at ``i``, or None where there is none."""
    if (unary or depth > 0) and i < len(tokens) and tokens[i] == "-":  # "1-(-7)": basic_calculator_iii's data
        i += 1
    i_next = _term(tokens, i, ops, unary, depth)
    while i_next is not None and i_next < len(tokens) and tokens[i_next] in OPERATORS and tokens[i_next] in ops:
        if tokens[i_next] == "/" and i_next + 1 < len(tokens) and tokens[i_next + 1].isdigit() and int(tokens[i_next + 1]) == 0:
            return None  # division by zero
        i_next = _term(tokens, i_next + 1, ops, unary, depth)
    return i_next


def _term(tokens: list[str], i: int, ops: str, unary: bool, depth: int) -> int | None:
    if i >= len(tokens):
        return None
    if tokens[i].isdigit():
        return i + 1
    if tokens[i] == "(" and "(" in ops and depth < 200:
        end = _expr(tokens, i + 1, ops, unary, depth + 1)
        return end + 1 if end is not None and end < len(tokens) and tokens[end] == ")" else None
    return None


def make_expression(ops: str, unary: bool, spaces: bool, rng: random.Random, depth: int = 0) -> str:
    """A random expression of the grammar: one to five terms, small numbers (a divisor from 1),
    now and then a larger one, a group in parentheses, a unary minus; spaces between tokens."""
    binary = [ch for ch in OPERATORS if ch in ops]
    gap = (lambda: " " * rng.choice((0, 0, 1, 1, 2))) if spaces else (lambda: "")
    parts = ["-" if unary and rng.random() < 0.25 else ""]
    for k in range(rng.randint(1, 5 if depth == 0 else 3)):
        op = rng.choice(binary) if k else ""
        if op == "/":
            term = str(rng.randint(1, 12))
        elif "(" in ops and depth < 2 and rng.random() < 0.2:
            term = "(" + make_expression(ops, unary, spaces, rng, depth + 1) + ")"
        else:
            term = str(rng.randint(0, 30) if rng.random() < 0.8 else rng.randint(0, 1000))
        parts.append(f"{gap()}{op}{gap()}{term}" if k else term)
    text = "".join(parts)
    return f"{gap()}{text}{gap()}" if depth == 0 else text


__all__ = ["make_expression", "parses", "read_expression"]
