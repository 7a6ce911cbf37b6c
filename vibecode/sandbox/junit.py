"""Reading what a sandboxed pytest run reported: its JUnit XML and vibecode's event log.

Both files were written inside the sandbox, by code that ran next to the candidate's, so both are
read as untrusted input: size-capped, no DTDs or entities, malformed parts ignored. Nothing here
ever turns missing information into a pass.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from vibecode.types import TestCaseResult, TestOutcome

MAX_REPORT_BYTES = 64 << 20
MAX_MESSAGE_CHARS = 20_000
NODEID_PROPERTY = "vibecode_nodeid"


@dataclass
class JUnitReport:
    cases: list[TestCaseResult] = field(default_factory=list)
    collection_errors: list[str] = field(default_factory=list)


def parse_junit(data: bytes | None) -> JUnitReport | None:
    """The test cases of a pytest JUnit XML report; None when it is missing or not valid."""
    if not data or len(data) > MAX_REPORT_BYTES:
        return None
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return None  # pytest never writes them; refuse entity expansion
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, ValueError):
        return None
    if root.tag not in ("testsuites", "testsuite"):
        return None
    report = JUnitReport()
    for case in root.iter("testcase"):
        name = case.get("name", "")
        error = case.find("error")
        if error is not None and error.get("message", "") == "collection failure":
            report.collection_errors.append(f"{name}: {_message(error)}".strip())
            continue
        report.cases.append(
            TestCaseResult(
                nodeid=_nodeid(case),
                outcome=_outcome(case),
                duration_s=_float(case.get("time")),
                message=_case_message(case),
            )
        )
    return report


def _outcome(case: ET.Element) -> TestOutcome:
    if case.find("failure") is not None:
        return "failed"
    if case.find("error") is not None:
        return "error"
    if case.find("skipped") is not None:
        return "skipped"
    return "passed"


def _case_message(case: ET.Element) -> str:
    parts = [_message(el) for tag in ("failure", "error", "skipped") for el in case.findall(tag)]
    return "\n".join(p for p in parts if p)[-MAX_MESSAGE_CHARS:]


def _message(el: ET.Element) -> str:
    head = el.get("message", "") or ""
    body = (el.text or "").strip()
    text = head if not body or body == head else f"{head}\n{body}" if head else body
    return text[-MAX_MESSAGE_CHARS:]


def _nodeid(case: ET.Element) -> str:
    for prop in case.iter("property"):
        if prop.get("name") == NODEID_PROPERTY and prop.get("value"):
            return str(prop.get("value"))
    name = case.get("name", "")
    classname = case.get("classname", "")
    file = case.get("file")
    if file:
        module = file[:-3] if file.endswith(".py") else file
        module = module.replace("/", ".").replace("\\", ".")
        classes = (
            classname[len(module) + 1 :].split(".") if classname.startswith(module + ".") else []
        )
        return "::".join([file, *[c for c in classes if c], name])
    if classname:
        return f"{classname.replace('.', '/')}.py::{name}"
    return name


def _float(text: str | None) -> float:
    try:
        value = float(text or 0.0)
    except ValueError:
        return 0.0
    return value if value >= 0 else 0.0


# ----------------------------------------------------------------------------- event log


@dataclass
class _TestEvents:
    reports: dict[str, dict[str, object]] = field(default_factory=dict)  # when -> report


@dataclass
class EventLog:
    started: bool = False
    finished: bool = False
    exitstatus: int | None = None
    collection_errors: list[str] = field(default_factory=list)
    order: list[str] = field(default_factory=list)
    tests: dict[str, _TestEvents] = field(default_factory=dict)

    def _test(self, nodeid: str) -> _TestEvents:
        if nodeid not in self.tests:
            self.tests[nodeid] = _TestEvents()
            self.order.append(nodeid)
        return self.tests[nodeid]


def parse_events(data: bytes | None) -> EventLog | None:
    """The event log written by vibecode's pytest plugin; None when there is none."""
    if data is None:
        return None
    log = EventLog()
    for line in data[:MAX_REPORT_BYTES].splitlines():
        try:
            event = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            continue  # a torn or foreign line
        if not isinstance(event, dict):
            continue
        kind = event.get("event")
        nodeid = event.get("nodeid")
        if kind == "start":
            log.started = True
        elif kind == "finish":
            log.finished = True
            status = event.get("exitstatus")
            log.exitstatus = status if isinstance(status, int) else None
        elif kind == "collect_error":
            log.collection_errors.append(f"{nodeid}: {event.get('message', '')}".strip())
        elif kind == "begin" and isinstance(nodeid, str):
            log._test(nodeid)
        elif (
            kind == "report"
            and isinstance(nodeid, str)
            and event.get("when")
            in (
                "setup",
                "call",
                "teardown",
            )
        ):
            log._test(nodeid).reports[str(event["when"])] = event
    return log


def cases_from_events(log: EventLog, ended_because: str) -> list[TestCaseResult]:
    """Per-test outcomes from the event log; a test that never finished is an error."""
    cases = []
    for nodeid in log.order:
        reports = log.tests[nodeid].reports
        duration = sum(_float(str(r.get("duration", 0.0))) for r in reports.values())
        outcome, message = _outcome_from_reports(reports, ended_because)
        cases.append(TestCaseResult(nodeid, outcome, round(duration, 6), message))
    return cases


def _outcome_from_reports(
    reports: dict[str, dict[str, object]], ended_because: str
) -> tuple[TestOutcome, str]:
    def msg(when: str) -> str:
        return str(reports[when].get("message", ""))[-MAX_MESSAGE_CHARS:]

    for when in ("setup", "teardown"):
        if when in reports and reports[when].get("outcome") == "failed":
            return "error", msg(when)
    if "call" in reports and reports["call"].get("outcome") == "failed":
        return "failed", msg("call")
    for when in ("setup", "call"):
        if when in reports and reports[when].get("outcome") == "skipped":
            return "skipped", msg(when)
    done = reports.get("teardown", {}).get("outcome") == "passed"
    if reports.get("call", {}).get("outcome") == "passed" and done:
        return "passed", ""
    stage = "teardown" if "call" in reports else "call" if "setup" in reports else "setup"
    return "error", f"The test process ended during this test's {stage}: {ended_because}."
