"""sympy answer equivalence, arithmetic/algebra checks, boxed answers, math-mode clustering."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vibecode.clr.math_check import (
    check_relation,
    equivalent,
    is_identity,
    latex_to_text,
    parse_expression,
)
from vibecode.clr.mathmode import boxed_answer, boxed_answers, cluster_answers, math_evidence
from vibecode.clr.score import decide
from vibecode.types import Claim


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1/2", "0.5"),
        ("2/4", "1/2"),
        ("\\frac{1}{2}", "0.5"),
        ("\\dfrac{2}{4}", "\\frac12"),
        ("\\sqrt{8}", "2\\sqrt{2}"),
        ("\\sqrt[3]{27}", "3"),
        ("2^{10}", "1024"),
        ("1,000", "1000"),
        ("x = 5", "5"),
        ("50\\%", "50"),
        ("\\pi/2", "1.5707963267948966"),
        ("(1, 2)", "(1,2)"),
        ("x^2+2x+1", "(x+1)^2"),
        ("\\left(\\frac{3}{4}\\right)", "0.75"),
        ("3 \\cdot 4", "12"),
        ("$\\frac{1}{6}$", "1/6"),
        ("Yes", "yes"),
    ],
)
def test_equivalent(a: str, b: str) -> None:
    assert equivalent(a, b)
    assert equivalent(b, a)


@pytest.mark.parametrize(("a", "b"), [("1/3", "0.333"), ("(1,2)", "(2,1)"), ("3", "4"), ("x+1", "x"), ("Alice", "Bob"), ("1/2", "(1, 2)")])
def test_not_equivalent(a: str, b: str) -> None:
    assert not equivalent(a, b)


def test_hostile_expressions_are_refused_quickly() -> None:
    assert parse_expression("2^(10^10)") is None
    assert parse_expression("100000!") is None
    assert parse_expression("x.subs(x, 1)") is None
    assert parse_expression("__import__('os')") is None
    assert parse_expression("lambda: 1") is None
    assert not equivalent("10^{10^{10}}", "1")


@pytest.mark.parametrize(
    ("lhs", "rhs", "relation", "holds"),
    [
        ("3 * 4", "12", "=", True),
        ("3*4", "13", "=", False),
        ("2^10", "1024", "=", True),
        ("5!", "120", "=", True),
        ("10 % 3", "1", "=", True),
        ("10/3", "3.33", "=", True),
        ("10/3", "3.3", "=", True),
        ("10/3", "3.4", "=", False),
        ("22/7", "3.14", "≈", True),
        ("22/7", "3.5", "≈", False),
        ("0.1 + 0.2", "0.3", "=", True),
        ("2^(10^10)", "1", "=", None),
    ],
)
def test_check_relation(lhs: str, rhs: str, relation: str, holds: bool | None) -> None:
    assert check_relation(lhs, rhs, relation) is holds


def test_identities() -> None:
    assert is_identity("(a+b)^2", "a^2 + 2ab + b^2") is True
    assert is_identity("(a+b)^2", "a^2 + b^2") is False
    assert is_identity("n(n+1)/2", "(n^2+n)/2") is True
    assert is_identity("sin(x)^2 + cos(x)^2", "1") is True
    assert is_identity("x +", "x") is None


def test_latex_to_text() -> None:
    assert latex_to_text("\\frac{a+1}{b}") == "((a+1)/(b))"
    assert latex_to_text("\\sqrt{\\frac{1}{4}}") == "sqrt(((1)/(4)))"


def test_boxed_answers() -> None:
    text = "First \\boxed{1} then \\boxed{\\frac{1}{\\sqrt{2}}} and finally \\boxed{\\{1, 2\\}}."
    assert boxed_answers(text) == ["1", "\\frac{1}{\\sqrt{2}}", "\\{1, 2\\}"]
    assert boxed_answer("The answer is \\boxed 7.") == "7"
    assert boxed_answer("\\fbox{x+1}") == "x+1"
    assert boxed_answer("no box here") is None
    assert boxed_answer("\\boxed{}") is None


def test_cluster_answers() -> None:
    ids = cluster_answers(["1/2", "0.5", None, "\\frac{2}{4}", "3", "0.50", "x"])
    assert ids == [0, 0, None, 0, 1, 0, 2]


def test_math_mode_decision() -> None:
    answers = ["\\frac{1}{2}", "0.5", "2/4", "1/3", None]
    claims = [
        (Claim("1 - 1/3 = 2/3", "arithmetic", "sympy", "verified"),),
        (),
        (Claim("2/3 * 3/4 = 1/2", "arithmetic", "sympy", "verified"),),
        (Claim("2/3 - 1/4 = 1/3", "arithmetic", "sympy", "failed"),),
        (),
    ]
    d = decide(math_evidence(answers, claims), k=5, mode="math")
    assert d.status == "verified"
    assert d.best == 0
    assert d.clusters[0].members == (0, 1, 2)
    assert d.clusters[-1].members == (4,)
    split = decide(math_evidence(["1/2", "1/3", "1/2", "1/3"], [(), (), (), ()]), k=4, mode="math")
    assert split.status == "plausible" and split.reliability < d.reliability
    none = decide(math_evidence([None, None], [(), ()]), k=2, mode="math")
    assert none.status == "failed" and none.reliability == 0.0


def test_math_check_is_the_only_sympy_importer_and_is_lazy() -> None:
    code = (
        "import sys\n"
        "import vibecode.clr.claims, vibecode.clr.claim_check, vibecode.clr.score, vibecode.clr.mathmode\n"
        "import vibecode.clr.math_check, vibecode.clr.inputs, vibecode.clr.harness, vibecode.problems.statement\n"
        "print('sympy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
