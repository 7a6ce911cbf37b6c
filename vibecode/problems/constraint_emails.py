"""Email addresses as a statement's constraint lines describe them, for
:mod:`vibecode.problems.constraints`. Read from examined lines (unique_email_addresses):

- "Each emails[i] contains exactly one '@' character." -> a check, and the ``made`` rule
  ``email``: each drawn string is rebuilt as ``local@domain`` from its own characters (blind
  draws over ``+.@a-z`` almost never hold exactly one ``@`` between two non-empty names);
- once that is read, the lines on the two names: "All local and domain names are non-empty.",
  "Local names do not start with a '+' character.", "Domain names end with the ".com" suffix.",
  "Domain names must contain at least one character before ".com" suffix." -> checks; the
  suffix is also given to the ``made`` rule (``Check.made = (argument, "email", suffix)``).

A check that cannot read an input (not a string, no ``@``) says None.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from vibecode.problems.constraint_paths import every_string, string_items
from vibecode.problems.constraint_types import Check, Constraints

_ONE_AT = re.compile(r"(?:each |every )?(\w+)(?:\[i\])? contains? exactly one '@'(?: character| sign)?", re.I)
_SUFFIX = re.compile(r'domain names? (?:must )?ends? with (?:the )?"([.\w]+)" suffix', re.I)
_BEFORE = re.compile(r'domain names? (?:must )?contains? at least one character before (?:the )?"([.\w]+)" suffix', re.I)


def _each_address(name: str, fn: Callable[[str, str], bool]) -> Callable[[dict[str, object]], bool | None]:
    """A test of every address of ``name`` by its (local, domain) names; None where one has no '@'."""

    def test(args: dict[str, object]) -> bool | None:
        items = string_items(args.get(name))
        if items is None or any("@" not in s for s in items):
            return None
        return all(fn(*s.split("@", 1)) for s in items)

    return test


def _email_rule(c: Constraints) -> int | None:
    """The index in ``c.checks`` of the check that reads "exactly one '@'", if any."""
    return next((k for k, ch in enumerate(c.checks) if ch.made and ch.made[1] == "email"), None)


def read_email(line: str, params: dict[str, str], c: Constraints) -> bool:
    """Read one of the email lines (see the module) into ``c``; False for any other line."""
    text = line.strip().rstrip(".").strip()
    m = _ONE_AT.fullmatch(text)
    if m and params.get(m.group(1)) in ("str", "list"):
        c.checks.append(Check(line, "exactly one '@'", every_string(m.group(1), lambda s: s.count("@") == 1), made=(m.group(1), "email", "")))
        return True
    at = _email_rule(c)
    if at is None:
        return False
    made = c.checks[at].made
    name = made[0] if made else ""
    low = text.lower()
    if re.fullmatch(r"all (?:the )?local and domain names are non-?empty", low):
        c.checks.append(Check(line, "email names non-empty", _each_address(name, lambda a, b: bool(a) and bool(b))))
        return True
    if re.fullmatch(r"local names? (?:do|does) not start with (?:a |the )?'\+'(?: character| sign)?", low):
        c.checks.append(Check(line, "local name starts with no '+'", _each_address(name, lambda a, _: not a.startswith("+"))))
        return True
    m = _SUFFIX.fullmatch(text) or _BEFORE.fullmatch(text)
    if m:
        suffix, before = m.group(1), m.re is _BEFORE
        c.checks.append(Check(line, "domain suffix", _each_address(
            name, lambda _, d: d.endswith(suffix) and (not before or len(d) > len(suffix)))))
        c.checks[at] = dataclasses.replace(c.checks[at], made=(name, "email", suffix))
        return True
    return False
