"""Lines that are not plain bounds, for :mod:`vibecode.problems.constraints`: the sentence
readers (prose, email addresses, sentences, embedded values, phrases, runs, texts, wordings) first, then a few
wordings rewritten as expressions ("is even", "is a multiple of 3", "is a permutation of ...")
and read as a check (:mod:`vibecode.problems.constraint_exprs`), with the value ranges and length
rules an expression also states."""

from __future__ import annotations

import dataclasses
import re

from vibecode.problems.constraint_emails import read_email
from vibecode.problems.constraint_embedded import read_embedded
from vibecode.problems.constraint_exprs import column_ranges, length_rule, read_check
from vibecode.problems.constraint_paths import read_starts
from vibecode.problems.constraint_phrases import read_phrase
from vibecode.problems.constraint_prose import read_prose
from vibecode.problems.constraint_runs import read_runs
from vibecode.problems.constraint_sentences import read_sentence
from vibecode.problems.constraint_terms import bound_term
from vibecode.problems.constraint_texts import read_text
from vibecode.problems.constraint_types import Constraints, Term
from vibecode.problems.constraint_wording import read_wording


def read_other(line: str, params: dict[str, str], aliases: dict[str, Term], c: Constraints) -> bool:
    """A sentence (leading zeros, permutation of, ...) or an expression the bounds cannot hold
    (``nums1.length == m + n``, ``0 <= ai, bi < n``): a check, see :mod:`constraint_exprs`."""
    if read_prose(line, params, c) or read_email(line, params, c) or read_starts(line, params, c) \
            or read_sentence(line, params, c) \
            or read_embedded(line, params, aliases, c) \
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
    made: tuple[str, str, str] | tuple[()] = ()
    m = re.search(r"(\w+) is a permutation of all the (?:integers|numbers) in the range \[\s*([^,\]]+),\s*([^\]]+)\]", line)
    if m:
        line = f"sorted({m.group(1)}) == list(range({m.group(2)}, {m.group(3)} + 1))"
        made = (m.group(1), "range", m.group(2).strip()) if m.group(2).strip().isdigit() else ()
    m = re.search(r"sum of (?:the )?lengths of all (\w+)(?:\[i\])? (?:does not exceed|is at most) (.+)", line)
    if m:
        line = f"sum(len({m.group(1)}[i])) <= {m.group(2)}"
    check = read_check(line, params, aliases, c.columns, c.flat_columns)
    if check is None:
        return False
    c.checks.append(dataclasses.replace(check, made=made) if made else check)
    flat = column_ranges(line, params, aliases, c.flat_columns, lambda t: bound_term(t, params, aliases))
    for name in {n for n, *_ in flat}:  # every coordinate of target = [x, y] in one range: its values
        cols = {k for n, k in c.flat_columns.values() if n == name}
        bounds = {(lo, hi) for n, _, lo, hi in flat if n == name}
        if {k for n, k, *_ in flat if n == name} == cols and len(bounds) == 1:
            c.value.setdefault(name, []).append(bounds.pop())
    rule = length_rule(line, params, aliases)
    if rule is not None:
        c.length_rules.setdefault(rule[0], (rule[1], rule[2]))
    for name, col, lo, hi in column_ranges(line, params, aliases, c.columns, lambda t: bound_term(t, params, aliases)):
        c.column_value.setdefault(name, {}).setdefault(col, []).append((lo, hi))
    return True
