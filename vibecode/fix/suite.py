"""Running a repository's tests in the sandbox for the fix flow, and what test ids mean.

The default test command is pytest through :func:`vibecode.sandbox.run_pytest` (JUnit XML plus
an event log, so a pass is never invented). ``--test-cmd`` may name:

- pytest itself, with options: ``pytest -x -k fast``, ``python -m pytest tests/unit``. The
  interpreter is the project's own environment (:mod:`vibecode.fix.environment`): the one named
  (``.venv/bin/python -m pytest``, relative to the repository root), or the one found.
- any other command that writes a JUnit XML report: to the path in ``$VIBECODE_JUNIT`` or where
  the command says ``{junit}`` (a path relative to the repository root, where it runs). ``{tests}`` is replaced by the test ids to run (without it, every
  run runs the whole command).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vibecode.errors import SandboxError, UsageError, VibecodeError
from vibecode.fix.environment import ProjectEnv, find_environment
from vibecode.fix.testfiles import TestFiles
from vibecode.sandbox import Limits, Sandbox, Workspace, run_pytest
from vibecode.sandbox.junit import MAX_REPORT_BYTES, parse_junit
from vibecode.sandbox.readback import read_back
from vibecode.types import TestCaseResult, TestReport

JUNIT_PLACEHOLDER = "{junit}"
TESTS_PLACEHOLDER = "{tests}"
CUSTOM_JUNIT = ".vibecode-junit.xml"
# Short tracebacks: one "path:line: in function" line per frame, easy to read and to localize.
# A module that fails to import is reported, and the other tests still run.
PYTEST_ARGS = ("--tb=short", "--continue-on-collection-errors")
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
DEFAULT_NPROCS = 256  # processes and threads a test run may start
CONCURRENT_NPROCS = 1024  # when the tests use threads or processes
_CONCURRENT = re.compile(rb"\b(threading|multiprocessing|concurrent\.futures|ThreadPoolExecutor|ProcessPoolExecutor)\b")
_COLLECT_HEAD = re.compile(r"^(?P<name>\w[\w./-]*?)(?:\.py)?: ", re.M)


@dataclass(frozen=True)
class SuiteCommand:
    """How to run the tests. ``argv`` is None for pytest (then ``pytest_args`` are its options)."""

    argv: tuple[str, ...] | None = None
    pytest_args: tuple[str, ...] = ()
    python: str | None = None  # the interpreter named in the command ("python", ".venv/bin/python")
    autoload_plugins: bool = True
    text: str = "pytest"
    environment: ProjectEnv | None = None  # found by :func:`with_environment`
    selectors: tuple[str, ...] = ()  # test paths or ids named in the command (the tests to run)
    nprocs: int | None = None  # the run's process/thread cap (None: DEFAULT_NPROCS)

    @property
    def is_pytest(self) -> bool:
        return self.argv is None

    @property
    def selectable(self) -> bool:
        """Whether single tests can be chosen (pytest, or a command with ``{tests}``)."""
        return self.argv is None or any(TESTS_PLACEHOLDER in a for a in self.argv)


def parse_test_cmd(text: str | None, autoload_plugins: bool = True) -> SuiteCommand:
    """The test command of ``--test-cmd`` (None: plain pytest)."""
    if text is None or not text.strip():
        return SuiteCommand(autoload_plugins=autoload_plugins)
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"Cannot read the test command {text!r}: {exc}.") from None
    name = PurePosixPath(argv[0]).name
    if name in ("pytest", "py.test"):
        options, selectors = split_pytest_args(argv[1:])
        return SuiteCommand(None, options, None, autoload_plugins, text, selectors=selectors)
    if "python" in name and len(argv) >= 3 and argv[1:3] == ["-m", "pytest"]:
        options, selectors = split_pytest_args(argv[3:])
        return SuiteCommand(None, options, argv[0], autoload_plugins, text, selectors=selectors)
    return SuiteCommand(tuple(argv), (), None, autoload_plugins, text)


# pytest options whose value is the next argument (so that value is not a test path).
VALUE_OPTIONS = frozenset({
    "-k", "-m", "-p", "-c", "-o", "-W", "-n", "-r", "--deselect", "--ignore", "--ignore-glob", "--rootdir",
    "--confcutdir", "--basetemp", "--tb", "--maxfail", "--durations", "--log-level", "--junitxml",
    "--override-ini", "--import-mode", "--cov", "--cov-report", "--dist", "--timeout", "--capture",
    "--log-cli-level", "--log-file", "--pyargs", "--config-file", "--junit-prefix", "--report-log",
})


def split_pytest_args(args: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(options, test selectors) of pytest's arguments: a test path named in the command is
    what the run before the patch runs, never added to every verification run."""
    options: list[str] = []
    selectors: list[str] = []
    value_next = False
    for arg in args:
        if value_next:
            options.append(arg)
            value_next = False
        elif arg.startswith("-"):
            options.append(arg)
            value_next = arg in VALUE_OPTIONS
        else:
            selectors.append(arg)
    return tuple(options), tuple(selectors)


def without_exitfirst(options: Sequence[str]) -> list[str]:
    """pytest's options less those that stop a run early (``-x``, ``--maxfail``, ``--sw``): every
    failing test must report, or a patch's effect on the later ones is unknown."""
    out: list[str] = []
    skip = False
    for opt in options:
        if skip:
            skip = False
        elif opt in ("-x", "--exitfirst", "--sw", "--stepwise", "--sw-skip", "--stepwise-skip"):
            continue
        elif opt == "--maxfail":
            skip = True
        elif not opt.startswith("--maxfail="):
            out.append(opt)
    return out


def with_environment(command: SuiteCommand, root: Path, sandbox: Sandbox, source: Path | None = None,
                     nprocs: int | None = None) -> SuiteCommand:
    """``command`` with the project's environment (local sandbox, pytest) and its process cap:
    ``nprocs`` when given (the ``sandbox_nprocs`` setting), else from what the tests use."""
    cap = command.nprocs or nprocs or suite_nprocs(source or root)
    env = command.environment
    if env is None and command.is_pytest and sandbox.name == "local":
        env = find_environment(root, command.python)
    elif env is None and command.python is not None and not _PYTHON.match(PurePosixPath(command.python).name):
        raise UsageError("A Python interpreter in --test-cmd works with the local sandbox only.",
                         "In Docker, put the project's dependencies in the image instead.")
    return dataclasses.replace(command, environment=env, nprocs=cap)


def suite_nprocs(root: Path) -> int:
    """:data:`CONCURRENT_NPROCS` when a test file uses threads or processes, else the default."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__")
                       and not os.path.exists(os.path.join(dirpath, d, "pyvenv.cfg"))]
        for name in filenames:
            if name.endswith(".py") and (is_test_path(os.path.relpath(os.path.join(dirpath, name), root))):
                try:
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        if _CONCURRENT.search(fh.read(1 << 20)):
                            return CONCURRENT_NPROCS
                except OSError:
                    continue
    return DEFAULT_NPROCS


def run_tests(
    sandbox: Sandbox,
    workspace: Workspace,
    command: SuiteCommand,
    tests: Sequence[str] | None = None,
    timeout: float = 300.0,
    *,
    exitfirst: bool = False,
) -> TestReport:
    """Run ``tests`` (node ids or files; None: the whole suite) and read per-test outcomes."""
    env = command.environment if sandbox.name == "local" else None
    limits = Limits(wall_s=timeout, nprocs=command.nprocs or DEFAULT_NPROCS, ro_paths=env.ro_paths if env else ())
    if command.argv is None:
        extra = [*PYTEST_ARGS, *without_exitfirst(command.pytest_args), *(["-x"] if exitfirst else [])]
        path = env.pythonpath(workspace.path) if env is not None else ""
        return run_pytest(
            sandbox, workspace, tests=list(tests) if tests is not None else None, timeout=timeout, limits=limits,
            extra_args=extra, autoload_plugins=command.autoload_plugins, python=env.python if env else None,
            env={"PYTHONPATH": path} if path else None,
        )
    return _run_custom(sandbox, workspace, command.argv, tests, limits)


def _run_custom(
    sandbox: Sandbox, workspace: Workspace, argv: tuple[str, ...], tests: Sequence[str] | None, limits: Limits
) -> TestReport:
    junit = workspace.path / CUSTOM_JUNIT
    cmd: list[str] = []
    for arg in argv:
        if arg == TESTS_PLACEHOLDER:
            cmd.extend(tests or ())
        else:
            cmd.append(arg.replace(JUNIT_PLACEHOLDER, CUSTOM_JUNIT).replace(TESTS_PLACEHOLDER, " ".join(tests or ())))
    with contextlib.suppress(OSError, VibecodeError):
        workspace.delete(CUSTOM_JUNIT)
    run = sandbox.run(workspace, cmd, limits, env={"VIBECODE_JUNIT": CUSTOM_JUNIT})
    data = _read(junit)
    report = parse_junit(data)
    if report is None:
        tail = (run.stderr.strip() or run.stdout.strip())[-1500:]
        why = "timed out" if run.timed_out else f"exited with code {run.exit_code}"
        return TestReport((), run, f"The test command {why} and wrote no JUnit XML report to $VIBECODE_JUNIT. {tail}".strip(),
                          complete=False)
    errors = "\n\n".join(report.collection_errors) or None
    return TestReport(tuple(report.cases), run, errors, complete=not run.timed_out)


def _read(path: os.PathLike[str]) -> bytes | None:
    return read_back(path, MAX_REPORT_BYTES)


def check_baseline(
    report: TestReport, failing: Sequence[TestCaseResult], command: SuiteCommand, source: Path | None = None
) -> None:
    """Raise SandboxError when a run before any patch says nothing trustworthy (it broke, timed
    out or reported errors that name no test, so "nothing fails" would be invented), or when
    every failure is a package the sandbox's Python lacks (no patch to the code can fix that)."""
    run = report.run
    what = f"The test command ({command.text})"
    if run.timed_out:
        raise SandboxError(f"{what} timed out after {run.duration_s:.0f} s in the sandbox.",
                           "Select fewer tests with --tests, or make the suite faster.")
    missing = missing_packages(failing, source) if source is not None else []
    if missing:
        raise SandboxError(
            f"The tests need Python packages that the sandbox's interpreter does not have: {', '.join(missing)}.",
            "Run them with the project's own environment, e.g. --test-cmd '.venv/bin/python -m pytest'.",
        )
    own = own_package_missing(failing, source) if source is not None else []
    if own:
        raise SandboxError(
            f"The tests cannot import the project's own package {', '.join(own)}: the environment they run with "
            f"({command.environment.describe() if command.environment else 'the sandbox Python'}) does not have it.",
            "Install the project into its environment (e.g. `.venv/bin/python -m pip install -e .`), or set "
            "pytest's pythonpath option (pythonpath = [\"src\"]).",
        )
    if failing:
        return
    if report.collection_error:
        raise SandboxError(f"{what} could not run the tests: {report.collection_error.strip()[-1200:]}")
    bad_exit = run.exit_code not in (0, 5) if command.is_pytest else (not report.cases and not run.ok)
    if bad_exit or not report.complete:
        tail = (run.stderr.strip() or run.stdout.strip())[-1200:]
        raise SandboxError(f"{what} ended abnormally (exit code {run.exit_code}) without naming a failing test. {tail}".strip())


# ---- test ids and paths -----------------------------------------------------------------------


def nodeid_file(nodeid: str) -> str:
    """``tests/test_x.py::TestA::test_b[1]`` -> ``tests/test_x.py``."""
    return nodeid.split("::", 1)[0]


def nodeid_function(nodeid: str) -> str | None:
    """``tests/test_x.py::TestA::test_b[1]`` -> ``TestA.test_b`` (None for a file-level id)."""
    parts = nodeid.split("::")[1:]
    if not parts:
        return None
    parts[-1] = parts[-1].split("[", 1)[0]
    return ".".join(parts)


def is_test_path(path: str) -> bool:
    """Test code by pytest's default patterns alone (``test_*.py``, ``*_test.py``,
    ``conftest.py``, anything under ``tests/``/``test/``/``testing/``); the fix flow uses
    :func:`vibecode.fix.testfiles.test_files`, which knows the project's setting and what pytest
    collected."""
    return path in TestFiles()


def failures(report: TestReport, source: Path | None = None) -> tuple[TestCaseResult, ...]:
    """The failed and errored tests, then (with ``source``) each test file that could not be
    collected, as an "error" case whose node id is the file's path."""
    found = [c for c in report.cases if c.outcome in ("failed", "error")]
    if source is not None:
        found += collection_failures(report, source)
    return tuple(found)


def collection_failures(report: TestReport, source: Path) -> list[TestCaseResult]:
    """Test files named in the report's collection errors (existing files only)."""
    text = report.collection_error or ""
    heads = [(m.start(), _existing(m.group("name"), source)) for m in _COLLECT_HEAD.finditer(text)]
    heads = [(at, path) for at, path in heads if path is not None]
    out: dict[str, TestCaseResult] = {}
    for n, (at, path) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(text)
        assert path is not None
        out.setdefault(path, TestCaseResult(path, "error", 0.0, text[at:end].strip()))
    return list(out.values())


_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


def missing_packages(failing: Sequence[TestCaseResult], source: Path) -> list[str]:
    """When every failure is an import of a top-level module that is not in the repository, those
    modules (sorted); else []."""
    tops = _unimportable(failing)
    if any((source / t).exists() or (source / f"{t}.py").exists() or (source / "src" / t).exists() for t in tops):
        return []
    return tops


def own_package_missing(failing: Sequence[TestCaseResult], source: Path) -> list[str]:
    """When every failure is an import of a top-level package that lives in the repository's
    ``src/`` folder (so the project is not installed), those packages (sorted); else []."""
    tops = _unimportable(failing)
    if not all((source / "src" / t).is_dir() or (source / "src" / f"{t}.py").is_file() for t in tops):
        return []
    return tops


def _unimportable(failing: Sequence[TestCaseResult]) -> list[str]:
    """The top-level modules the failures could not import (sorted), when every failure is such
    an import; else []."""
    names: set[str] = set()
    for case in failing:
        found = _NO_MODULE.findall(case.message)
        if not found:
            return []
        names.add(found[-1].split(".")[0])
    return sorted(names)


def _existing(name: str, source: Path) -> str | None:
    for candidate in (name if name.endswith(".py") else name + ".py", name.replace(".", "/") + ".py"):
        if (source / candidate).is_file():
            return candidate
    return None


def outcomes_for(report: TestReport, selectors: Sequence[str] = ()) -> dict[str, str]:
    """Node id -> outcome for every case, plus an outcome for each file-level selector: "passed"
    when the file was collected and every test in it passed, "error" when it could not be
    collected, "failed" when a test in it failed; absent when it did not run."""
    out: dict[str, str] = {c.nodeid: c.outcome for c in report.cases}
    errors = report.collection_error or ""
    for sel in selectors:
        if "::" in sel or sel in out:
            continue
        module = sel[:-3].replace("/", ".") if sel.endswith(".py") else sel
        if f"{module}: " in errors or f"{sel}: " in errors:
            out[sel] = "error"
            continue
        mine = [c.outcome for c in report.cases if c.nodeid.startswith(sel + "::")]
        if mine:
            ok = all(o in ("passed", "skipped") for o in mine) and "passed" in mine
            out[sel] = "passed" if ok else "failed"
    return out
