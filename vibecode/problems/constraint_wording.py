"""Other wordings of constraint lines the readers know, for :mod:`vibecode.problems.constraints`.

:func:`reworded` gives a line in the wording another reader already reads (the reading is that
reader's; a line it does not rewrite is returned as it is):

- "There are no duplicates in nums", "nums has no duplicates", "nums does not contain any
  duplicate values", "No two elements of nums are equal" -> "All the values of nums are unique."; "No two stones are at
  the same coordinate point" -> "All the stones are unique.";
- "nums is strictly increasing" -> "nums is sorted in strictly increasing order."; "nums is a
  non-decreasing array" -> "nums is sorted in non-decreasing order.";
- "s is non-empty", "nums is not empty" -> ``1 <= s.length``;
- "k is a positive integer", "nums[i] is positive" -> ``0 < k``, ``0 < nums[i]``; "non-negative"
  -> ``0 <= k``; "negative" -> ``k < 0``;
- "nums[i] is an odd number" / "an even integer" -> "nums[i] is odd" / "is even";
- "s is composed of ...", "s only has ...", "s has only ..." -> "s consists of ...".

:func:`read_wording` reads what no other reader does, as checks (validators): "s is a
palindrome", "n is a power of 2" (also "of two", "of 3", for a number or each item of a list),
"s contains no spaces"; and a note that states nothing about the inputs ("Note: This question
is the same as 530: https://...") is understood as no constraint.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vibecode.problems.constraint_types import Check, Constraints

_ITEMS = r"(?:elements?|values?|integers?|numbers?|items?|entries|strings?|words?)"
_NAME = r"([A-Za-z_]\w*(?:\[[a-z]\])*)"
_DUPLICATES = (
    re.compile(rf"there (?:are|is) no duplicates?(?: {_ITEMS})? in {_NAME}", re.I),
    re.compile(rf"{_NAME} (?:has|contains|does not (?:have|contain)) (?:no |any )?duplicates?(?: {_ITEMS})?", re.I),
    re.compile(rf"no two {_ITEMS} (?:of|in) {_NAME} are (?:equal|the same)", re.I),
)
_SIGN = {"positive": "0 < {}", "non-negative": "0 <= {}", "negative": "{} < 0"}
_NUMBERS = ("int", "float")
_WORDS = {"two": 2, "three": 3, "four": 4}


def _base(term: str) -> str:
    return term.split("[", 1)[0]


def _numeric(term: str, params: dict[str, str]) -> bool:
    """``k`` an int/float argument, or ``nums[i]`` (``grid[i][j]``) the items of a list argument."""
    kind = params.get(_base(term))
    return kind in _NUMBERS if "[" not in term else kind == "list"


def _names(text: str, params: dict[str, str]) -> list[str] | None:
    """``a``, ``a and b``, ``Both word1 and word2``, ``a, b, and c``: the terms, when each is an
    argument or the items of one (``nums[i]``); None otherwise."""
    text = re.sub(r"^(?:both|all of)\s+", "", text.strip(), flags=re.I)
    terms = [t.strip() for t in re.split(r",\s*(?:and\s+)?|\s+and\s+", text)]
    ok = all(re.fullmatch(r"[A-Za-z_]\w*(?:\[[a-z]\])*", t) and _base(t) in params for t in terms)
    return terms if terms and ok else None


def _spoken(text: str, params: dict[str, str]) -> str | None:
    """Wordings of ranges, signs, sizes and sets on one or more named terms, as symbols."""
    m = re.fullmatch(r"(.+?) (?:is|are) (?:an? |all )?(positive|non-?negative|negative)(?: (?:integers?|numbers?))?", text, re.I)
    names = _names(m.group(1), params) if m else None
    if m and names and all(_numeric(n, params) for n in names):
        sign = m.group(2).lower()
        return _SIGN["non-negative" if sign.startswith("non") else sign].format(", ".join(names))
    m = re.fullmatch(r"(.+?) (?:is|are) (?:non-?empty|not empty)", text, re.I)
    names = _names(m.group(1), params) if m else None
    if m and names and all(params.get(_base(n)) in ("list", "str") for n in names):
        return "1 <= " + ", ".join(f"{n}.length" for n in names)
    m = re.fullmatch(r"(?:(.+?) (?:have|are of) the same length|the lengths of (.+?) are (?:the same|equal))", text, re.I)
    names = _names(m.group(1) or m.group(2), params) if m else None
    if m and names and len(names) >= 2 and all(params.get(_base(n)) in ("list", "str") for n in names):
        return " == ".join(f"{n}.length" for n in names)
    m = re.fullmatch(r"(.+?) are (different|distinct)", text, re.I)
    names = _names(m.group(1), params) if m else None
    if m and names and len(names) == 2 and (m.group(2) == "different" or all(params.get(n) in ("int", "str") for n in names)):
        return f"{names[0]} != {names[1]}"
    m = re.fullmatch(rf"{_NAME} is (at most|at least|less than|greater than|between) (.+?)(?: and (.+))?", text)
    if m and _numeric(m.group(1), params) and (m.group(2) == "between") == bool(m.group(4)):
        name, how, a, b = m.groups()
        return {"at most": f"{name} <= {a}", "at least": f"{a} <= {name}", "less than": f"{name} < {a}",
                "greater than": f"{a} < {name}"}.get(how, f"{a} <= {name} <= {b}")
    m = re.fullmatch(rf"(?:(?:all|each|every) (?:the )?{_ITEMS} (?:of|in) |each |every ){_NAME} (?:is|are) "
                     r"(?:(?:in the range|within)\s*\[\s*([^,\]]+),\s*([^\]]+)\]|between (\S+) and (\S+))", text, re.I)
    if m and params.get(_base(m.group(1))) == "list":
        term = m.group(1) if "[" in m.group(1) else m.group(1) + "[i]"
        lo, hi = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
        return f"{lo} <= {term} <= {hi}"
    m = re.fullmatch(rf"{_NAME} is (?:in|one of) (?:the characters )?[{{\[]([^{{}}\[\]]+)[}}\]]", text)
    items = [t.strip() for t in m.group(2).split(",")] if m else []
    if m and _base(m.group(1)) in params and len(items) >= 2 and all(items):
        return f"{m.group(1)} is one of " + (f"{items[0]} or {items[1]}" if len(items) == 2
                                             else ", ".join(items[:-1]) + f", or {items[-1]}")
    return None


def reworded(line: str, params: dict[str, str]) -> str:
    """The line in a wording the readers know (see the module), or the line itself."""
    text = re.sub(r"\bthe length of ([A-Za-z_]\w*)\b", lambda m: f"{m.group(1)}.length" if m.group(1) in params
                  else m.group(0), line.strip().rstrip(".").strip())
    spoken = _spoken(text, params)
    if spoken is not None:
        return spoken
    m = re.fullmatch(r"there (?:are|is|will be) no (?:duplicate|repeated) (\w+)|no two (\w+) are (?:the same|equal|at the same "
                     r"(?:coordinate )?(?:point|position|location|place))", text, re.I)
    said = (m.group(1) or m.group(2)) if m else ""
    if m and not re.fullmatch(r"edges?|roads?|connections?|duplicates?", said):  # a graph's: read by the graph reader
        return f"All the {said} are unique."
    m = re.fullmatch(r"the (?:given )?graph (?:does not contain|has no|contains no) (?:any )?(self-loops|repeated edges)", text, re.I)
    if m:
        return f"There are no {m.group(1)}."
    for pattern in _DUPLICATES:
        m = pattern.fullmatch(text)
        if m and _base(m.group(1)) in params:
            return f"All the values of {m.group(1)} are unique."
    m = re.fullmatch(rf"{_NAME} is strictly increasing", text)
    if m and params.get(_base(m.group(1))) == "list":
        return f"{m.group(1)} is sorted in strictly increasing order."
    m = re.fullmatch(rf"{_NAME} is an? (non-?decreasing|sorted) (?:array|list|sequence)", text)
    if m and params.get(_base(m.group(1))) == "list":
        return f"{m.group(1)} is sorted in non-decreasing order."
    m = re.fullmatch(rf"{_NAME} is an? (odd|even) (?:number|integer)", text)
    if m and _numeric(m.group(1), params):
        return f"{m.group(1)} is {m.group(2)}"
    m = re.fullmatch(rf"{_NAME} (?:is composed (?:only )?of|only has|has only) (.+)", text)
    if m and _base(m.group(1)) in params:
        return f"{m.group(1)} consists of {m.group(2)}."
    return text if text != line.strip().rstrip(".").strip() else line


Test = Callable[[dict[str, object]], bool | None]


def _values(args: dict[str, object], term: str) -> list[object] | None:
    """The values ``term`` names in an input: the argument, or (``nums[i]``) its items."""
    v = args.get(_base(term))
    if v is None:
        return None
    if "[" not in term:
        return [v]
    items: list[object] = [v]
    for _ in range(term.count("[")):  # "grid[i][j]": every row's items
        if not all(isinstance(x, list) for x in items):
            return None
        items = [y for x in items if isinstance(x, list) for y in x]
    return items


def _each(term: str, fn: Callable[[object], bool | None]) -> Test:
    def test(args: dict[str, object]) -> bool | None:
        values = _values(args, term)
        if values is None:
            return None
        results = [fn(x) for x in values]
        return False if False in results else (None if None in results else True)

    return test


def _palindrome(v: object) -> bool | None:
    return v == v[::-1] if isinstance(v, (str, list)) else None


def _power(base: int) -> Callable[[object], bool | None]:
    def test(v: object) -> bool | None:
        if not isinstance(v, int) or isinstance(v, bool):
            return None
        while v > 1 and v % base == 0:
            v //= base
        return v == 1

    return test


def _no_space(v: object) -> bool | None:
    return " " not in v if isinstance(v, str) else None


def read_wording(line: str, params: dict[str, str], c: Constraints) -> bool:
    """A check for a line in words no other reader reads (see the module); a note as nothing."""
    text = line.strip().rstrip(".").strip()
    if re.fullmatch(r"\W*note\W+this (?:question|problem) is the same as\b.*", text, re.I):
        return True  # a cross-reference to another problem: nothing about the inputs
    m = re.fullmatch(r"(.+?) (?:is an?|are) (integers?|strings?)", text)
    names = _names(m.group(1), params) if m else None
    if m and names and all(params.get(n) == m.group(2).rstrip("s").replace("integer", "int") for n in names):
        return True  # "a and b are integers": the signature's types already say so
    m = re.fullmatch(rf"{_NAME} is a palindrome", text)
    if m and params.get(_base(m.group(1))) in ("str", "list"):
        c.checks.append(Check(line, "palindrome", _each(m.group(1), _palindrome)))
        return True
    m = re.fullmatch(rf"{_NAME} is a power of (\d+|two|three|four)", text, re.I)
    if m and _numeric(m.group(1), params) and params.get(_base(m.group(1))) != "float":
        base = _WORDS.get(m.group(2).lower()) or int(m.group(2))
        if base >= 2:
            c.checks.append(Check(line, f"power of {base}", _each(m.group(1), _power(base))))
            return True
    m = re.fullmatch(rf"{_NAME} (?:contains no|does not contain(?: any)?) spaces?", text)
    if m and params.get(_base(m.group(1))) in ("str", "list"):
        c.checks.append(Check(line, "no spaces", _each(m.group(1), _no_space)))
        return True
    return False
