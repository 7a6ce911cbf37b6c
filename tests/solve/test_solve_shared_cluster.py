"""Issue 14 item 1: a wrong candidate that agrees with a correct one on every input run so far
shares its behaviour cluster, and which member is shown depended on the candidate order. The
proposal's cluster is now searched too when it holds different programs: the two are told apart
by further inputs, so the wrong one is never the verified proposal, in either order."""

from __future__ import annotations

import json
from pathlib import Path

from tests.solve.oracle_pools import CORRECT, problem
from tests.solve.pools import candidate, write_pool
from vibecode.clr.inputs import generate_inputs
from vibecode.config import Settings
from vibecode.engine.replay import ReplayEngine
from vibecode.events import ProposalReady
from vibecode.sandbox import make_sandbox
from vibecode.session import Session
from vibecode.types import SolveResult


def _lurking() -> str:
    """Right on the examples and on every input the first round generates, off by one elsewhere:
    nothing the first round runs can tell it from CORRECT."""
    p = problem()
    known = [e.inputs["s"] for e in p.examples] + [x["s"] for x in generate_inputs(p).inputs]
    return CORRECT.replace(
        "        return best\n",
        f"        return best if s in {json.dumps(sorted(set(known)))} else best + 1\n",
    )


def _solve(tmp_path: Path, codes: list[str], name: str) -> SolveResult:
    lines = [candidate("Track the last index of each character.", code) for code in codes]
    engine = ReplayEngine(write_pool(tmp_path / f"{name}.jsonl", lines))
    session = Session(engine, make_sandbox("local", Settings()), Settings())  # type: ignore[arg-type]
    events = list(session.solve(problem(), n=len(lines)))
    assert isinstance(events[-1], ProposalReady)
    return events[-1].result


def test_a_wrong_member_of_the_proposals_cluster_is_told_apart_in_either_order(tmp_path: Path) -> None:
    lurking = _lurking()
    for name, order in (("right_first", [CORRECT, lurking]), ("wrong_first", [lurking, CORRECT])):
        result = _solve(tmp_path, order, name)
        assert result.status == "plausible", result.decision.reason  # contested, never verified
        assert "Differential search:" in result.decision.reason
        assert "programs that had agreed on every earlier input" in result.decision.reason
        clusters = {r.cluster for r in result.candidates}
        assert len(clusters) == 2  # the search split the cluster the first round made
