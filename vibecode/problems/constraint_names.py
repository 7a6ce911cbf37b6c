"""Names in constraint lines that are not the signature's, for :mod:`vibecode.problems.constraints`:

- the one list argument under another name: the constraints say ``arr`` (``1 <= arr.length <=
  300``, ``0 <= arr[i][j] <= 1``) where the signature says ``matrix``, or ``operations`` where it
  says ``ops``; read as that argument when the problem has one list argument, no line names it,
  and exactly one other name is used as a list;
- a plural or singular spelling of a list argument (``images[i][j]`` for ``image``);
- other names for the columns of the one list argument whose rows have that many items, from a
  tuple of new names in a line (``hits[i].length == 2``, "All (x_i, y_i) are unique": ``x_i`` is
  column 0, ``y_i`` column 1, where the statement says ``hits[i] = (rowi, coli)``), or from a
  bare list of them where the statement never binds them (``edges[i].length == 2``, ``0 <= ai, bi
  < n``: ``ai`` is column 0);
- sizes the statement's prose defines: "You are given n points" (``1 <= n <= 500`` is the length
  of ``points``), "A linked list of length n", "a binary tree with n nodes", "a n * n matrix grid".
"""

from __future__ import annotations

import re

from vibecode.problems.constraint_types import Term

_AS_LIST = r"(?=\[|\.length\b|\.size\(\))"


def renamed(lines: list[str], statement: str, params: dict[str, str]) -> list[str]:
    """The lines with the one list argument's other name replaced by the signature's."""
    lists = [n for n, k in params.items() if k == "list"]
    if len(lists) != 1 or re.search(r"\bclass\b", statement):  # a design method: other names are other methods'
        return lines
    own = lists[0]
    if any(re.search(rf"\b{re.escape(own)}\b", line) for line in lines):
        return lines
    used = {m.group(1) for line in lines for m in re.finditer(rf"\b([A-Za-z_]\w*){_AS_LIST}", line)}
    others = {u for u in used if u not in params and not re.fullmatch(r"len|min|max|sum", u)}
    if len(others) != 1:
        return lines
    other = others.pop()
    return [re.sub(rf"\b{re.escape(other)}\b{_AS_LIST}", own, line) for line in lines]


def prose_sizes(statement: str, params: dict[str, str], aliases: dict[str, Term]) -> None:
    """Size names the statement's prose gives to a list or a node argument (see the module)."""
    text = re.sub(r"<[^>]+>|\*\*|\\|`", "", statement)
    for m in re.finditer(r"\b(?:given|are|of|with|has)\s+(?:an?\s+)?([a-z])\s+([a-z]\w*)\b", text):
        size, word = m.groups()
        for name, kind in params.items():
            forms = {name, name + "s", name[:-1] if name.endswith("s") else name}
            if kind == "list" and word in forms and size not in params:
                aliases.setdefault(size, ("len", name, 0))
    nodes = [n for n, k in params.items() if k in ("listnode", "treenode")]
    for m in re.finditer(r"\b(?:(?:linked\s+)?list|(?:binary\s+)?tree)\s+(?:of\s+length|with)\s+([a-z])\b(?:\s+nodes)?", text):
        if len(nodes) == 1 and m.group(1) not in params:
            aliases.setdefault(m.group(1), ("len", nodes[0], 0))
    lists = "|".join(re.escape(n) for n, k in params.items() if k == "list")
    for m in re.finditer(rf"\b([a-z])\s*[x×*]\s*\1\s+(?:[\w-]+\s+){{0,3}}?({lists})\b" if lists else r"(?!)", text):
        size, name = m.groups()
        if size not in params:  # "a n * n matrix grid": the rows and the columns
            aliases.setdefault(size, ("len", name, 0))


def one_indexed(lines: list[str], statement: str, params: dict[str, str]) -> list[str]:
    """A literal index into an array the statement calls 1-indexed ("an integer array coins
    (1-indexed)"): ``coins[1] != -1`` is the first item, read as ``coins[0] != -1``."""
    text = re.sub(r"<[^>]+>|\*\*|`", "", statement)
    names = [n for n, k in params.items() if k == "list" and re.search(
        rf"\b{re.escape(n)}\s*\(?\s*1-indexed|1-indexed\s+(?:\w+\s+){{0,2}}{re.escape(n)}\b", text)]
    for n in names:
        lines = [re.sub(rf"\b({re.escape(n)})\[([1-9]\d*)\]", lambda m: f"{m.group(1)}[{int(m.group(2)) - 1}]", line)
                 for line in lines]
    return lines


def plural_name(line: str, params: dict[str, str]) -> str:
    """``images[i][j]`` for the argument ``image`` (and the other way): the argument's name."""
    def fix(m: re.Match[str]) -> str:
        w = m.group(1)
        for other in (w[:-1], w + "s"):
            if w not in params and other in params and params[other] == "list" and len(w) > 3:
                return other + m.group(2)
        return m.group(0)

    return re.sub(r"\b([A-Za-z_]\w*)(\[\w\])", fix, line)


def line_kind(line: str, params: dict[str, str]) -> str:
    """What sort of line was not understood, for the notes and the corpus figures."""
    low = line.lower()
    if not any(re.search(rf"\b{re.escape(n)}\b", line) for n in params):
        return "names no argument"
    if re.search(r"[<>=]", line):
        return "relation"
    if re.search(r"\b(?:valid|represents?|forms?|is a|are all|will be|each)\b", low):
        return "structural property"
    return "prose"


def tuple_columns(lines: list[str], params: dict[str, str], columns: dict[str, tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """Column names a tuple of new names in the lines gives the one list argument whose rows have
    that many items (see the module); empty when there is no such tuple or argument."""
    fixed = {m.group(1): int(m.group(2)) for line in lines
             for m in re.finditer(r"\b(\w+)\[\w\]\.length\s*==\s*(\d+)\b", line) if params.get(m.group(1)) == "list"}
    tuples = [m.group(1) for line in lines for m in re.finditer(r"\(([^()]+)\)", line)]
    bare = [m.group(0) for line in lines for m in re.finditer(r"\b[a-z]+_?i(?:\s*,\s*[a-z]+_?i)+\b", line)]
    for group in tuples + bare:
        items = [t.strip() for t in group.split(",")]
        lists = [n for n, k in fixed.items() if k == len(items)]
        if len(lists) == 1 and len(items) >= 2 and len(set(items)) == len(items) and all(
                re.fullmatch(r"[a-z]+_?i", t) and t not in params and t not in columns for t in items):
            return {t: (lists[0], j) for j, t in enumerate(items)}
    return {}
