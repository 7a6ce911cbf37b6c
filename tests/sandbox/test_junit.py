"""Parsing the reports of a sandboxed pytest run: untrusted input, no invented passes."""

from __future__ import annotations

from vibecode.sandbox.junit import cases_from_events, parse_events, parse_junit
from vibecode.sandbox.pytest_run import build_report
from vibecode.types import RunResult


def _run(exit_code: int | None = 0, timed_out: bool = False) -> RunResult:
    return RunResult(exit_code, None, timed_out, False, "", "", 0, 0, 0.1, None, "local")


XML = b"""<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="3">
<testcase classname="tests.test_a.TestK" name="test_m[1]" file="tests/test_a.py" line="3" time="0.5"/>
<testcase classname="tests.test_a" name="test_f" file="tests/test_a.py" time="0.25">
  <failure message="assert 1 == 2">long traceback</failure></testcase>
<testcase classname="pkg.test_b" name="test_p" time="x"><properties>
  <property name="vibecode_nodeid" value="pkg/test_b.py::test_p"/></properties></testcase>
</testsuite></testsuites>"""


def test_junit_nodeids_outcomes_and_messages() -> None:
    report = parse_junit(XML)
    assert report is not None
    assert [(c.nodeid, c.outcome, c.duration_s) for c in report.cases] == [
        ("tests/test_a.py::TestK::test_m[1]", "passed", 0.5),
        ("tests/test_a.py::test_f", "failed", 0.25),
        ("pkg/test_b.py::test_p", "passed", 0.0),
    ]
    assert report.cases[1].message == "assert 1 == 2\nlong traceback"


def test_junit_refuses_what_pytest_never_writes() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><testsuites>&a;</testsuites>'
    assert parse_junit(bomb) is None
    assert parse_junit(b"") is None
    assert parse_junit(None) is None
    assert parse_junit(XML[: len(XML) // 2]) is None
    assert parse_junit(b"<html><testcase name='x'/></html>") is None


def test_event_log_survives_torn_and_foreign_lines() -> None:
    data = b"\n".join(
        [
            b'{"event": "start"}',
            b'{"event": "begin", "nodeid": "t.py::a"}',
            b'{"event": "report", "nodeid": "t.py::a", "when": "setup", "outcome": "passed", "duration": 0.1}',
            b"\xff\xfe not json",
            b'{"event": "report", "nodeid": "t.py::a", "when": "call", "outcome": "passed", "duration": 0.2}',
            b'{"event": "report", "nodeid": "t.py::a", "when": "teardown", "outcome": "passed", "duration": 0.0}',
            b'{"event": "begin", "nodeid": "t.py::b"}',
            b'{"event": "report", "nodeid": "t.py::b", "when": "setup", "outcome": "passed"',
        ]
    )
    log = parse_events(data)
    assert log is not None and log.started and not log.finished
    cases = cases_from_events(log, "the process was killed by signal 9")
    assert [(c.nodeid, c.outcome) for c in cases] == [("t.py::a", "passed"), ("t.py::b", "error")]
    assert "killed by signal 9" in cases[1].message and abs(cases[0].duration_s - 0.3) < 1e-9


def test_report_trust_rules() -> None:
    finished = b'{"event": "start"}\n{"event": "finish", "exitstatus": 0}\n'
    # The XML is trusted once the session finished, or without any log if pytest exited normally.
    assert build_report(_run(1), XML, finished).complete
    assert build_report(_run(0), XML, None).complete
    # Not when the session did not finish, the process died, or the run timed out.
    unfinished = build_report(_run(0), XML, b'{"event": "start"}\n')
    assert not unfinished.complete and unfinished.passed == ()
    assert not build_report(_run(None), XML, None).complete
    assert not build_report(_run(1, timed_out=True), XML, finished).complete
    nothing = build_report(_run(0), None, None)
    assert nothing.cases == () and not nothing.complete
