"""The fix flow's parts on their own: test commands, tracebacks, localization within a token
budget, affected tests, scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fix.repos import OFF_BY_ONE, answer
from tests.repo.gitutil import make_repo
from vibecode.errors import SandboxError, UsageError
from vibecode.fix.affected import affected_tests, dependents
from vibecode.fix.localize import build_context, find_suspects, frames
from vibecode.fix.score import decide
from vibecode.fix.suite import (
    SuiteCommand,
    check_baseline,
    failures,
    is_test_path,
    nodeid_function,
    outcomes_for,
    parse_test_cmd,
    run_tests,
)
from vibecode.repo.code_index import CodeIndex, approx_tokens
from vibecode.sandbox import Sandbox
from vibecode.types import Claim, Completion, FixCandidate
from vibecode.types import TestCaseResult as Case

# ---- test commands ---------------------------------------------------------------------------


def test_parse_test_cmd() -> None:
    assert parse_test_cmd(None).is_pytest
    cmd = parse_test_cmd("pytest -k fast tests/unit")
    assert cmd.is_pytest and cmd.pytest_args == ("-k", "fast") and cmd.selectors == ("tests/unit",) and cmd.python is None
    cmd = parse_test_cmd("python3 -m pytest -x")
    assert cmd.is_pytest and cmd.pytest_args == ("-x",) and cmd.python == "python3"  # the project's python3, not vibecode's
    cmd = parse_test_cmd(".venv/bin/python -m pytest")
    assert cmd.is_pytest and cmd.python == ".venv/bin/python"
    cmd = parse_test_cmd("make test JUNIT={junit}")
    assert not cmd.is_pytest and cmd.argv == ("make", "test", "JUNIT={junit}") and not cmd.selectable
    assert parse_test_cmd("tox -e py -- {tests}").selectable
    with pytest.raises(UsageError):
        parse_test_cmd("pytest 'unclosed")


def test_test_paths_and_ids() -> None:
    assert is_test_path("tests/helpers.py") and is_test_path("pkg/test_x.py") and is_test_path("pkg/x_test.py")
    assert is_test_path("conftest.py") and not is_test_path("pkg/testing_tools.py") and not is_test_path("src/pkg/core.py")
    assert nodeid_function("tests/test_a.py::TestA::test_b[1-2]") == "TestA.test_b"
    assert nodeid_function("tests/test_a.py") is None


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_a_custom_command_reports_through_junit(tmp_path: Path, sandbox: Sandbox) -> None:
    root = _project(tmp_path, {"test_a.py": "def test_ok():\n    pass\n\ndef test_bad():\n    assert 0\n"})
    cmd = parse_test_cmd(f'sh -c "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {sandbox.python} -m pytest -p no:cacheprovider '
                         '--junitxml=$VIBECODE_JUNIT -o junit_family=xunit1 -q"')
    assert not cmd.is_pytest
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, cmd)
    assert {c.nodeid.split("::")[-1]: c.outcome for c in report.cases} == {"test_ok": "passed", "test_bad": "failed"}
    broken = parse_test_cmd("sh -c 'echo nothing here; exit 3'")
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, broken)
    assert not report.cases and "wrote no JUnit XML" in (report.collection_error or "")
    with pytest.raises(SandboxError, match="could not run the tests"):
        check_baseline(report, failures(report, root), broken)


def test_collection_errors_become_file_level_failures(tmp_path: Path, sandbox: Sandbox) -> None:
    root = _project(tmp_path, {
        "pkg/__init__.py": "", "pkg/m.py": "raise RuntimeError('boom at import')\n",
        "tests/test_m.py": "import pkg.m\n\ndef test_m():\n    pass\n",
        "tests/test_fine.py": "def test_fine():\n    pass\n",
    })
    cmd = SuiteCommand(autoload_plugins=False)
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, cmd)
    failing = failures(report, root)
    assert [c.nodeid for c in failing] == ["tests/test_m.py"] and "boom at import" in failing[0].message
    assert report.passed == ("tests/test_fine.py::test_fine",)
    assert outcomes_for(report, ["tests/test_m.py", "tests/test_fine.py"]) == {
        "tests/test_fine.py::test_fine": "passed", "tests/test_m.py": "error", "tests/test_fine.py": "passed"}


def test_a_broken_run_is_never_read_as_passing(tmp_path: Path, sandbox: Sandbox) -> None:
    root = _project(tmp_path, {"test_a.py": "def test_a():\n    pass\n"})
    cmd = SuiteCommand(pytest_args=("--no-such-option",), autoload_plugins=False)
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, cmd)
    with pytest.raises(SandboxError):
        check_baseline(report, failures(report, root), cmd)


# ---- tracebacks and localization -------------------------------------------------------------

TRACE = """TypeError: bad
tests/test_a.py:5: in test_b
    assert f(None)==4
/tmp/vibecode-ws-1-abc/pkg/core.py:6: in f
    return g(x) + y
/usr/lib/python3.11/json/__init__.py:346: in loads
    return _default_decoder.decode(s)
pkg/core.py:2: in g
    return x['a']
E   TypeError: bad
"""


def test_frames_map_sandbox_paths_and_skip_outside_files() -> None:
    found = frames(TRACE, {"tests/test_a.py", "pkg/core.py"})
    assert [(f.path, f.line, f.function) for f in found] == [
        ("tests/test_a.py", 5, "test_b"), ("pkg/core.py", 6, "f"), ("pkg/core.py", 2, "g")]


def _index(tmp_path: Path, files: dict[str, str]) -> tuple[Path, CodeIndex]:
    root = make_repo(tmp_path / "repo", {k: v.encode() for k, v in files.items()})
    return root, CodeIndex.build(root, cache_dir=tmp_path / "cache")


def test_suspects_come_from_the_traceback_then_from_the_test(tmp_path: Path) -> None:
    root, index = _index(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/core.py": "def g(x):\n    return x['a']\n\n\ndef f(x):\n    y = 1\n    return g(x) + y\n\n\ndef h():\n    return 3\n",
        "tests/test_a.py": "from pkg.core import f, h\n\n\ndef test_b():\n    assert f(None) == 4\n\n\ndef test_h():\n    assert h() == 4\n",
    })
    crash = Case("tests/test_a.py::test_b", "failed", message=TRACE.replace("/tmp/vibecode-ws-1-abc/", "").replace(":6:", ":7:"))
    plain = Case("tests/test_a.py::test_h", "failed", message="assert 3 == 4\ntests/test_a.py:9: AssertionError")
    suspects = find_suspects(index, [crash, plain])
    names = [(s.name, s.why) for s in suspects]
    assert names[:2] == [("g", "traceback"), ("f", "traceback")]
    assert ("h", "used by the test") in names
    context = build_context(root, index, [crash, plain], approx_tokens, 2000)
    assert "def h():" in context.text and "def test_h():" in context.text and "assert 3 == 4" in context.text
    assert context.tokens <= 2000


def test_context_stays_within_the_budget_and_maps_the_rest(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": "", "tests/test_main.py": "from pkg.main import run\n\n\ndef test_run():\n    assert run() == 2\n"}
    files["pkg/main.py"] = "from pkg import util_0, util_1\n\n\ndef run():\n    return util_0.helper_0() + util_1.helper_1()\n"
    for n in range(40):
        body = "\n".join(f"def helper_{n}_{k}(a, b):\n    return a + b + {k}\n" for k in range(5))
        files[f"pkg/util_{n}.py"] = f"def helper_{n}():\n    return {n}\n\n\n" + body
    root, index = _index(tmp_path, files)
    case = Case("tests/test_main.py::test_run", "failed",
                          message="assert 1 == 2\n" + "\n".join(f"noise line {i}" for i in range(300)))
    small = build_context(root, index, [case], approx_tokens, 400)
    assert small.tokens <= 400
    assert "lines cut" in small.text  # the long error output was trimmed to fit
    large = build_context(root, index, [case], approx_tokens, 3000)
    assert large.tokens <= 3000 and large.map_tokens > 0
    assert "Other code in the repository" in large.text and "pkg/util_0.py" in large.text
    assert "def run():" in large.text  # the function the test uses, in full


# ---- affected tests --------------------------------------------------------------------------


def test_affected_tests_follow_imports_transitively(tmp_path: Path) -> None:
    _, index = _index(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/api.py": "from pkg.core import f\n\n\ndef g():\n    return f()\n",
        "pkg/other.py": "def o():\n    return 2\n",
        "tests/test_api.py": "from pkg.api import g\n\n\ndef test_g():\n    assert g() == 1\n",
        "tests/test_other.py": "from pkg import other\n\n\ndef test_o():\n    assert other.o() == 2\n",
        "tests/unit/conftest.py": "import pkg.core\n",
        "tests/unit/test_plain.py": "def test_plain():\n    pass\n",
    })
    assert "tests/test_api.py" in dependents(index, ["pkg/core.py"])
    assert affected_tests(index, ["pkg/core.py"]).tests == ("tests/test_api.py", "tests/unit/test_plain.py")
    assert affected_tests(index, ["pkg/other.py"]).tests == ("tests/test_other.py",)
    assert affected_tests(index, ["tests/test_other.py"]).tests == ("tests/test_other.py",)
    assert affected_tests(index, ["README.md", "pkg/other.py"]).tests == ("tests/test_other.py",)
    assert affected_tests(index, ["data/table.csv"]).whole_suite
    assert affected_tests(index, ["conftest.py"]).whole_suite
    assert affected_tests(index, ["pyproject.toml"]).whole_suite
    assert affected_tests(index, ["scripts/tool.py"]).empty


# ---- scoring ---------------------------------------------------------------------------------

FAILING = ("t.py::a", "t.py::b")


def _cand(index: int, fixed: int, regressions: tuple[str, ...] = (), test_edit: bool = False,
          claims: tuple[Claim, ...] = (), duplicate_of: int | None = None) -> FixCandidate:
    outcomes = {n: "passed" if k < fixed else "failed" for k, n in enumerate(FAILING)}
    return FixCandidate(index, Completion("", "", "", "stop", 0, 0), parsed=True, verified=True, fixed=fixed,
                        failing_total=2, regressions=regressions, regression_run=5, regression_scope="all",
                        outcomes=outcomes, test_edit=test_edit, claims=claims, duplicate_of=duplicate_of)


def test_scoring_ranks_fixes_then_regressions_then_agreement() -> None:
    wrong = Claim("2 + 2 = 5", "arithmetic", "sympy", "failed")
    right = Claim("2 + 2 = 4", "arithmetic", "sympy", "verified")
    cands = [
        _cand(0, 2, test_edit=True),  # passes by editing the tests
        _cand(1, 2, regressions=("t.py::c",)),
        _cand(2, 1),
        _cand(3, 2, claims=(wrong,)),
        _cand(4, 2, claims=(right,)),
        _cand(5, 2, duplicate_of=4),
    ]
    d = decide(cands, FAILING, k=8)
    assert d.status == "verified" and d.best == 4  # the cluster member with the best r_k
    assert d.ranking == (4, 3, 1, 2, 0)
    assert d.cluster_of[3] == d.cluster_of[4] == d.cluster_of[5] == 0
    # R = T * cov * (0.6 * |c| / K + 0.4 * rho): T = 1 - 2**-3, |c| = 3, rho = (1 + 1) / (2 + 2)
    assert d.reliability == pytest.approx(0.875 * (0.6 * 3 / 8 + 0.4 * 0.5))
    allowed = decide(cands, FAILING, k=8, allow_test_edits=True)
    assert allowed.ranking.index(0) < allowed.ranking.index(1)


def test_scoring_statuses() -> None:
    partial = [FixCandidate(0, Completion("", "", "", "stop", 0, 0), parsed=True, verified=True, fixed=2, failing_total=2,
                            regression_run=1, regression_scope="affected", outcomes={n: "passed" for n in FAILING})]
    d = decide(partial, FAILING, k=1)
    assert d.status == "plausible" and "only the 1 test that imports the touched modules was checked" in d.reason
    assert d.reliability == pytest.approx(0.875 * 0.85 * (0.6 + 0.4 * 0.5))
    assert decide([_cand(0, 1)], FAILING, k=1).status == "failed"
    assert decide([], FAILING, k=3).reason.startswith("No candidate produced a patch")
    only_edit = decide([_cand(0, 2, test_edit=True)], FAILING, k=1)
    assert only_edit.status == "failed" and only_edit.reliability == 0 and only_edit.best == 0


def test_pool_helpers_write_valid_replay_lines(tmp_path: Path) -> None:
    from vibecode.engine.replay import read_replay_lines

    path = OFF_BY_ONE.write_pool(tmp_path / "pool.jsonl")
    lines = read_replay_lines(path)
    assert [x["kind"] for x in lines].count("candidate") == len(OFF_BY_ONE.pool)
    assert answer("r", "x")["text"].startswith("<think>\nr\n</think>")


def test_missing_packages_are_not_a_bug_to_fix(tmp_path: Path, sandbox: Sandbox) -> None:
    root = _project(tmp_path, {"tests/test_a.py": "import no_such_package_here\n\n\ndef test_a():\n    pass\n"})
    cmd = SuiteCommand(autoload_plugins=False)
    with sandbox.prepare(root) as ws:
        report = run_tests(sandbox, ws, cmd)
    failing = failures(report, root)
    assert [c.nodeid for c in failing] == ["tests/test_a.py"]
    with pytest.raises(SandboxError, match="no_such_package_here") as caught:
        check_baseline(report, failing, cmd, root)
    assert "--test-cmd" in (caught.value.hint or "")


def test_the_prompt_fits_a_real_models_context(tmp_path: Path, tiny_engine: object) -> None:
    """With llama.cpp's own tokenizer and context size (the tiny model): the budget leaves room
    for the answer, and the context counted by that tokenizer stays within it."""
    from vibecode.engine.sampling import Budget
    from vibecode.fix.pipeline import FixRun, prompt_budget
    from vibecode.fix.prompts import fix_messages, instruction_overhead
    from vibecode.types import SamplingParams

    engine = tiny_engine
    run = FixRun(engine=engine, sandbox=None, params=SamplingParams(max_tokens=6000),  # type: ignore[arg-type]
                 helper_params=SamplingParams(), budget=Budget())
    budget = prompt_budget(run, instruction_overhead())
    n_ctx = engine.info().n_ctx  # type: ignore[attr-defined]
    assert budget == max(1024, n_ctx - 6000 - engine.count_tokens(instruction_overhead()) - 64)  # type: ignore[attr-defined]
    root, index = _index(tmp_path, {f"pkg/m{n}.py": f"def f{n}(x):\n    return x * {n}\n" for n in range(200)}
                         | {"tests/test_m.py": "from pkg.m1 import f1\n\n\ndef test_f1():\n    assert f1(2) == 3\n"})
    case = Case("tests/test_m.py::test_f1", "failed", message="assert 2 == 3\ntests/test_m.py:5: AssertionError")
    context = build_context(root, index, [case], engine.count_tokens, 600)  # type: ignore[attr-defined]
    assert context.tokens <= 600 and context.map_tokens > 0
    prompt = fix_messages(context.text)[0].content
    assert engine.count_tokens(prompt) <= 600 + engine.count_tokens(instruction_overhead()) + 8  # type: ignore[attr-defined]
