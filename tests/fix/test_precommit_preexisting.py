"""Issue 15, item 6 for the hook: a test that also fails on HEAD with the same error is not
the staged change's fault: it neither blocks the commit nor becomes a fix target. A real git
repository, real pytest in the real sandbox, `vibecode precommit` as the hook runs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fix.test_environment import user_env
from tests.fix.test_fix_cli import vibecode
from tests.repo.gitutil import git, make_repo
from vibecode.precommit.preexisting import error_signature
from vibecode.types import TestCaseResult as Case

CODE = "def double(x):\n    return 2 * x\n\n\ndef half(x):\n    return x / 2\n"
TESTS = ('from calc import double, half\n\n\ndef test_double():\n    assert double(2) == 4\n\n\n'
         'def test_half_is_broken_on_head():\n    assert half(3) == 1\n')


def precommit(root: Path) -> dict[str, object]:
    done = vibecode("precommit", "--mode", "hard", "--no-fix", "--json", cwd=root, env=user_env())
    data = json.loads(done.stdout)
    assert data["exit_code"] == done.returncode, done.stderr
    return data


def test_a_failure_already_on_head_with_the_same_error_does_not_block(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "proj", {"calc.py": CODE.encode(), "test_calc.py": TESTS.encode()})
    (root / "README.md").write_text("# calc\n")
    git(root, "add", "README.md")  # a change that breaks nothing
    data = precommit(root)
    assert data["outcome"] == "passed" and data["exit_code"] == 0, data
    assert "fail on HEAD too" in data["message"] and "test_half_is_broken_on_head" in data["message"]
    assert data["failing"] == []
    # A staged bug that breaks another test still blocks, and only that test is the failure.
    (root / "calc.py").write_text(CODE.replace("2 * x", "3 * x"))
    git(root, "add", "calc.py")
    data = precommit(root)
    assert data["outcome"] == "failed" and data["exit_code"] == 1
    assert [f["nodeid"] for f in data["failing"]] == ["test_calc.py::test_double"]  # type: ignore[index]
    assert "fail on HEAD too" in data["message"]


def test_the_same_test_failing_with_another_error_is_the_changes_fault(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "proj", {"calc.py": CODE.encode(), "test_calc.py": TESTS.encode()})
    (root / "calc.py").write_text(CODE.replace("return x / 2", "return x.half()"))
    git(root, "add", "calc.py")
    data = precommit(root)
    assert data["outcome"] == "failed" and data["exit_code"] == 1
    assert [f["nodeid"] for f in data["failing"]] == ["test_calc.py::test_half_is_broken_on_head"]  # type: ignore[index]
    assert "HEAD too" not in data["message"]


def test_error_signatures_mask_addresses_and_workspace_paths() -> None:
    a = Case("t.py::x", "failed", 0, "def x():\n>   f()\nE   ValueError: <Obj at 0x7f00aa> in /tmp/ws-1/t.py\nt.py:2: ValueError")
    b = Case("t.py::x", "failed", 0, "def x():\n>   f()\nE   ValueError: <Obj at 0x7f99bb> in /tmp/ws-2/t.py\nt.py:2: ValueError")
    c = Case("t.py::x", "failed", 0, "E   TypeError: no")
    assert error_signature(a) == error_signature(b) != error_signature(c)


def test_precommit_tests_runs_only_the_tests_named(tmp_path: Path) -> None:
    """Issue 15, item 10: `precommit --tests` selects the tests, nothing is added to them."""
    root = make_repo(tmp_path / "proj", {"calc.py": CODE.encode(), "test_calc.py": TESTS.encode()})
    (root / "calc.py").write_text(CODE.replace("2 * x", "3 * x"))
    git(root, "add", "calc.py")
    done = vibecode("precommit", "--mode", "hard", "--no-fix", "--json", "--tests", "test_calc.py::test_half_is_broken_on_head",
                    cwd=root, env=user_env())
    data = json.loads(done.stdout)
    assert data["selection"] == "given" and data["selected"] == ["test_calc.py::test_half_is_broken_on_head"]
    assert data["tests_run"] == 1 and data["outcome"] == "passed" and done.returncode == 0, data  # fails on HEAD too
