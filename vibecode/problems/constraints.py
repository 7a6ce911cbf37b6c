"""Read LeetCode constraint lines into bounds that input generation and validation can use.

Understood forms (``<=``, ``<``, ``==``, ``≤`` chains; numbers such as ``10^4``, ``2^31 - 1``,
``5 * 10^4``, ``1e5``):

- ``1 <= nums.length <= 10^4`` (also ``len(nums)``, ``nums.size()``) -> length of ``nums``;
- ``-10^9 <= nums[i] <= 10^9``, ``0 <= target <= 100``, ``-100 <= Node.val <= 100`` -> values;
- ``intervals[i].length == 2``, ``words[i].length <= 5`` -> length of the inner items;
- ``1 <= k <= nums.length``, ``0 <= k < n`` with ``n == nums.length`` -> bounds that refer to
  other arguments;
- ``0 <= starti <= endi <= 10^4`` -> inner pairs are ordered, with those value bounds;
- "The number of nodes in the list is in the range [0, 5000]" -> length of node arguments;
- "s consists of lowercase English letters / digits / '(' and ')'" -> allowed characters;
- "sorted", "unique"/"distinct" -> ordered / distinct elements.

- ``n == matrix[i].length``, ``nums1.length == m`` -> size names in either direction;
- "s contains only ...", "grid[i][j] is '0' or '1'", "x is either 0 or 1" -> characters / values.

Each line is read on its own. A line that is not understood is skipped and listed in ``skipped``
with its kind; it never switches input generation off. A line that promises a hidden property of
the inputs ("exactly one solution", "it is guaranteed that ...") is listed in ``promises``: inputs
are still generated, so candidates may legitimately differ on inputs that break the promise, which
the scorer treats as contested evidence (never ``verified``), not as a wrong answer.
"""

from __future__ import annotations

import contextlib
import re

from vibecode.problems.constraint_blocks import read_blocks
from vibecode.problems.constraint_counts import read_counts
from vibecode.problems.constraint_design import design_constraints
from vibecode.problems.constraint_embedded import read_embedded
from vibecode.problems.constraint_exprs import (
    column_aliases,
    column_ranges,
    flat_column_aliases,
    length_rule,
    read_check,
)
from vibecode.problems.constraint_formats import read_format
from vibecode.problems.constraint_graphs import read_graph
from vibecode.problems.constraint_names import (
    line_kind,
    one_indexed,
    plural_name,
    prose_sizes,
    renamed,
    tuple_columns,
)
from vibecode.problems.constraint_phrases import read_phrase
from vibecode.problems.constraint_promises import BLOCKERS as _BLOCKERS
from vibecode.problems.constraint_promises import promised
from vibecode.problems.constraint_prose import read_prose
from vibecode.problems.constraint_rows import read_rows, strictly_ascending_rows
from vibecode.problems.constraint_runs import read_runs
from vibecode.problems.constraint_scope import (
    all_but_one,
    conditional_lines,
    except_at,
    first_row_only,
    ragged,
)
from vibecode.problems.constraint_sentences import in_symbols, read_sentence
from vibecode.problems.constraint_sets import (
    SORTED,
    UNIQUE,
    drop_what_examples_break,
    marked,
    read_chars,
    read_choice,
)
from vibecode.problems.constraint_shapes import read_shape
from vibecode.problems.constraint_sizes import (
    column_widths,
    rescaled,
    scaled_sizes,
    statement_aliases,
)
from vibecode.problems.constraint_texts import read_text
from vibecode.problems.constraint_types import (  # holds, differ_violations: re-exported for vibecode.clr
    Check,
    Constraints,
    Range,
    Term,
    _plain,
    constraint_line,
    differ_violations,
    holds,
    number,
    resolve,
)
from vibecode.problems.constraint_wording import read_wording, reworded
from vibecode.types import Problem

_NODES = re.compile(
    r"(?:(?:total )?number of (?:the )?nodes(?: in)?|length of) [\w ]{1,40}?\s*(?:is|are|will be)?\s*"
    r"(?:in )?(?:the )?(?:range|between)\s*(?:of\s*)?\[\s*([^,\]]+),\s*([^\]]+)\]",
    re.I,
)
_NODE_COUNT = re.compile(r"number of nodes in [\w ]{1,40}? is ([A-Za-z_]\w*)$", re.I)
_CONSISTS = re.compile(r"^(.*?)\b(?:(?:is|are)\s+(?:an?\s+|either\s+|all\s+)?(?=(?:lowercase|uppercase|english|digits?)\b)|consists?\s+(?:only\s+)?of|(?:only\s+)?contains?\s+only|only\s+contains?|contains?\s+(?=(?:the characters|lowercase|uppercase|lower[- ]case|upper[- ]case|english|digits)\b)|(?:is|are)\s+(?:made\s+)?(?:up\s+)?of(?:\s+only)?)\b(.*)$", re.I)
_CHOICE = re.compile(r"^(.*?)(?:\b(?:is|are)|==)\s+(?:either\s+|only\s+|one of\s+|all\s+)?(.+?\bor\b.+)$", re.I)


def _subject(term: str, params: dict[str, str], aliases: dict[str, Term]) -> tuple[str, str] | None:
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


def _term(text: str, params: dict[str, str], aliases: dict[str, Term]) -> Term | None:
    value = number(text)
    if value is not None:
        return ("num", value, 0)
    m = re.fullmatch(r"\s*(.+?)\s*([+-])\s*(\d+)\s*", text)
    base, offset = (m.group(1), int(m.group(3)) * (1 if m.group(2) == "+" else -1)) if m else (text, 0)
    name = base.strip()
    if name in aliases:
        kind, ref, off = aliases[name]
        return (kind, ref, off + offset)
    subj = _subject(name, params, aliases)
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


def parse_constraints(problem: Problem) -> Constraints:
    from vibecode.problems.typespec import parse_type

    if problem.signature.design:  # operation sequences: each line is read per method
        return design_constraints(problem, parse_constraints)
    params = {}
    for p in problem.signature.params:
        spec = parse_type(p.type).base
        params[p.name] = spec.kind
        # n-ary trees and immutable lists, given in level order / as a list of values: their node
        # count, depth and values are read too (validated; vibecode does not generate them)
        node_kind = re.fullmatch(r"(Nary|ImmutableList|Graph)Node(?: \| None)?", p.type or "")
        if spec.kind == "any" and node_kind:  # a graph as its adjacency list: a row per node, node values
            params[p.name] = node_kind.group(1).lower()
    node_params = [n for n, k in params.items() if k in ("listnode", "treenode", "nary", "immutablelist", "graph")]
    c = Constraints()
    aliases: dict[str, Term] = {}
    lines = [plural_name(constraint_line(line), params) for line in problem.constraints]
    lines = one_indexed(renamed(lines, problem.statement, params), problem.statement, params)  # "arr" for "matrix"
    words = [reworded(line, params) for line in lines]  # "nums has no duplicates": "All the values of nums are unique."
    as_written: dict[str, str] = {}
    for new, old in zip(words, lines, strict=True):
        if new != old:
            as_written.setdefault(new, old)
    lines = words
    for line in lines:  # aliases first: "n == nums.length", "nums1.length == m", "n == grid[i].length"
        count = _NODE_COUNT.search(line.strip().rstrip(".").strip())
        if count and node_params and count.group(1) not in params:
            aliases.setdefault(count.group(1), ("len", node_params[0], 0))
        chain = [p.strip() for p in re.split(r"(<=|>=|==|<|>)", line.strip().rstrip("."))]
        for k in range(1, len(chain) - 1, 2):  # "1 <= nums.length == n <= 10^5"
            a, b = chain[k - 1], chain[k + 1]
            if chain[k] == "==" and re.search(r"[<>]", line):
                for alias, other in ((a, b), (b, a)):
                    t = _term(other, params, aliases)
                    if re.fullmatch(r"[A-Za-z_]\w*", alias) and alias not in params and alias not in aliases \
                            and t is not None and t[0] in ("len", "ilen"):
                        aliases[alias] = t
        if "==" not in line or re.search(r"[<>!]", line):
            continue
        sides = [p.strip() for p in line.strip().rstrip(".").split("==")]
        shifted = re.fullmatch(r"([A-Za-z_]\w*)\s*([+-])\s*(\d+)", sides[-1]) if len(sides) == 2 else None
        if shifted and shifted.group(1) not in params and shifted.group(1) not in aliases:
            t = _term(sides[0], params, aliases)  # "nums.length == n + 1": n is the length minus 1
            if t is not None and t[0] in ("len", "ilen"):
                k = int(shifted.group(3)) * (1 if shifted.group(2) == "+" else -1)
                aliases[shifted.group(1)] = (t[0], t[1], t[2] - k)
                continue
        for alias in sides:
            if re.fullmatch(r"[A-Za-z_]\w*", alias) and alias not in params and alias not in aliases:
                found = [t for o in sides if o != alias and (t := _term(o, params, aliases)) and t[0] in ("len", "ilen")]
                if found:
                    aliases[alias] = found[0]
    statement_aliases(_plain(problem.statement), params, aliases)
    prose_sizes(_plain(problem.statement), params, aliases)  # "You are given n points"
    scaled = scaled_sizes(lines, params)
    prose = problem.statement + "\n" + "\n".join(lines)
    for m in _BLOCKERS.finditer(problem.statement):
        if m.group(0).lower() != "you may assume":  # a promise only as a constraint line
            c.promises.append(m.group(0))
    lower = prose.lower()
    one_d = [n for n, k in params.items() if k in ("list", "listnode")]
    c.sorted.update(marked(SORTED, problem.statement, lines, one_d, params))
    c.unique.update(marked(UNIQUE, problem.statement, lines, one_d + [n for n, k in params.items() if k == "treenode"], params))
    for n in list(c.unique):  # "All the values of rooms[i] are unique": each row's items, not the rows (a check)
        said = [line for line in lines if UNIQUE.search(line) and re.search(rf"\b{re.escape(n)}\b", line)]
        if said and all(re.search(rf"\b(?:values|integers|elements|numbers) (?:of|in) {re.escape(n)}\[\w\]", s) for s in said):
            c.unique.discard(n)
    if re.search(r"\bbinary search tree\b|\bbst\b", lower):
        c.bst.update(n for n, k in params.items() if k == "treenode")
    c.columns = column_aliases(problem.statement + "\n" + "\n".join(lines), params)
    c.columns.update(tuple_columns(lines, params, c.columns))  # "All (x_i, y_i) are unique" for hits[i]
    c.flat_columns = flat_column_aliases(problem.statement, params)
    column_widths(problem, c)
    rows_vary, under_condition, excepted = ragged(problem, params), conditional_lines(lines), {}
    shown = {n: [ex.inputs[n] for ex in problem.examples if n in ex.inputs] for n in params}
    block_checks, block_lines = read_blocks(problem, lines, parse_constraints)  # "If s is an email:" ...
    c.checks += block_checks
    marked_only: list[tuple[str, list[tuple[str, set[str]]]]] = []
    for k_line, line in enumerate(lines):
        understood = False
        if k_line in under_condition:  # "If s is an email:" and its lines: read as one disjunction, or skipped
            if k_line not in block_lines:
                c.skipped.append((line, "conditional"))
            continue
        but = all_but_one(line)  # "0 <= parent[i] <= n - 1 for i != 0"
        if but:
            excepted.update({n: but[1] for n in re.findall(r"(\w+)\[i\]", but[0]) if params.get(n) == "list"})
        # the line itself, what a promise promises ("It is guaranteed that edges represents a
        # valid tree": checked), a range in words as symbols ("x is an integer in the range [a, b]")
        texts = [but[0] if but else line, *([promised(line)] if _BLOCKERS.search(line) else [])]
        texts += [t for t in [rescaled(line, scaled)] if t]  # "nums.length == 2 * n", "1 <= n <= 10^4"
        texts += [t for t in (in_symbols(x, params) for x in texts) if t]
        for text in dict.fromkeys(texts):
            with contextlib.suppress(TypeError, ValueError, KeyError, IndexError):  # one odd line never stops the others
                understood = (not first_row_only(text, rows_vary) and _read_line(text, params, aliases, node_params, c)) \
                    or read_counts(text, params, problem.statement, c, lambda t: _term(t, params, aliases)) \
                    or read_rows(text, params, problem.statement, lambda t: _term(t, params, aliases), c) \
                    or read_shape(text, params, problem.statement, c) \
                    or read_format(text, params, lines, c) \
                    or _read_other(text, params, aliases, c) or read_graph(text, params, c, problem.statement, shown) \
                    or understood
        named = {n for n in params if re.search(rf"\b{re.escape(n)}\b", line)} or set(params)
        if understood:
            continue
        marks = [(kind, named & found) for kind, word, found in (("sorted", SORTED, c.sorted), ("unique", UNIQUE, c.unique))
                 if word.search(line) and named & found]
        if marks:  # read only as a mark: it must survive the examples (below)
            marked_only.append((line, marks))
            continue
        if _BLOCKERS.search(line):
            c.promises.append(line)
            c.promise_lines.append(line)
        else:
            c.skipped.append((line, line_kind(line, params)))
    at_one = except_at(lines, {s for s, _ in c.skipped}, params, excepted, c)  # "parent[0] == -1 (which ...)"
    c.skipped = [(s, k) for s, k in c.skipped if s not in at_one]
    drop_what_examples_break(problem, c)
    for line, marks in marked_only:  # "nums is sorted and rotated ...": the examples are not sorted
        if not any(names & (c.sorted if kind == "sorted" else c.unique) for kind, names in marks):
            c.skipped.append((line, "relation an example breaks"))
    for check in list(c.checks):  # an example is a real input: a reading it breaks was a misreading
        if any(check.test(dict(ex.inputs)) is False for ex in problem.examples):
            c.checks.remove(check)
            c.skipped.append((check.line, "relation an example breaks"))
    c.skipped = [(as_written.get(s, s), k) for s, k in c.skipped]  # listed as the statement words them
    c.promise_lines = [as_written.get(s, s) for s in c.promise_lines]
    return c


def _read_other(line: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    """A sentence (leading zeros, permutation of, ...) or an expression the bounds cannot hold
    (``nums1.length == m + n``, ``0 <= ai, bi < n``): a check, see :mod:`constraint_exprs`."""
    if read_prose(line, params, c) or read_sentence(line, params, c) or read_embedded(line, params, aliases, c) \
            or read_phrase(line, params, c) or read_runs(line, params, c) \
            or read_text(line, params, c) or read_wording(line, params, c):
        return True
    m = re.fullmatch(r"\s*(\w+)\[\w\]\s*==\s*\[([^\]]+)\]\s*\.?", line)
    if m and all(c.columns.get(t.strip(), ("",))[0] == m.group(1) for t in m.group(2).split(",")):
        return True  # "queries[i] == [a_i, b_i]": the names of its columns
    m = re.fullmatch(r"\s*(.+?)\s+(?:is|has an?)\s+(even|odd)(?: length)?\s*\.?", line)
    if m and "length" in line and "len" not in m.group(1):
        line = f"len({m.group(1)}) % 2 == {int(m.group(2) == 'odd')}"
    elif m:
        line = f"({m.group(1)}) % 2 == {int(m.group(2) == 'odd')}"
    m = re.fullmatch(r"\s*(.+?)\s+is\s+a\s+multiple\s+of\s+(\d+)\s*\.?", line)
    if m:
        line = f"({m.group(1)}) % {m.group(2)} == 0"
    m = re.fullmatch(r"\s*(\w+)\s+is\s+(less|greater)\s+than\s+(or\s+equal\s+to\s+)?(\w+)\s*\.?", line)
    if m:
        op = ("<" if m.group(2) == "less" else ">") + ("=" if m.group(3) else "")
        line = f"{m.group(1)} {op} {m.group(4)}"
    m = re.search(r"(\w+) is a permutation of all the (?:integers|numbers) in the range \[\s*([^,\]]+),\s*([^\]]+)\]", line)
    if m:
        line = f"sorted({m.group(1)}) == list(range({m.group(2)}, {m.group(3)} + 1))"
    m = re.search(r"sum of (?:the )?lengths of all (\w+)(?:\[i\])? (?:does not exceed|is at most) (.+)", line)
    if m:
        line = f"sum(len({m.group(1)}[i])) <= {m.group(2)}"
    check = read_check(line, params, aliases, c.columns, c.flat_columns)
    if check is None:
        return False
    c.checks.append(check)
    flat = column_ranges(line, params, aliases, c.flat_columns, lambda t: _term(t, params, aliases))
    for name in {n for n, *_ in flat}:  # every coordinate of target = [x, y] in one range: its values
        cols = {k for n, k in c.flat_columns.values() if n == name}
        bounds = {(lo, hi) for n, _, lo, hi in flat if n == name}
        if {k for n, k, *_ in flat if n == name} == cols and len(bounds) == 1:
            c.value.setdefault(name, []).append(bounds.pop())
    rule = length_rule(line, params, aliases)
    if rule is not None:
        c.length_rules.setdefault(rule[0], (rule[1], rule[2]))
    for name, col, lo, hi in column_ranges(line, params, aliases, c.columns, lambda t: _term(t, params, aliases)):
        c.column_value.setdefault(name, {}).setdefault(col, []).append((lo, hi))
    return True


def _add(target: dict[str, list[Range]], name: str, rng: Range, node_params: list[str]) -> None:
    for n in node_params if name == "@nodes" else [name]:
        target.setdefault(n, []).append(rng)


def _read_line(line: str, params: dict[str, str], aliases: dict[str, Term], node_params: list[str], c: Constraints) -> bool:
    text = line.strip().rstrip(".").strip()
    if "==" in text and len(text.split("==")) == 2 and any(p.strip() in aliases for p in text.split("==")):
        left, right = (p.strip() for p in text.split("=="))
        alias, other = (left, right) if left in aliases else (right, left)
        if _term(other, params, {}) == aliases[alias] or _term(other, params, aliases) is not None:
            if _term(other, params, {}) != aliases[alias]:  # "m == n": both sides sizes
                _relate(alias, "==", other, params, aliases, node_params, c)
            return True
    count = _NODE_COUNT.search(text)
    if count and count.group(1) in aliases:
        return True
    shifted = re.fullmatch(r"(.+?)\s*==\s*([A-Za-z_]\w*)\s*([+-])\s*(\d+)", text)
    if shifted and shifted.group(2) in aliases:  # the line that defined "n" as nums.length - 1
        k = int(shifted.group(4)) * (1 if shifted.group(3) == "+" else -1)
        kind, ref, off = aliases[shifted.group(2)]
        if _term(shifted.group(1), params, {}) == (kind, ref, off + k):
            return True
    if re.fullmatch(r"`?\w+`?\s+(?:is|are)\s+(?:an?\s+)?(?:integers?|strings?|(?:32-bit\s+)?signed\s+integers?)", text, re.I):
        return True  # the type already says so
    m = re.fullmatch(r"([^!<>=]+?)\s*!=\s*([^!<>=]+)", text)
    if m:
        a, b = (_term(g, params, aliases) or _name_term(g, params) for g in m.groups())
        if a is not None and b is not None:
            c.differ.append((a, b))
            return True
        return False
    m = _NODES.search(text)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        if lo is None or hi is None:
            return False
        for n in node_params:
            c.length.setdefault(n, []).append((("num", lo, 0), ("num", hi, 0)))
        return bool(node_params)
    m = _CHOICE.match(text)
    if m and read_choice(m.group(1), m.group(2), params, c):
        return True
    m = _CONSISTS.match(text)
    if m:
        return read_chars(m.group(1), m.group(2), params, c)
    parts = re.split(r"(<=|>=|==|<|>)", text)
    if len(parts) < 3:
        return False
    terms = [p.strip() for p in parts[0::2]]
    ops = parts[1::2]
    expanded: list[list[str]] = [[t.strip() for t in term.split(",")] if number(term) is None else [term] for term in terms]
    known = [[number(t) is not None or t in aliases or _subject(t, params, aliases) is not None
              for t in group] for group in expanded]
    unknown_names = [t for group, kg in zip(expanded, known, strict=False) for t, k in zip(group, kg, strict=False) if not k]
    if unknown_names:
        lists2d = [n for n, k in params.items() if k == "list"]
        # "start_i <= end_i": the names must stand on two sides of a "<=", not in one "ai, bi" list
        chained = sum(any(not k for k in kg) for kg in known) >= 2 and all(o in ("<=", "<") for o in ops)
        if chained and all(re.fullmatch(r"[a-z]+_?i", t) for t in unknown_names) and len(lists2d) == 1:
            name = lists2d[0]
            c.pair_sorted.add(name)
            named = [k for k, kg in enumerate(known) if not all(kg)]  # the terms "starti", "endi"
            if "<" in ops[named[0]:named[1]]:  # "starti < endi": a row's two values differ
                c.checks.append(Check(line, "row strictly ascending", strictly_ascending_rows(name)))
            nums = [number(g[0]) for g in expanded if number(g[0]) is not None]
            if len(nums) == 2:
                c.value.setdefault(name, []).append((("num", nums[0], 0), ("num", nums[1], 0)))
            return True
        # "0 <= ai, bi < n" is not applied to every entry: another line usually bounds another
        # column ("1 <= weighti <= 100"), and one range for all entries broke 1 in 20 hidden inputs
        return False
    understood = False
    for k, op in enumerate(ops):
        for left_text in expanded[k]:
            for right_text in expanded[k + 1]:
                understood |= _relate(left_text, op, right_text, params, aliases, node_params, c)
    return understood


def _relate(lt: str, op: str, rt: str, params: dict[str, str], aliases: dict[str, Term],
            node_params: list[str], c: Constraints) -> bool:
    if op in (">=", ">"):
        lt, rt = rt, lt
        op = "<=" if op == ">=" else "<"
    strict = 1 if op == "<" else 0
    ls = _subject(lt, params, aliases)
    rs = _subject(rt, params, aliases)
    lb, rb = _term(lt, params, aliases), _term(rt, params, aliases)
    sides = []  # (subject, bound, subject is on the left)
    if ls and rb:
        sides.append((ls, rb, True))
    if rs and lb:
        sides.append((rs, lb, False))
    if len(sides) == 2:  # both sides name arguments: constrain one of them only
        scalar = [s for s in sides if s[0][0] == "value" and params.get(s[0][1]) in ("int", "float")]
        sides = [scalar[0] if scalar else sides[0]]
    for (kind, name), bound, on_left in sides:
        if isinstance(bound[1], float) or params.get(name) == "float":
            strict = 0  # "0.0 < values[i]": no integer step below a real; the bound is kept loose
        subject_text = (lt if on_left else rt).strip().replace(" ", "")
        shift = -aliases[subject_text][2] if subject_text in aliases else 0  # n == nums.length - 1
        bound = (bound[0], bound[1], bound[2] + shift)
        if op == "==":
            rng: Range = (bound, bound)
        elif on_left:
            rng = (None, (bound[0], bound[1], bound[2] - strict))
        else:
            rng = ((bound[0], bound[1], bound[2] + strict), None)
        target = {"length": c.length, "inner": c.inner_length, "value": c.value}[kind]
        _add(target, name, rng, node_params)
    return bool(sides)


def _name_term(text: str, params: dict[str, str]) -> Term | None:
    """Any argument by name (strings and lists too), for "word1 != word2"."""
    name = text.strip().strip("`")
    if name in params:
        return ("val", name, 0)
    q = re.fullmatch(r"'(.*)'|\"(.*)\"", name)
    return ("num", q.group(1) if q.group(1) is not None else q.group(2), 0) if q else None


__all__ = ["Constraints", "differ_violations", "holds", "number", "parse_constraints", "resolve"]
