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
import copy
import re

from vibecode.problems.constraint_aliases import line_aliases
from vibecode.problems.constraint_answers import answer_bound, read_answer_bound
from vibecode.problems.constraint_blocks import read_blocks
from vibecode.problems.constraint_bounds import read_line
from vibecode.problems.constraint_checks import read_other
from vibecode.problems.constraint_clauses import PARTLY_READ, read_clauses
from vibecode.problems.constraint_counts import read_counts
from vibecode.problems.constraint_design import design_constraints
from vibecode.problems.constraint_disjoint import read_disjoint
from vibecode.problems.constraint_encoded import read_encoded
from vibecode.problems.constraint_ends import read_ends
from vibecode.problems.constraint_expressions import read_expression
from vibecode.problems.constraint_exprs import (
    column_aliases,
    flat_column_aliases,
)
from vibecode.problems.constraint_formats import read_format
from vibecode.problems.constraint_graphs import read_graph, read_line_graph
from vibecode.problems.constraint_made import read_made_sentences
from vibecode.problems.constraint_names import (
    line_kind,
    one_indexed,
    plural_name,
    prose_sizes,
    renamed,
    tuple_columns,
)
from vibecode.problems.constraint_operations import in_format_item, read_described_format
from vibecode.problems.constraint_paths import read_path_format
from vibecode.problems.constraint_promises import BLOCKERS as _BLOCKERS
from vibecode.problems.constraint_promises import promised
from vibecode.problems.constraint_rows import read_rows
from vibecode.problems.constraint_same_length import read_same_length
from vibecode.problems.constraint_scope import (
    all_but_one,
    conditional_lines,
    except_at,
    first_row_only,
    for_each_row,
    ragged,
)
from vibecode.problems.constraint_sentences import in_symbols
from vibecode.problems.constraint_sets import (
    SORTED,
    UNIQUE,
    drop_what_examples_break,
    marked,
)
from vibecode.problems.constraint_shapes import read_shape
from vibecode.problems.constraint_sizes import (
    column_widths,
    rescaled,
    scaled_sizes,
    statement_aliases,
)
from vibecode.problems.constraint_terms import bound_term
from vibecode.problems.constraint_types import (  # holds, differ_violations: re-exported for vibecode.clr
    Constraints,
    Term,
    _plain,
    constraint_line,
    differ_violations,
    holds,
    number,
    resolve,
)
from vibecode.problems.constraint_wording import reworded
from vibecode.types import Problem


def _sentence_at(text: str, at: int) -> str:
    """The sentence of ``text`` around position ``at``."""
    start = max(text.rfind(ch, 0, at) for ch in ".!?\n") + 1
    ends = [e for e in (text.find(ch, at) for ch in ".!?\n") if e >= 0]
    return text[start:min(ends, default=len(text))].strip()


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
    line_aliases(lines, params, node_params, aliases)  # first: "n == nums.length", "nums1.length == m"
    plain = _plain(problem.statement)
    statement_aliases(plain, params, aliases)
    prose_sizes(plain, params, aliases)  # "You are given n points"
    read_made_sentences(plain, params, c)  # "t is generated by random shuffling s and ..."
    read_ends(plain, params, c)  # "Given a binary array bits that ends with 0"
    read_same_length(plain, params, c)  # "an array of n strings strs, all of the same length"
    told = [" ".join(x.split()) for x in re.split(r"(?<=[.!?])\s+", re.sub(r"[*]+", "", plain))]  # the statement's sentences
    generated_sentences = {x.rstrip(".").lower() for x in read_disjoint(told, problem, c)  # "no two slots ... intersect"
                + read_line_graph(told, problem, c)}  # "the graph of paths forms a line"
    described = read_described_format(lines, problem.statement, params, c)  # "logs[i] follows the format described ..."
    scaled = scaled_sizes(lines, params)
    prose = problem.statement + "\n" + "\n".join(lines)
    for sentence in re.split(r"(?<=[.!?])\s+", re.sub(r"[*`]+", "", problem.statement)):
        read_answer_bound(sentence, c)  # "The final answer is **guaranteed** to fit into a signed 32-bit integer."
    for m in _BLOCKERS.finditer(problem.statement):
        if m.group(0).lower() == "you may assume":  # a promise only as a constraint line
            continue
        at = _sentence_at(problem.statement, m.start())
        if answer_bound(at) is not None:  # read above
            continue
        if " ".join(re.sub(r"[*`]+", "", at).split()).rstrip(".").lower() in generated_sentences:  # read, and generated
            continue
        if described and in_format_item(at, problem.statement):  # "(This folder is guaranteed to always exist)"
            continue
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

    def read(line: str, c: Constraints, aliases: dict[str, Term]) -> bool:
        """Read ``line`` into ``c``: the line itself, what a promise promises ("It is
        guaranteed that edges represents a valid tree": checked), a range in words as symbols
        ("x is an integer in the range [a, b]")."""
        but = all_but_one(line)
        texts = [but[0] if but else line, *([promised(line)] if _BLOCKERS.search(line) else [])]
        texts += [t for t in [rescaled(line, scaled)] if t]  # "nums.length == 2 * n", "1 <= n <= 10^4"
        texts += [t for t in [for_each_row(line, c)] if t]  # "1 <= val_i, freq_i <= 10^4 for each encoded1[i]"
        texts += [t for t in (in_symbols(x, params) for x in texts) if t]
        understood = False
        for text in dict.fromkeys(texts):
            with contextlib.suppress(TypeError, ValueError, KeyError, IndexError):  # one odd line never stops the others
                understood = (not first_row_only(text, rows_vary) and read_line(text, params, aliases, node_params, c)) \
                    or read_counts(text, params, problem.statement, c, lambda t: bound_term(t, params, aliases)) \
                    or read_rows(text, params, problem.statement, lambda t: bound_term(t, params, aliases), c) \
                    or read_shape(text, params, problem.statement, c) \
                    or read_format(text, params, lines, c) \
                    or read_expression(text, params, lines, c) \
                    or read_answer_bound(text, c) \
                    or read_other(text, params, aliases, c) or read_graph(text, params, c, problem.statement, shown) \
                    or read_encoded(text, params, c) \
                    or understood
        return understood

    for k_line, line in enumerate(lines):
        if k_line in under_condition:  # "If s is an email:" and its lines: read as one disjunction, or skipped
            if k_line not in block_lines:
                c.skipped.append((line, "conditional"))
            continue
        but = all_but_one(line)  # "0 <= parent[i] <= n - 1 for i != 0"
        if but:
            excepted.update({n: but[1] for n in re.findall(r"(\w+)\[i\]", but[0]) if params.get(n) == "list"})
        before = (copy.deepcopy(c), dict(aliases))
        understood = read(line, c, aliases)
        named = {n for n in params if re.search(rf"\b{re.escape(n)}\b", line)} or set(params)
        if understood:
            c, aliases, every = read_clauses(line, before, (c, aliases), read)
            if not every:
                c.skipped.append((line, PARTLY_READ))  # its read part is generated; it vouches for nothing
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
    read_path_format(told, params, c)  # "The format of a path is ...": once the lines gave the characters
    c.skipped = [(s, k) for s, k in c.skipped if s not in described]  # read with the statement's forms
    at_one = except_at(lines, {s for s, k in c.skipped if k != PARTLY_READ}, params, excepted, c)  # "parent[0] == -1 (which ...)"
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


__all__ = ["Constraints", "differ_violations", "holds", "number", "parse_constraints", "resolve"]
