"""Regression tests for the defects of issue 15 that real projects showed (items 2, 6-9, 11,
14, 15; items 1, 3, 4 and 13 are in test_environment.py). Real repositories, real pytest in the
real sandbox, `vibecode fix` as a user runs it with no extra flags."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fix.repos import answer, sr
from tests.fix.test_environment import user_env
from tests.fix.test_fix_cli import vibecode
from tests.repo.gitutil import make_repo
from vibecode.config import load_settings
from vibecode.fix.baseline import environment_only
from vibecode.fix.localize import find_suspects
from vibecode.fix.suite import SuiteCommand, run_tests, with_environment
from vibecode.fix.testfiles import find_test_files
from vibecode.fix.verify import VerifyPlan, regression_set, verify_patch
from vibecode.repo.code_index import CodeIndex
from vibecode.sandbox import Sandbox
from vibecode.types import FileChange, Patch
from vibecode.types import TestCaseResult as Case


def repo(root: Path, files: dict[str, str]) -> Path:
    return make_repo(root, {k: v.encode() for k, v in files.items()})


def build_patch(root: Path, new: dict[str, str]) -> Patch:
    return Patch(tuple(FileChange(p, (root / p).read_text(), text) for p, text in new.items()))


def write_pool(path: Path, *answers: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps(a) + "\n" for a in answers))
    return path


# ---- item 2: test files as pytest sees them ---------------------------------------------------


def test_pytest_config_decides_what_a_test_file_is(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\npython_files = ["tests.py", "test.py", "testing.py"]\n')
    found = find_test_files(tmp_path, ["check.py::test_x"])
    for path in ("test.py", "tests.py", "app/tests.py", "testing.py", "conftest.py", "app/conftest.py", "check.py"):
        assert path in found, path
    assert "app/views.py" not in found and "src/pkg/core.py" not in found
    nine = tmp_path / "nine"
    nine.mkdir()
    (nine / "pyproject.toml").write_text('[tool.pytest]\npython_files = ["check_*.py"]\n')  # pytest 9's table
    assert "check_me.py" in find_test_files(nine) and "test_me.py" not in find_test_files(nine)
    tox = tmp_path / "tox"
    tox.mkdir()
    (tox / "tox.ini").write_text("[pytest]\npython_files = tests.py\n")
    assert "app/tests.py" in find_test_files(tox)
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "setup.cfg").write_text("[tool:pytest]\npython_files = spec_*.py\n")
    assert "spec_a.py" in find_test_files(cfg) and "test_a.py" not in find_test_files(cfg)
    assert "test_a.py" in find_test_files(tmp_path / "nowhere")  # pytest's default patterns


DJANGO_APP = '''def slug(title):
    """A URL slug: lower case, words joined by dashes."""
    return "-".join(title.split())
'''
DJANGO_TESTS = '''from app.text import slug


def test_slug():
    assert slug("Hello World") == "hello-world"
'''


def test_a_patch_to_test_py_is_a_test_edit_and_never_chosen(tmp_path: Path) -> None:
    files = {"pyproject.toml": '[tool.pytest.ini_options]\npython_files = ["tests.py"]\n',
             "app/__init__.py": "", "app/text.py": DJANGO_APP, "app/tests.py": DJANGO_TESTS}
    root = repo(tmp_path / "proj", files)
    pool = write_pool(
        tmp_path / "pool.jsonl",
        answer("The test expects the wrong case.", sr("app/tests.py", '    assert slug("Hello World") == "hello-world"',
                                                     '    assert slug("Hello World") == "Hello-World"')),
        answer("Lower-case it.", sr("app/text.py", '    return "-".join(title.split())',
                                    '    return "-".join(title.lower().split())')),
    )
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "2", "--json", cwd=root, env=user_env())
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified" and data["best"]["index"] == 1
    assert [c["test_edit"] for c in data["candidates"]] == [True, False]
    # Localization: the function under test is a suspect, the test is not.
    index = CodeIndex.build(root)
    case = Case("app/tests.py::test_slug", "failed", 0.0, data["failing"][0]["message"])
    suspects = find_suspects(index, [case], find_test_files(root, [case.nodeid]))
    assert [(s.path, s.name) for s in suspects] == [("app/text.py", "slug")]


# ---- items 6 and 8: the baseline's targets, verification without -x, the outcome merge ---------

NET_TEST = '''import socket


def test_download():
    socket.create_connection(("example.com", 80), timeout=5)
'''
MATH = "def double(x):\n    return x + 2\n"
MATH_TESTS = "from calc.m import double\n\n\ndef test_double():\n    assert double(3) == 6\n"


def test_a_sandbox_only_failure_listed_first_does_not_poison_verification(tmp_path: Path) -> None:
    files = {"calc/__init__.py": "", "calc/m.py": MATH, "tests/test_a_net.py": NET_TEST,
             "tests/test_b_math.py": MATH_TESTS}
    root = repo(tmp_path / "proj", files)
    pool = write_pool(tmp_path / "pool.jsonl",
                      answer("Multiply.", sr("calc/m.py", "    return x + 2", "    return x * 2")))
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "1", "--json", cwd=root, env=user_env())
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified", data
    assert [f["nodeid"] for f in data["failing"]] == ["tests/test_b_math.py::test_double"]
    assert any("fail only because of the sandbox" in n and "test_download" in n for n in data["notes"])


def test_environment_only_failures_are_recognised() -> None:
    net = Case("t::a", "failed", 0.0, "E   OSError: [Errno 101] Network is unreachable")
    dns = Case("t::b", "failed", 0.0, "E   socket.gaierror: [Errno -3] Temporary failure in name resolution")
    bug = Case("t::c", "failed", 0.0, "E   assert 5 == 6")
    assert environment_only(net) and environment_only(dns) and not environment_only(bug)


POLLUTED = {
    "calc/__init__.py": "",
    "calc/m.py": "SCALE = [2]\n\n\ndef double(x):\n    return x + 2\n",
    "tests/test_a.py": "from calc import m\n\n\ndef test_pollute():\n    m.SCALE[0] = 3\n",
    "tests/test_b.py": "from calc.m import double\n\n\ndef test_double():\n    assert double(3) == 6\n",
}


def test_a_later_full_run_does_not_overwrite_a_first_run_pass(tmp_path: Path, sandbox: Sandbox) -> None:
    root = repo(tmp_path / "proj", POLLUTED)
    patch = build_patch(root, {"calc/m.py": POLLUTED["calc/m.py"].replace("return x + 2", "return x * SCALE[0]")})
    command = with_environment(SuiteCommand(), root, sandbox)
    plan = VerifyPlan(source=root, command=command, failing=("tests/test_b.py::test_double",),
                      passed_before=("tests/test_a.py::test_pollute",), selectors=None, cheap=True, timeout=120)
    v = verify_patch(sandbox, plan, patch)
    # Alone, the failing test passes; in the full run it fails after test_pollute (3 * 3 = 9).
    assert v.fixed == 1 and v.outcomes["tests/test_b.py::test_double"] == "passed" and v.regressions == ()


def test_a_regression_that_fails_on_the_base_tree_too_is_flaky_not_the_patch(tmp_path: Path, sandbox: Sandbox) -> None:
    files = {"calc/__init__.py": "", "calc/m.py": MATH,
             "tests/test_b.py": MATH_TESTS,
             "tests/test_c.py": "def test_once():\n    assert True\n"}
    root = repo(tmp_path / "proj", files)
    patch = build_patch(root, {"calc/m.py": "def double(x):\n    return x * 2\n"})
    command = with_environment(SuiteCommand(), root, sandbox)
    # Pretend test_fails_everywhere passed before: it fails on the base tree too, so it is flaky.
    (root / "tests/test_d.py").write_text("def test_fails_everywhere():\n    assert False\n")
    plan = VerifyPlan(source=root, command=command, failing=("tests/test_b.py::test_double",),
                      passed_before=("tests/test_c.py::test_once", "tests/test_d.py::test_fails_everywhere"),
                      selectors=None, cheap=True, timeout=120)
    v = verify_patch(sandbox, plan, patch)
    assert v.fixed == 1 and v.regressions == () and v.flaky == ("tests/test_d.py::test_fails_everywhere",)


# ---- item 7: the process cap comes from the suite, and is a setting ---------------------------

THREADS = '''import threading


def test_hundred_threads():
    done = threading.Barrier(101)
    threads = [threading.Thread(target=done.wait) for _ in range(100)]
    for t in threads:
        t.start()
    done.wait()
    for t in threads:
        t.join()
'''


def test_a_suite_with_100_threads_gets_the_processes_it_needs(tmp_path: Path, sandbox: Sandbox) -> None:
    root = repo(tmp_path / "proj", {"tests/test_threads.py": THREADS})
    command = with_environment(SuiteCommand(), root, sandbox)
    assert command.nprocs == 1024
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, command, None, 120)
    assert report.passed == ("tests/test_threads.py::test_hundred_threads",), report
    small = with_environment(SuiteCommand(), root, sandbox, nprocs=32)
    with sandbox.prepare(root) as ws:
        capped = run_tests(sandbox, ws, small, None, 120)
    assert not capped.passed  # the cap is real: 32 is too few for 100 threads
    assert load_settings(Path("/nonexistent"), {"VIBECODE_SANDBOX_NPROCS": "2048"}).sandbox_nprocs == 2048


# ---- item 9: no tests is its own status ---------------------------------------------------------


def test_no_tests_collected_is_not_nothing_to_fix(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj", {"calc/__init__.py": "", "calc/m.py": "x = 1 / 0\n"})
    done = vibecode("fix", "--engine", f"replay:{tmp_path / 'none.jsonl'}", "--json", cwd=root, env=user_env())
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["status"] == "no_tests"
    (root / "calc" / "m.py").write_text("x = 1 / 0  # staged\n")
    from tests.repo.gitutil import git

    git(root, "add", "-A")
    hard = vibecode("precommit", "--json", cwd=root, env=user_env())
    data = json.loads(hard.stdout)
    assert hard.returncode == 1 and data["outcome"] == "no_tests" and "No tests were collected" in data["message"]
    allowed = vibecode("precommit", "--json", cwd=root, env=user_env(VIBECODE_PRECOMMIT_ALLOW_NO_TESTS="1"))
    assert allowed.returncode == 0 and json.loads(allowed.stdout)["outcome"] == "no_tests"
    soft = vibecode("precommit", "--mode", "soft", "--json", cwd=root, env=user_env())
    assert soft.returncode == 0


# ---- item 11: ignored generated files reach the sandbox ---------------------------------------


def test_an_ignored_generated_version_module_is_carried(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj", {".gitignore": "calc/_version.py\n", "calc/__init__.py": "from calc._version import version\n",
                                    "tests/test_version.py": "import calc\n\n\ndef test_version():\n    assert calc.version == '1.2'\n"})
    (root / "calc" / "_version.py").write_text("version = '1.2'\n")  # what hatch-vcs writes at install time
    done = vibecode("fix", "--engine", f"replay:{tmp_path / 'none.jsonl'}", "--json", cwd=root, env=user_env())
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["status"] == "passing"


# ---- item 14: verified versus plausible never depends on time ---------------------------------


def test_the_regression_scope_is_all_when_the_affected_tests_are_every_test(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj", {"calc/__init__.py": "", "calc/m.py": MATH, "tests/test_b.py": MATH_TESTS,
                                    "tests/test_c.py": "from calc import m\n\n\ndef test_c():\n    assert m\n"})
    index = CodeIndex.build(root)
    plan = VerifyPlan(source=root, command=SuiteCommand(), failing=("tests/test_b.py::test_double",),
                      passed_before=("tests/test_c.py::test_c",), selectors=None, cheap=False, timeout=60, index=index)
    scope, _, checked = regression_set(plan, ["calc/m.py"])
    assert scope == "all" and checked == ("tests/test_c.py::test_c",)


# ---- item 15: the project's own src/ package missing; --json errors ----------------------------


def test_an_uninstalled_src_package_is_named_and_json_errors_print_json(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj", {"src/spans/__init__.py": "def f():\n    return 1\n",
                                    "tests/test_f.py": "from spans import f\n\n\ndef test_f():\n    assert f() == 1\n"})
    done = vibecode("fix", "--engine", f"replay:{tmp_path / 'none.jsonl'}", "--json", cwd=root, env=user_env())
    assert done.returncode >= 2, done.stdout
    assert "cannot import the project's own package spans" in done.stderr and "pip install -e ." in done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "error" and "spans" in data["error"]


# ---- item 10: test paths in --test-cmd; -x never hides a failing test ---------------------------


def test_paths_in_the_test_command_are_the_selection_not_an_addition() -> None:
    from vibecode.fix.suite import parse_test_cmd, without_exitfirst

    cmd = parse_test_cmd("pytest -x tests/test_b.py -k 'fast or slow' -p no:warnings tests/test_c.py::test_one")
    assert cmd.selectors == ("tests/test_b.py", "tests/test_c.py::test_one")
    assert cmd.pytest_args == ("-x", "-k", "fast or slow", "-p", "no:warnings")
    assert without_exitfirst(["-x", "--maxfail", "2", "--maxfail=3", "-q"]) == ["-q"]


REGRESS_TESTS = '''from calc.m import double, half


def test_half():
    assert half(8) == 4


def test_double():
    assert double(3) == 6
'''


def test_a_regression_earlier_in_a_file_named_with_x_is_a_regression_not_a_missing_test(tmp_path: Path) -> None:
    root = repo(tmp_path / "proj", {"calc/__init__.py": "", "calc/m.py": MATH + "\n\ndef half(x):\n    return x // 2\n",
                                    "tests/test_b.py": REGRESS_TESTS})
    pool = write_pool(
        tmp_path / "pool.jsonl",
        answer("Multiply, and halve differently.", sr("calc/m.py", "    return x + 2", "    return x * 2"),
               sr("calc/m.py", "    return x // 2", "    return x // 3")),
        answer("Multiply.", sr("calc/m.py", "    return x + 2", "    return x * 2")),
    )
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "2", "--json", "--test-cmd", "pytest -x tests/test_b.py",
                    cwd=root, env=user_env())
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified" and data["best"]["index"] == 1
    first = data["candidates"][0]
    assert first["fixed"] == 1 and first["regressed"] == ["tests/test_b.py::test_half"] and first["verify_error"] is None
