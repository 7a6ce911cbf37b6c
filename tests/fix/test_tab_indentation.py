"""Issue 15, item 12: a tab-indented file keeps its tabs, whatever indentation the model wrote.
The text applied, and so the diff shown for a proposal, is the file's own indentation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fix.repos import answer, sr
from tests.fix.test_environment import user_env
from tests.fix.test_fix_cli import vibecode
from tests.repo.gitutil import make_repo
from vibecode.patch.apply import apply_edits
from vibecode.patch.edits import Edit

PARSER = 'def parse(line):\n\tparts = line.split(",")\n\tif len(parts) < 2:\n\t\treturn None\n\treturn parts[0], parts[1]\n'
FIXED = PARSER.replace("\tif len(parts) < 2:", "\tif len(parts) != 2:")


@pytest.mark.parametrize(("search", "replace"), [
    ("    if len(parts) < 2:\n        return None", "    if len(parts) != 2:\n        return None"),  # spaces
    ("\tif len(parts) < 2:\n\t\treturn None", "    if len(parts) != 2:\n        return None"),  # tab SEARCH
    ("\tif len(parts) < 2:\n\t\treturn None", "  if len(parts) != 2:\n    return None"),  # two-space steps
    ("\tif len(parts) < 2:\n        return None", "\tif len(parts) != 2:\n        return None"),  # mixed
], ids=["spaces", "tab-search-space-replace", "two-space", "mixed"])
def test_the_replacement_gets_the_files_tabs(search: str, replace: str) -> None:
    done = apply_edits([Edit(path="p.py", kind="replace", search=search, text=replace)], files={"p.py": PARSER})
    assert done.patch.changes[0].new == FIXED


def test_spaces_inside_a_tab_file_that_are_the_files_own_stay() -> None:
    text = 'def f():\n\t"""Doc\n    continued."""\n\treturn 1\n'
    done = apply_edits([Edit(path="f.py", kind="replace", search='\t"""Doc\n    continued."""\n\treturn 1',
                             text='\t"""Doc\n    continued."""\n    return 2')], files={"f.py": text})
    assert done.patch.changes[0].new == 'def f():\n\t"""Doc\n    continued."""\n\treturn 2\n'


def test_fix_shows_and_proposes_the_tab_indented_text(tmp_path: Path) -> None:
    tests = "from parser import parse\n\n\ndef test_three():\n\tassert parse('a,b,c') is None\n"
    root = make_repo(tmp_path / "proj", {"parser.py": PARSER.encode(), "test_parser.py": tests.encode()})
    pool = tmp_path / "pool.jsonl"
    spaces = answer("Exactly two parts.", sr("parser.py", "    if len(parts) < 2:\n        return None",
                                             "    if len(parts) != 2:\n        return None"))
    mixed = answer("Two parts only.", sr("parser.py", "\tif len(parts) < 2:\n\t\treturn None",
                                         "    if len(parts) != 2:\n        return None"))
    pool.write_text(json.dumps(spaces) + "\n" + json.dumps(mixed) + "\n")
    done = vibecode("fix", "--engine", f"replay:{pool}", "--n", "2", "--json", cwd=root, env=user_env())
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout)
    assert data["status"] == "verified", data["reason"]
    assert "+\tif len(parts) != 2:" in data["best"]["diff"] and "+    " not in data["best"]["diff"]
    first, second = data["candidates"]
    assert second["duplicate_of"] == first["index"]  # the same patch: both in the file's tabs
    assert (root / "parser.py").read_text() == PARSER
