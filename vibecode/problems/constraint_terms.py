"""The terms of a constraint line, for :mod:`vibecode.problems.constraints`: which argument a
term names (its length, its rows' length, its values: :func:`subject`) and the bound term it
stands for (a number, ``len``/``ilen``/``val`` of an argument with an offset, or an alias such as
``n`` for ``nums.length``: :func:`term`)."""

from __future__ import annotations

import re

from vibecode.problems.constraint_types import Term, number


def subject(term: str, params: dict[str, str], aliases: dict[str, Term]) -> tuple[str, str] | None:
    """("length"|"inner"|"value", name) for a term that names an argument."""
    t = term.strip().replace(" ", "")
    if t in aliases and aliases[t][0] in ("len", "ilen"):  # an offset is applied by _relate
        return ("length" if aliases[t][0] == "len" else "inner", str(aliases[t][1]))
    m = re.fullmatch(r"(?:len\((\w+)\)|(\w+)\.(?:length|size\(\)|len))", t)
    if m:
        name = m.group(1) or m.group(2)
        return ("length", name) if name in params else None
    m = re.fullmatch(r"(\w+)\[[A-Za-z_]\w*\]\.(?:length|size\(\))|len\((\w+)\[[A-Za-z_]\w*\]\)", t)  # not t[0]
    if m:
        name = m.group(1) or m.group(2)
        return ("inner", name) if name in params else None
    m = re.fullmatch(r"(\w+)((?:\[\w+\])+)", t)
    idx = re.findall(r"\[(\w+)\]", m.group(2)) if m else []
    if m and m.group(1) in params and len(set(idx)) == len(idx) and all(re.fullmatch(r"[a-z]", i) for i in idx):
        return ("value", m.group(1))  # every entry; not "grid[0][0]" or "isConnected[i][i]" (a check)
    if re.fullmatch(r"(?:node|Node|treeNode|TreeNode|ListNode)\.val", t):
        return ("value", "@nodes")
    m = re.fullmatch(r"(\w+)\.val", t)
    if m and params.get(m.group(1)) in ("treenode", "listnode"):
        return ("value", m.group(1))
    if t in params:
        return ("value", t)
    return None


def bound_term(text: str, params: dict[str, str], aliases: dict[str, Term]) -> Term | None:
    value = number(text)
    if value is not None:
        return ("num", value, 0)
    m = re.fullmatch(r"\s*(.+?)\s*([+-])\s*(\d+)\s*", text)
    base, offset = (m.group(1), int(m.group(3)) * (1 if m.group(2) == "+" else -1)) if m else (text, 0)
    name = base.strip()
    if name in aliases:
        kind, ref, off = aliases[name]
        return (kind, ref, off + offset)
    subj = subject(name, params, aliases)
    if subj is None:
        return None
    kind, ref = subj
    if kind == "length":
        return ("len", ref, offset)
    if kind == "inner":
        return ("ilen", ref, offset)
    if kind == "value" and ref in params and params[ref] in ("int", "float"):
        return ("val", ref, offset)
    return None


def name_term(text: str, params: dict[str, str]) -> Term | None:
    """Any argument by name (strings and lists too), for "word1 != word2"."""
    name = text.strip().strip("`")
    if name in params:
        return ("val", name, 0)
    q = re.fullmatch(r"'(.*)'|\"(.*)\"", name)
    return ("num", q.group(1) if q.group(1) is not None else q.group(2), 0) if q else None
