"""On which inputs the brute-force oracle's answer is a verdict (issue 14; copied into the README).

vibecode's own inputs can break a guarantee that the constraint reader could not express ("s is
a valid Roman numeral", "intervals are non-overlapping"). On such an input a correct candidate and
the brute force may legitimately differ, so a disagreement there is not evidence against anyone.

The rule, per shared input (its *source* is known from where it sits; see :func:`input_trust`):

- **examples**: trusted (they are never judged by the oracle: they are checked against the
  statement's own outputs);
- **the model's inputs** (``model`` edge cases and the ``generator``'s inputs): trusted, the model
  read the statement and its guarantees; both are also validated against the parsed constraints;
- **vibecode's own inputs** (the ``type`` tiers and the ``differential`` inputs, which are
  mutations of other inputs and fresh tier inputs): trusted only when the problem's guarantees
  are all known to the input generator, i.e. (:func:`tiers_vouched`) the problem has constraint
  lines, every one was understood, every claim of it (``Constraints.skipped`` is empty: it lists a
  line a reader read only some clauses of as "partly read"; :mod:`vibecode.problems.constraint_clauses`), none is a promise that is
  not generated (``Constraints.promises``: "It is guaranteed that ...", "exactly one solution"),
  and no sentence of the statement's description promises a property of its inputs that lies
  outside the constraint lines ("Given a balanced parentheses string", "non-overlapping
  intervals", "you may assume that the majority element always exists", "String t is generated
  by random shuffling string s and then add one more letter", "with the following two
  properties:", ...: :func:`promise`; an order, "X is sorted", ", sorted in", "given a sorted
  array", only where the constraint reader does not draw those lists in order; "the given
  expression is always valid" only where expressions are not made; a sentence
  that asks the question, defines a term (or is one of the conditions listed under a definition:
  :func:`definition_items`), introduces a list of illustrations of a term or states
  what the solver may assume about itself promises nothing).

:func:`vibecode.clr.score.decide` adds one more rule on the inputs that are left: an input on
which the oracle agrees with no cluster at all is *suspect* (probably invalid, or the oracle is
wrong there) and is not a verdict either. Where the oracle's answer is not a verdict and differs
from the proposal's, the proposal is *contested by the oracle*: ``plausible`` with that input
shown, never ``verified`` and never ``failed`` on that ground.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from vibecode.clr.inputs_check import rotated_lists, specs
from vibecode.problems.constraint_answers import answer_bound
from vibecode.problems.constraint_graphs import graph_kinds
from vibecode.problems.constraint_operations import in_format_item
from vibecode.problems.constraints import Constraints, parse_constraints
from vibecode.types import Problem

TRUSTED_SOURCES = ("model", "generator")  # inputs the model wrote after reading the statement
# A word that names a property an input may be promised to have (outside the constraint lines).
GUARANTEE = re.compile(
    r"non-?overlapping|guarantee|promise|\bvalid\b|\bwell-formed\b|\bexactly one\b(?! (?:more|less|greater|smaller|larger|fewer) than\b)|\bno two\b|"
    r"\bat most one\b|\bbalanced\b|\bperfect\b|\bcomplete\b|\bconnected\b|\bacyclic\b|"
    r"\bpermutation\b|\bpalindrom|\bassume that\b|\byou (?:may|can|could) (?:always )?assume\b|\bwe ensure\b|\balways valid\b|"
    r"\b(?:input|inputs|test ?cases?|tests?) (?:is|are|will be) (?:always )?(?:generated|valid)\b|" + r"\bfollowing (?:\w+ )?properties\b|"
    r"\b(?:is|are) (?:(?!not\b)\w+ )?sorted\b|, sorted in\b",
    re.I,
)
# An order the inputs are promised to keep ("Each row is sorted in non-decreasing order"): generated
# where the sentence names only lists the constraint reader sorts (or makes rotated sorted lists).
_ORDER = re.compile(r"(?:(?:is|are) (?:\w+ )?|, )?sorted(?: \w+(?: \w+)?)?", re.I)
_ORDER_KINDS = ("rotated sorted", "rows ordered by a column", "rows sorted")  # checks that order a list
# An explicit promise: such a sentence promises something unless it is the question or a rule.
_EXPLICIT = re.compile(
    r"guarantee|promise|\bassume that\b|\byou (?:may|can|could) (?:always )?assume\b|\bwe ensure\b|\balways valid\b|"
    r"\b(?:input|inputs|test ?cases?|tests?) (?:is|are|will be) (?:always )?(?:generated|valid)\b", re.I)
# What the question asks ("return true if ...", "determine whether ...", "could", "such that").
_QUESTION = re.compile(
    r"\breturn\b|\bdetermine\b|\bcheck (?:if|whether)\b|\bfind\b|\bcount\b|\bcompute\b|\bcalculate\b|"
    r"\bconvert\b|\bgenerate\b|\bwhether\b|\bcould\b|\bcan you\b|\bif you can\b|\bto make\b|"
    r"\bso that\b|\bsuch that\b", re.I)
# A definition: "A tree is ...", "In other words, any ...", "... is called good if ...".
_DEFINITION = re.compile(
    r"^(?:in this problem,? |note:? |recall that |formally,? |in other words,? )?(?:a|an|any)\s|"
    r"\bis (?:called|said|defined|considered)\b|\bif and only if\b|\bmeans\b|\bwe call\b", re.I)
# "You may assume that the given expression is always valid." (basic_calculator_iii)
# "The inputs are generated such that you can reach any intersection from any other intersection
# and that there is at most one road between any two intersections." (examined:
# number_of_ways_to_arrive_at_destination): the constraint lines again, in other words
_SUCH_THAT = re.compile(r"(?:the )?(?:inputs?|input data|test cases?) (?:are|is) generated such that (.+?)\s*\.?", re.I)
_VALID_EXPRESSION = re.compile(r"^(?:you may assume (?:that )?)?the (?:given )?expression is (?:always )?valid\s*\.?$", re.I)

# The question's own use of a promise word: "can guarantee a win", "values that are guaranteed to be found".
_ASKED_GUARANTEE = re.compile(r"\bguarantee (?:a|an|the|your)\b|\bguaranteed to\b(?! be (?:a|an|valid|unique)\b)", re.I)
# An assumption about the solver or the players, not the input: "assume that you have an infinite
# number of each kind of coin", "assume that both players are playing optimally".
_ABOUT_SOLVER = re.compile(
    r"\bassume (?:that )?(?:you (?!are given|will be given|receive|get)|(?:both|the|all) players\b|each player\b)", re.I)
# A sentence that introduces a list of illustrations of a term ("The following are not valid
# abbreviations:", "For example, ... could be abbreviated as:"), or is one ("For example, ... are
# valid paths"): it describes the answer's rule (an explicit promise in it is still one).
_ILLUSTRATION = re.compile(r"^(?:the following (?:are|is)\b|for example\b|here (?:are|is)\b).*:$|^in the (?:above|first|second) example\b"
                           r"|^for example,? ", re.I)  # "For example, "/leetcode" ... are valid paths while ... are not."
# How an input was made: "String t is generated by random shuffling string s and then ...".
# A sentence by which the statement defines validity itself ("A gene must be in bank to make it a
# valid gene string", "An input string is valid if: ..."): "valid" elsewhere names that rule.
_DEFINES_VALID = re.compile(
    r"\bmust\b.*\bto (?:make|be) (?:it |them )?(?:an? )?valid\b|\b(?:is|are) (?:considered |called )?valid (?:if|when|only if)\b|"
    r"\bvalid\b.*\b(?:means|if and only if)\b", re.I)
# Valid and invalid instances side by side ('"192.168.1.1" ... are valid IPv4 addresses while
# "192.168.01.1" ... are invalid'): the statement illustrates its rule, it promises nothing.
_CONTRAST = re.compile(r"\bvalid\b.*\b(?:invalid|not valid)\b|\b(?:invalid|not valid)\b.*\bvalid\b", re.I)
_MADE = re.compile(
    r"^((?:[\w-]+ ){0,3}?)([\w-]+) (?:is|was|are|were|has been|have been) (?:\w+ly )?"
    r"(generated|made|built|formed|obtained|constructed|created|produced|derived)\b(.*)$", re.I)


def description(problem: Problem) -> str:
    """The statement without its constraint lines and examples (what :func:`promise` reads)."""
    text = problem.statement
    for line in problem.constraints:
        text = text.replace(line, " ")
    cut = re.search(r"^\s*(?:\*\*|__)?\s*example\b", text, re.I | re.M)
    return text[: cut.start()] if cut else text


def sentences(text: str) -> list[str]:
    """The description's sentences and list items, without Markdown emphasis or code marks."""
    plain = re.sub(r"[*`]+", "", text)
    parts = re.split(r"(?<=[.!?:])\s+(?=[A-Z(\-])|\n\s*(?=[-*\d])|\n\s*\n", plain)
    return [" ".join(p.split()).lstrip("- ") for p in parts if p.strip()]


def derived(sentence: str, names: Collection[str]) -> str | None:
    """The words by which ``sentence`` says how one input argument was made from another ("String t
    is generated by random shuffling string s and then add one more letter": vibecode's own
    inputs only honour the length relation), or None. ``names`` are the arguments' names; the
    sentence's subject must name one and the rest of the sentence another."""
    found = _MADE.match(sentence)
    if found is None or found.group(2) not in names or _QUESTION.search(found.group(1)):
        return None  # "determine whether s3 is formed from s1 and s2" asks the question
    rest = set(re.findall(r"[A-Za-z_]\w*", found.group(4)))
    others = [n for n in names if n != found.group(2) and n in rest and n.lower() not in ("a", "an", "i")]
    return f"{found.group(2)} is {found.group(3)}" if others else None


def promise(sentence: str, names: Collection[str] = (), defined: Collection[str] = ()) -> str | None:
    """The words by which ``sentence`` promises a property of the inputs, or None when it promises
    nothing about them: it asks the question ("return true if a permutation of the string could
    form a palindrome", "determine if it is a valid BST"), defines a term ("A tree is an
    undirected graph in which any two vertices are connected by exactly one path"), or states
    what the solver may assume about itself or the game ("you have an infinite number of each
    kind of coin", "both players are playing optimally", "guarantee a win"), or introduces a
    list of illustrations of a term ("The following are not valid abbreviations:"). Conservative:
    a sentence with a promise word that is none of those is a promise. With the arguments'
    ``names``, a sentence saying how one argument was made from another is a promise too
    (:func:`derived`). A promise word the statement itself defines (``defined``, see
    :func:`defined_terms`) and that no explicit promise uses is the statement's rule, not a
    promise ("records all the valid gene mutations" where "a gene must be in bank to make it a
    valid gene string")."""
    if re.match(r"follow[- ]?up\b", sentence, re.I):  # a variant of the problem, not its inputs
        return None
    made = derived(sentence, names)
    if made:
        return made
    given = re.search(r"\bgiven (?:[\w-]+ ){0,3}(" + GUARANTEE.pattern + r"|sorted\b)", sentence, re.I)
    if given:  # "Given a balanced parentheses string s", "You are given an array of non-overlapping intervals"
        return given.group(1)
    explicit = _EXPLICIT.search(sentence)
    if explicit:
        asked = _ASKED_GUARANTEE.search(sentence)
        if asked and not re.search(r"guaranteed that|is guaranteed|are guaranteed|guaranteed (?:to be )?valid", sentence, re.I) \
                and (_QUESTION.search(sentence[: asked.start()]) or "guarantee a" in asked.group(0).lower()):
            return None
        if _ABOUT_SOLVER.search(sentence) and not re.search(r"\bassume\b.*\bassume\b", sentence, re.I):
            return None
        return explicit.group(0)
    found = GUARANTEE.search(sentence)
    if found is None or found.group(0).lower() in defined:
        return None
    if _QUESTION.search(sentence[: found.start()]) or (sentence.lower().startswith("if ") and re.search(r"\breturn\b", sentence, re.I)):
        return None
    if _DEFINITION.search(sentence) or _ILLUSTRATION.match(sentence) or _CONTRAST.search(sentence):
        return None
    return found.group(0)


def definition_items(text: str) -> set[str]:
    """The list items of ``text`` (as :func:`sentences` gives them) that spell out a definition: the
    items under a sentence that defines a term and ends with a colon ("A clear path in a binary
    matrix is a path from the top-left cell ... such that:" and its "- All the adjacent cells of the
    path are 8-directionally connected"). They are conditions of the term, not promises about the
    inputs."""
    out: set[str] = set()
    under = False
    for line in text.splitlines():
        if not line.strip():
            continue
        if re.match(r"\s*[-*]\s|\s*\d+\.\s", line):
            if under:
                out.update(sentences(line))
            continue
        last = (sentences(line) or [""])[-1]
        under = last.endswith(":") and bool(_DEFINITION.search(last))
    return out


def defined_terms(text: str) -> set[str]:
    """The promise words ``text`` (a description) defines as its own rule: ``{"valid"}`` where a
    sentence says what makes something valid, else empty."""
    return {"valid"} if any(_DEFINES_VALID.search(s) for s in sentences(text)) else set()


def tiers_vouched(problem: Problem, constraints: Constraints | None = None) -> str | None:
    """None when vibecode's own inputs (tiers, differential) are known valid for ``problem``;
    otherwise why not, in words. ``constraints``: the problem's, when the caller has them parsed."""
    if not problem.constraints:
        return "the problem has no constraint lines, so nothing vouches for generated inputs"
    c = constraints if constraints is not None else parse_constraints(problem)
    if c.skipped:
        line, kind = c.skipped[0]
        if kind == "partly read":
            return f"the constraint line {line!r} was only partly read"
        return f"the constraint line {line!r} was not understood"
    if c.promises:
        return f"the promise {c.promises[0]!r} is not generated"
    names = {n for m in (problem.signature, *problem.signature.methods) for n in m.arg_names}
    text = description(problem)
    defined = defined_terms(text)
    made = [ch.line for ch in c.checks if ch.made]  # "t is generated by random shuffling s and ...": generated
    lists = [n for n, spec in specs(problem).items() if spec.base.kind in ("list", "listnode")]
    ordered = c.sorted | rotated_lists(problem) | {  # and the lists an order check names ("Both arrays are in ... order by id")
        n for ch in c.checks if ch.kind in _ORDER_KINDS
        for n in ([m for m in lists if re.search(rf"\b{re.escape(m)}\b", ch.line)] or lists)}
    conditions = definition_items(text)
    described = any(ch.kind == "described format" for ch in c.checks)  # the listed forms are generated
    for sentence in sentences(text):
        if sentence in conditions:
            continue
        if described and in_format_item(sentence, problem.statement):  # "(This folder is guaranteed to always exist)"
            continue
        word = promise(sentence, names, defined)
        if word and word == derived(sentence, names) and any(line in sentence for line in made):
            continue
        if word and sentence in made:  # a sentence read whole as a generated property ("no two slots ... intersect")
            continue
        if word and _restates_graph_checks(sentence, c):
            continue
        if word and answer_bound(sentence) is not None:
            continue  # a bound on the answer: out-of-bound inputs are dropped (clr.score, problems.constraint_answers)
        if word and _VALID_EXPRESSION.search(sentence) and any(ch.kind == "expression" for ch in c.checks):
            continue  # "the given expression is always valid": expressions are made (constraint_expressions)
        if word and _ORDER.fullmatch(word):
            named = [n for n in lists if re.search(rf"\b{re.escape(n)}\b", sentence)] or lists
            if named and set(named) <= ordered:  # the order is generated: what else does it promise?
                word = promise(sentence.replace(word, " "), names, defined)
        if word:
            return f"the statement promises a property of its inputs that is not generated ({word!r} in {sentence!r})"
    return None


def _restates_graph_checks(sentence: str, c: Constraints) -> bool:
    """"The inputs are generated such that A and that B", each clause a graph property the
    constraint lines state and vibecode checks (``problems.constraint_graphs``)."""
    m = _SUCH_THAT.fullmatch(sentence)
    if m is None:
        return False
    checked = {ch.kind for ch in c.checks}
    clauses = re.split(r",? and (?:that )?", m.group(1))
    return all((kinds := graph_kinds(clause)) and all(f"graph: {k}" in checked for k in kinds) for clause in clauses)


def input_trust(problem: Problem, tiers: Mapping[str, int], total: int) -> tuple[bool, ...]:
    """Per shared input (``total`` of them), whether the oracle's answer there is a verdict.

    The shared inputs are, in this order: the examples, the ``type`` tiers, the model's inputs
    and the generator's (in either order, both trusted), then the ``differential`` ones (every
    input after those): ``tiers`` gives the counts by source."""
    n = len(problem.examples)
    own_ok = tiers_vouched(problem) is None
    typed = tiers.get("type", 0)
    model = sum(tiers.get(s, 0) for s in TRUSTED_SOURCES)
    out = []
    for i in range(total):
        if i < n:
            out.append(True)
        elif i < n + typed:
            out.append(own_ok)
        elif i < n + typed + model:
            out.append(True)
        else:
            out.append(own_ok)
    return tuple(out)
