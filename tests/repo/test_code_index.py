"""The tree-sitter code index on small real repositories."""

from __future__ import annotations

import json
from pathlib import Path

from tests.repo.gitutil import make_repo
from vibecode.repo.code_index import CodeIndex, approx_tokens
from vibecode.syntax.treesitter import available_languages

SHAPES = b'''"""Shapes."""
import math

UNIT = 1.0


class Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        def fmt(value):
            return f"{value:.2f}"
        return fmt(self.area())


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


def total_area(shapes):
    return sum(s.area() for s in shapes)
'''
REPORT = b'''from shapes import Circle, total_area


def report(radii):
    circles = [Circle(r) for r in radii]
    return total_area(circles)
'''
MAIN = b'''from report import report

if __name__ == "__main__":
    print(report([1, 2, 3]))
'''
WEB = b'''export class Widget {
  render() { return draw(this); }
}
function draw(w) { return "<div/>"; }
const helper = () => draw(null);
'''
GO = b'''package main

type Store struct{}

func (s *Store) Get(k string) string { return lookup(k) }

func lookup(k string) string { return k }
'''
RUST = b'''struct Cache;

impl Cache {
    fn get(&self) -> u32 { compute() }
}

fn compute() -> u32 { 1 }
'''
TS = b'''interface Named { name: string }
export class Person implements Named {
  name = "x";
  greet(): string { return hello(this.name); }
}
function hello(n: string): string { return n; }
'''


def _repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "proj", {
        "shapes.py": SHAPES, "report.py": REPORT, "main.py": MAIN, "web/widget.js": WEB,
        "go/store.go": GO, "rs/cache.rs": RUST, "web/person.ts": TS, "notes.txt": b"not code\n",
    })


def test_definitions_scopes_and_kinds(tmp_path: Path) -> None:
    index = CodeIndex.build(_repo(tmp_path))
    assert set(index.files) == {"shapes.py", "report.py", "main.py", "web/widget.js", "go/store.go", "rs/cache.rs", "web/person.ts"}
    kinds = {d.qualname: d.kind for d in index.definitions_in("shapes.py")}
    assert kinds == {
        "UNIT": "variable", "Shape": "class", "Shape.area": "method", "Shape.describe": "method",
        "Shape.describe.fmt": "function", "Circle": "class", "Circle.__init__": "method",
        "Circle.area": "method", "total_area": "function",
    }
    assert [d.path for d in index.definitions("Circle.area")] == ["shapes.py"]
    assert len(index.definitions("area")) == 2
    circle_area = index.definitions("Circle.area")[0]
    assert (circle_area.line, circle_area.end_line) == (21, 22)
    assert circle_area.signature == "    def area(self):"


def test_which_function_contains_a_line(tmp_path: Path) -> None:
    index = CodeIndex.build(_repo(tmp_path))
    assert index.function_at("shapes.py", 13).qualname == "Shape.describe.fmt"  # type: ignore[union-attr]
    assert index.function_at("shapes.py", 14).qualname == "Shape.describe"  # type: ignore[union-attr]
    assert [d.qualname for d in index.scopes_at("shapes.py", 13)] == ["Shape", "Shape.describe", "Shape.describe.fmt"]
    assert index.enclosing("shapes.py", 17).qualname == "Circle"  # type: ignore[union-attr]
    assert index.function_at("shapes.py", 4) is None


def test_which_files_reference_a_symbol(tmp_path: Path) -> None:
    index = CodeIndex.build(_repo(tmp_path))
    assert index.files_referencing("total_area") == ["report.py"]
    assert index.files_referencing("report") == ["main.py"]
    assert ("report.py", 6) in index.references("total_area")
    assert index.files_referencing("draw") == ["web/widget.js"]


def test_other_languages(tmp_path: Path) -> None:
    assert {"python", "javascript", "typescript", "go", "rust"} <= set(available_languages())
    index = CodeIndex.build(_repo(tmp_path))
    js = {d.qualname: d.kind for d in index.definitions_in("web/widget.js")}
    assert js == {"Widget": "class", "Widget.render": "method", "draw": "function", "helper": "function"}
    go = {d.qualname: d.kind for d in index.definitions_in("go/store.go")}
    assert go == {"Store": "type", "Store.Get": "method", "lookup": "function"}
    rs = {d.qualname: d.kind for d in index.definitions_in("rs/cache.rs")}
    assert rs == {"Cache": "class", "Cache.get": "method", "compute": "function"}
    ts = {d.qualname: d.kind for d in index.definitions_in("web/person.ts")}
    assert ts == {"Named": "interface", "Person": "class", "Person.greet": "method", "hello": "function"}
    assert index.function_at("go/store.go", 5).qualname == "Store.Get"  # type: ignore[union-attr]


def test_repo_map_ranks_what_the_focus_uses_and_fits_budget(tmp_path: Path) -> None:
    index = CodeIndex.build(_repo(tmp_path))
    ranked = [d.qualname for d, _ in index.ranked_definitions(focus=["report.py"])]
    assert ranked[:2] == ["Circle", "total_area"] or ranked[:2] == ["total_area", "Circle"]
    text = index.repo_map(focus=["report.py"], max_tokens=400)
    assert text.startswith("shapes.py:")
    assert "def total_area(shapes):" in text and "report.py:" not in text
    small = index.repo_map(focus=["report.py"], max_tokens=12)
    assert 0 < approx_tokens(small) <= 12
    assert index.repo_map(max_tokens=0) == ""
    mentioned = index.repo_map(focus=["main.py"], mentioned=["compute"], max_tokens=400)
    assert "rs/cache.rs:" in mentioned


def test_cache_is_keyed_by_content(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    cold = CodeIndex.build(root)
    assert cold.stats.parsed == 7 and cold.stats.cached == 0
    cache = root / ".git" / "vibecode" / "index" / "cache.json"
    assert json.loads(cache.read_text())["format"] == 1
    warm = CodeIndex.build(root)
    assert warm.stats.parsed == 0 and warm.stats.cached == 7
    (root / "report.py").write_bytes(REPORT + b"\n\ndef extra():\n    return report([1])\n")
    changed = CodeIndex.build(root)
    assert changed.stats.parsed == 1
    assert [d.name for d in changed.definitions_in("report.py")] == ["report", "extra"]
    assert changed.files_referencing("report") == ["main.py", "report.py"]


def test_outside_git_uses_given_cache_dir(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    (root / "node_modules").mkdir(parents=True)
    (root / "node_modules" / "dep.js").write_bytes(b"function dep() {}\n")
    (root / "a.py").write_bytes(b"def a():\n    return 1\n")
    index = CodeIndex.build(root, cache_dir=tmp_path / "cache")
    assert list(index.files) == ["a.py"]
    assert (tmp_path / "cache" / "cache.json").is_file()
    assert CodeIndex.build(root, cache_dir=tmp_path / "cache").stats.cached == 1
