"""The fix pipeline end to end: real git repositories with one real bug each, replay pools, the
real local sandbox. Ranking, status, saved proposals, and the user's files left untouched."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.fix.repos import (
    GARBAGE,
    MISSING_NONE,
    NAIVE_BREAKS,
    OFF_BY_ONE,
    REPOS,
    WRONG_COMPARISON,
    BuggyRepo,
    answer,
    sr,
    state,
)
from tests.repo.gitutil import git
from vibecode.config import Settings
from vibecode.engine.deferred import DeferredEngine
from vibecode.engine.replay import ReplayEngine
from vibecode.errors import ModelNotFound
from vibecode.events import (
    BaselineTested,
    ContextBuilt,
    Event,
    FixReady,
    PatchParsed,
    PatchVerified,
    StepUnavailable,
)
from vibecode.fix.suite import SuiteCommand
from vibecode.repo.proposals import list_proposals, load_proposal
from vibecode.sandbox import Sandbox
from vibecode.session import Session
from vibecode.types import FixResult

FAST = SuiteCommand(autoload_plugins=False)


@dataclass
class Run:
    result: FixResult
    events: list[Event]
    root: Path
    retry_prompts: list[list[str]] = field(default_factory=list)


class WatchingReplay(ReplayEngine):
    """The replay engine, keeping the conversations sent with the retry purpose."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.retry_prompts: list[list[str]] = []

    def stream(self, messages, params, n=1, *, purpose="candidate", cancel=None):  # type: ignore[no-untyped-def]
        if purpose == "retry":
            self.retry_prompts.append([m.content for m in messages])
        return super().stream(messages, params, n, purpose=purpose, cancel=cancel)


def run_fix(repo: BuggyRepo, folder: Path, sandbox: Sandbox, pool: list[dict[str, str]] | None = None,
            **kwargs: object) -> Run:
    root = repo.build(folder / repo.name)
    lines = pool if pool is not None else repo.pool
    engine = WatchingReplay(dataclasses.replace(repo, pool=lines).write_pool(folder / f"{repo.name}.jsonl"))
    before = state(root)
    session = Session(engine, sandbox, Settings())
    events = list(session.fix(root, command=FAST, n=len(lines), **kwargs))  # type: ignore[arg-type]
    assert state(root) == before, "the fix run changed the working tree or the index"
    assert isinstance(events[-1], FixReady)
    return Run(events[-1].result, events, root, engine.retry_prompts)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, sandbox: Sandbox) -> Callable[[BuggyRepo], Run]:
    """Each repository's whole pool, fixed once per module."""
    done: dict[str, Run] = {}

    def get(repo: BuggyRepo) -> Run:
        if repo.name not in done:
            done[repo.name] = run_fix(repo, tmp_path_factory.mktemp(repo.name), sandbox)
        return done[repo.name]

    return get


def _pytest_passes(folder: Path) -> bool:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=folder,
                          capture_output=True, text=True, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PATH": "/usr/bin:/bin"})
    return done.returncode == 0


@pytest.mark.parametrize("repo", REPOS, ids=[r.name for r in REPOS])
def test_ranking_status_and_saved_proposals(repo: BuggyRepo, tmp_path: Path, runs: Callable[[BuggyRepo], Run]) -> None:
    done = runs(repo)
    result, events, root = done.result, done.events, done.root
    assert result.status == "verified", result.reason
    assert {c.nodeid for c in result.failing} == set(repo.failing)
    by = {c.index: c for c in result.candidates}
    best = result.best_candidate
    assert best is not None and best.index in repo.correct
    assert best.fixes_all and not best.regressions and not best.test_edit
    assert best.rank == 0 and result.ranking[0] == best.index
    assert 0 < result.reliability <= 1
    # Every correct fix fixes everything and breaks nothing; it shares the best one's cluster.
    for i in repo.correct:
        assert by[i].fixes_all and not by[i].regressions, i
        assert by[i].cluster == 0, i
    # Fixes that break another test are ranked below every correct distinct patch.
    position = {index: n for n, index in enumerate(result.ranking)}
    correct_places = [position[i] for i in repo.correct if i in position]
    for i in repo.breaks:
        c = by[i]
        assert c.regressions, i
        assert c.cluster != 0
        if i in position:
            assert position[i] > max(correct_places)
    # A patch that edits the tests is flagged and ranked last, never proposed.
    for i in repo.test_edits:
        assert by[i].test_edit
        assert position[i] > max(position[j] for j in position if not by[j].test_edit)
    for i in repo.dropped:
        assert not by[i].parsed and by[i].error
    # Proposals: one per distinct patch, best first, with the diff and the evidence.
    saved = list_proposals(root)
    assert len(saved) == len(result.ranking)
    assert {c.proposal_id for c in result.candidates if c.index in result.ranking} == set(saved)
    proposal = load_proposal(root, best.proposal_id or "")
    assert proposal.id.endswith("-1")
    assert proposal.reliability == pytest.approx(result.reliability)
    assert proposal.evidence["best"] is True and proposal.evidence["status"] == "verified"
    assert proposal.evidence["fixed"] == len(repo.failing) and proposal.evidence["regressions"] == []
    assert sorted(proposal.evidence["failing"]) == sorted(repo.failing)
    assert proposal.base["kind"] == "worktree" and proposal.base["commit"] == git(root, "rev-parse", "HEAD").strip()
    assert (proposal.folder / "patch.diff").read_text() == best.diff
    # The saved patch really fixes the repository (applied to a copy of it).
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(root), str(copy)], check=True)
    assert not _pytest_passes(copy)
    subprocess.run(["git", "apply", str(proposal.folder / "patch.diff")], cwd=copy, check=True)
    assert _pytest_passes(copy)
    # The events tell the story in order.
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("BaselineTested") < kinds.index("ContextBuilt") < kinds.index("PatchParsed") < kinds.index("PatchVerified")
    tested = next(e for e in events if isinstance(e, BaselineTested))
    assert set(tested.failing) == set(repo.failing)
    assert len(tested.messages) == len(tested.failing) and all("Error" in m or "assert" in m for m in tested.messages)


def test_duplicates_retries_and_unapplied_edits(runs: Callable[[BuggyRepo], Run]) -> None:
    result, events = runs(OFF_BY_ONE).result, runs(OFF_BY_ONE).events
    by = {c.index: c for c in result.candidates}
    # Same patch after normalization (formatting and a comment): verified once, counted twice.
    assert by[2].duplicate_of == 0 and by[2].proposal_id == by[0].proposal_id
    assert by[1].duplicate_of is None  # written differently: a patch of its own, same behaviour
    # The edit that did not apply got one retry prompt (quoting the closest lines), which fixed it.
    assert by[4].retried and by[4].parsed and by[4].duplicate_of == 0
    # The deleted tests do not count as fixed: a missing test is not a pass.
    assert by[5].fixed == 0 and by[5].test_edit
    # The patch that rewrote the failing assertions "passes", but edits tests: after every other.
    assert by[6].fixes_all and by[6].test_edit
    assert (by[6].cluster or 0) > max(c.cluster or 0 for c in result.candidates if c.parsed and not c.test_edit)
    verified = {e.index for e in events if isinstance(e, PatchVerified)}
    assert verified == {0, 1, 3, 5, 6}  # each distinct patch once
    parsed = [e for e in events if isinstance(e, PatchParsed)]
    assert [e.index for e in parsed] == list(range(8))


def test_an_edit_that_does_not_apply_without_a_retry_is_dropped_and_reported(runs: Callable[[BuggyRepo], Run]) -> None:
    result, events = runs(WRONG_COMPARISON).result, runs(WRONG_COMPARISON).events
    dropped = next(c for c in result.candidates if c.index == 4)
    assert not dropped.parsed and not dropped.retried
    assert "does not match" in (dropped.error or "") and "return level < threshold" in (dropped.error or "")
    assert any(isinstance(e, StepUnavailable) and e.step == "retry" for e in events)
    assert any("retry" in n for n in result.notes)


def test_the_retry_prompt_quotes_the_closest_lines(runs: Callable[[BuggyRepo], Run]) -> None:
    """The retry conversation: the prompt, the answer whose edit failed, the error quoting the file."""
    prompts = runs(OFF_BY_ONE).retry_prompts
    assert len(prompts) == 1
    prompt, failed, retry = prompts[0]
    assert "SEARCH/REPLACE" in prompt and "begin = number * size" in failed
    assert "closest lines are 6-7" in retry and "6 |     start = number * size" in retry


def test_with_nothing_similar_the_retry_shows_the_file(tmp_path: Path) -> None:
    from vibecode.fix.extract import attempt, current_files

    root = OFF_BY_ONE.build(tmp_path / "repo")
    text = sr("textkit/paging.py", "    offset = (page_no) * per_page", "    offset = (page_no - 1) * per_page")
    first = attempt(text, root)
    assert first.retryable and "No similar lines" in (first.error or "")
    shown = current_files(text, root, first.error or "")
    assert "The current content of textkit/paging.py" in shown and "start = number * size" in shown


def test_naive_majority_loses_to_the_fix_that_breaks_nothing(runs: Callable[[BuggyRepo], Run]) -> None:
    result = runs(NAIVE_BREAKS).result
    by = {c.index: c for c in result.candidates}
    naive = [by[i] for i in (0, 1, 2)]
    assert all(c.regressions == ("tests/test_stats.py::test_median_odd",) for c in naive)
    assert by[4].regressions == ("tests/test_stats.py::test_median_keeps_input",)
    assert result.best == 3 and result.status == "verified"
    assert len({c.cluster for c in naive}) == 1 and by[3].cluster == 0
    # Claims are checked as in solve: arithmetic by sympy, the complexity claim by a model verdict.
    methods = {(c.method, c.verdict) for c in by[3].claims}
    assert ("sympy", "verified") in methods and ("model", "verified") in methods
    assert by[3].r == 1.0


def test_test_edits_compete_when_allowed(tmp_path: Path, sandbox: Sandbox) -> None:
    pool = [OFF_BY_ONE.pool[i] for i in (0, 2, 3, 6)]
    result = run_fix(OFF_BY_ONE, tmp_path, sandbox, pool=pool, allow_test_edits=True).result
    order = list(result.ranking)
    assert order == [0, 3, 2]  # the test edit that passes now beats the fix with a regression
    assert result.best == 0  # the larger correct cluster still wins
    assert result.status == "verified"


def test_only_test_edits_fix_it_so_the_status_is_failed(tmp_path: Path, sandbox: Sandbox) -> None:
    pool = [OFF_BY_ONE.pool[6], OFF_BY_ONE.pool[5], GARBAGE]
    done = run_fix(OFF_BY_ONE, tmp_path, sandbox, pool=pool)
    result, root = done.result, done.root
    assert result.status == "failed" and result.reliability == 0.0
    assert "edit the tests" in result.reason
    best = result.best_candidate
    assert best is not None and best.test_edit
    proposal = load_proposal(root, best.proposal_id or "")
    assert proposal.evidence["test_edit"] is True and proposal.reliability == 0.0


def test_breaking_fixes_only_is_failed(tmp_path: Path, sandbox: Sandbox) -> None:
    pool = [NAIVE_BREAKS.pool[0], NAIVE_BREAKS.pool[4]]
    result = run_fix(NAIVE_BREAKS, tmp_path, sandbox, pool=pool).result
    assert result.status == "failed" and "breaks" in result.reason
    assert result.reliability == 0.0


def test_nothing_fails_needs_no_model(tmp_path: Path, sandbox: Sandbox) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")
    (root / "textkit" / "paging.py").write_text(
        (root / "textkit" / "paging.py").read_text().replace("start = number * size", "start = (number - 1) * size"))
    git(root, "commit", "-qam", "fixed")

    def no_model() -> object:
        raise ModelNotFound("no model here")

    session = Session(DeferredEngine(no_model), sandbox, Settings())  # type: ignore[arg-type]
    events = list(session.fix(root, command=FAST))
    result = events[-1].result  # type: ignore[union-attr]
    assert result.status == "passing" and result.passed_before == 4
    assert not session.engine.is_open  # type: ignore[attr-defined]
    assert list_proposals(root) == []


def test_the_model_failing_to_open_is_an_error_when_tests_fail(tmp_path: Path, sandbox: Sandbox) -> None:
    root = OFF_BY_ONE.build(tmp_path / "repo")

    def no_model() -> object:
        raise ModelNotFound("no model here", "Pull one with `vibecode models pull`.")

    session = Session(DeferredEngine(no_model), sandbox, Settings())  # type: ignore[arg-type]
    with pytest.raises(ModelNotFound):
        list(session.fix(root, command=FAST))


def test_uncommitted_work_is_fixed_as_it_is_and_left_alone(tmp_path: Path, sandbox: Sandbox) -> None:
    """The fix runs on the working tree as it is: staged, unstaged and untracked changes."""
    root = WRONG_COMPARISON.build(tmp_path / "repo")
    stock = root / "inventory" / "stock.py"
    stock.write_text(stock.read_text() + "\n\ndef restock_all(levels):\n    return sorted(levels)\n")
    git(root, "add", "inventory/stock.py")
    (root / "notes.txt").write_text("untracked notes\n")
    tests = root / "tests" / "test_stock.py"
    tests.write_text(tests.read_text() + "\n\ndef test_restock_all():\n    from inventory.stock import restock_all\n"
                     "    assert restock_all({'b': 1, 'a': 2}) == ['a', 'b']\n")
    before = state(root)
    pool = tmp_path / "pool.jsonl"
    dataclasses.replace(WRONG_COMPARISON, pool=WRONG_COMPARISON.pool[:1]).write_pool(pool)
    events = list(Session(ReplayEngine(pool), sandbox, Settings()).fix(root, command=FAST, n=1))
    result = events[-1].result  # type: ignore[union-attr]
    assert state(root) == before
    assert result.status == "verified" and result.passed_before == 3  # the unstaged new test ran too
    best = result.best_candidate
    assert best is not None and best.patch is not None
    change = best.patch.changes[0]
    assert change.old == stock.read_text()  # made against the file as it is now, staged edit included


def test_a_module_that_does_not_import(tmp_path: Path, sandbox: Sandbox) -> None:
    """A bug that breaks collection: the test file is the failing "test", and the fix is checked."""
    broken = BuggyRepo(
        "import_error",
        {"calc/__init__.py": "", "calc/ops.py": "SCALE = undefined_scale\n\n\ndef scaled(x):\n    return x * SCALE\n",
         "tests/test_ops.py": "from calc.ops import scaled\n\n\ndef test_scaled():\n    assert scaled(2) == 20\n",
         "tests/test_other.py": "def test_other():\n    assert True\n"},
        ("tests/test_ops.py",),
        [answer("SCALE should be 10.", sr("calc/ops.py", "SCALE = undefined_scale", "SCALE = 10")),
         answer("Make it 1.", sr("calc/ops.py", "SCALE = undefined_scale", "SCALE = 1"))],
        correct=frozenset({0}),
    )
    done = run_fix(broken, tmp_path, sandbox)
    result, events = done.result, done.events
    assert [c.nodeid for c in result.failing] == ["tests/test_ops.py"]
    assert result.passed_before == 1  # the other file still ran
    assert result.status == "verified" and result.best == 0
    by = {c.index: c for c in result.candidates}
    assert by[1].fixed == 0  # imports now, but its test fails
    context = next(e for e in events if isinstance(e, ContextBuilt))
    assert any(s.startswith("calc/ops.py") for s in context.suspects)


def test_missing_none_check_is_localized_by_the_traceback(runs: Callable[[BuggyRepo], Run]) -> None:
    result, events = runs(MISSING_NONE).result, runs(MISSING_NONE).events
    context = next(e for e in events if isinstance(e, ContextBuilt))
    assert context.suspects[0].startswith("profiles/show.py:4-7 (display_name)")
    assert context.tokens <= context.budget
    by = {c.index: c for c in result.candidates}
    assert "not valid Python" in (by[4].error or "")
    assert set(by[2].regressions) == {"tests/test_show.py::test_plain_name", "tests/test_show.py::test_greeting"}
    assert by[3].test_edit and by[3].fixed == 0  # skipped tests are not fixed


def test_json_shape_matches_solve(runs: Callable[[BuggyRepo], Run]) -> None:
    from vibecode.fix.report import fix_json
    from vibecode.session import event_json

    result, events = runs(NAIVE_BREAKS).result, runs(NAIVE_BREAKS).events
    data = fix_json(result)
    assert data["status"] == "verified"
    assert {"index", "diff", "reliability", "fixed", "regressions"} <= set(data["best"])
    assert data["best"]["index"] == 3 and data["best"]["fixed"] == 1 and data["best"]["regressions"] == 0
    assert len(data["candidates"]) == 6
    assert data["candidates"][0]["regressions"] == 1 and data["candidates"][0]["regressed"] == ["tests/test_stats.py::test_median_odd"]
    ready = event_json(events[-1])
    assert ready["event"] == "FixReady" and ready["result"]["best"]["index"] == 3
