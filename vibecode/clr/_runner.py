"""Run one candidate solution on many inputs in one process (standalone: copied into a sandbox).

Usage: ``python3 -I _vibecode_runner.py SPEC.json``. The spec names the solution file, the entry
point, how to convert each argument (LeetCode lists -> ListNode/TreeNode), the inputs, the
per-input timeout, the result file and a nonce. The spec file is deleted once read.

Every event is one JSON line, written (and flushed) to the result file and to the original
stdout prefixed with ``@@vibecode <nonce>``; the candidate's own prints go to a capped buffer and
file descriptor 1 is pointed at /dev/null while it runs, so prints cannot corrupt the results.
Events: ``{"event": "loaded"}`` or ``{"event": "load_error", "error": ...}``, then per input
``{"event": "start", "i": i}`` and ``{"event": "result", "i": i, "status": "ok"|"error"|
"timeout", "output": ..., "error": ..., "duration_s": ..., "stdout": ...}``, then
``{"event": "done"}``. When the process dies mid-way the started-but-unfinished input shows who
did it. This file imports nothing from vibecode. The solution runs exactly as written, with no
prelude: vibecode writes the imports it needs into it (``vibecode.problems.solution_file``); the
ListNode/TreeNode classes below only build inputs when the solution defines none of its own.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
import random
import signal
import sys
import time
import traceback
import types
from typing import Any

MAX_OUTPUT_CHARS = 1_000_000
MAX_STDOUT_CHARS = 2000
MAX_NODES = 100_000


class ListNode:
    def __init__(self, val: Any = 0, next: Any = None) -> None:
        self.val = val
        self.next = next

    def __repr__(self) -> str:
        return f"ListNode({self.val})"


class TreeNode:
    def __init__(self, val: Any = 0, left: Any = None, right: Any = None) -> None:
        self.val = val
        self.left = left
        self.right = right

    def __repr__(self) -> str:
        return f"TreeNode({self.val})"


class Iterator:
    """LeetCode's Iterator over a list (PeekingIterator's constructor argument)."""

    def __init__(self, values: Any) -> None:
        self.values, self.at = list(values), 0

    def hasNext(self) -> bool:  # LeetCode's name
        return self.at < len(self.values)

    def next(self) -> Any:
        self.at += 1
        return self.values[self.at - 1]


class NestedInteger:
    """LeetCode's NestedInteger: an integer or a list of NestedIntegers."""

    def __init__(self, value: Any) -> None:
        self.value = [NestedInteger(v) for v in value] if isinstance(value, list) else value

    def isInteger(self) -> bool:  # LeetCode's names
        return not isinstance(self.value, list)

    def getInteger(self) -> Any:
        return None if isinstance(self.value, list) else self.value

    def getList(self) -> Any:
        return self.value if isinstance(self.value, list) else None


class _Timeout(BaseException):
    pass


class _CappedOut(io.TextIOBase):
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def write(self, s: str) -> int:
        if self.size < MAX_STDOUT_CHARS:
            self.parts.append(s[: MAX_STDOUT_CHARS - self.size])
        self.size += len(s)
        return len(s)

    def writable(self) -> bool:
        return True

    def text(self) -> str:
        return "".join(self.parts)


def _on_alarm(signum: int, frame: Any) -> None:
    # Re-arm: candidate code that swallows the exception with a bare except gets it again.
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    raise _Timeout()


def _make(cls: Any, val: Any) -> Any:
    """A node of the candidate's own class when it defines one (any constructor), else ours."""
    try:
        node = cls(val)
    except Exception:
        node = cls.__new__(cls)
    node.val = val
    return node


def to_list_node(values: Any, cls: Any) -> Any:
    if values is None:
        return None
    head = None
    tail = None
    for v in values:
        node = _make(cls, v)
        node.next = None
        if tail is None:
            head = node
        else:
            tail.next = node
        tail = node
    return head


def to_tree(values: Any, cls: Any) -> Any:
    if not values or values[0] is None:
        return None
    root = _make(cls, values[0])
    root.left = root.right = None
    queue = [root]
    i = 1
    q = 0
    while q < len(queue) and i < len(values):
        node = queue[q]
        q += 1
        for side in ("left", "right"):
            if i < len(values):
                if values[i] is not None:
                    child = _make(cls, values[i])
                    child.left = child.right = None
                    setattr(node, side, child)
                    queue.append(child)
                i += 1
    return root


def convert(value: Any, plan: Any, ns: dict[str, Any]) -> Any:
    if plan is None or value is None:
        return value
    if plan == "node":
        cls = ns.get("ListNode")
        return to_list_node(value, cls if isinstance(cls, type) else ListNode)
    if plan == "tree":
        cls = ns.get("TreeNode")
        return to_tree(value, cls if isinstance(cls, type) else TreeNode)
    if plan == "iterator":
        return Iterator(value)
    if plan == "nested":
        return [NestedInteger(v) for v in value]
    if isinstance(plan, list) and plan and plan[0] == "list":
        return [convert(v, plan[1], ns) for v in value]
    return value


def _is_tree(x: Any) -> bool:
    return hasattr(x, "val") and (hasattr(x, "left") or hasattr(x, "right"))


def _is_list_node(x: Any) -> bool:
    return hasattr(x, "val") and hasattr(x, "next") and not callable(getattr(x, "next", None))


def to_jsonable(x: Any, depth: int = 0) -> Any:
    if depth > 200:
        raise ValueError("output nested too deeply")
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v, depth + 1) for v in x]
    if _is_tree(x):
        out: list[Any] = []
        queue, q = [x], 0
        while q < len(queue):
            node = queue[q]
            q += 1
            if node is None:
                out.append(None)
                continue
            out.append(to_jsonable(node.val, depth + 1))
            queue.append(getattr(node, "left", None))
            queue.append(getattr(node, "right", None))
            if len(queue) > MAX_NODES:
                raise ValueError("the returned tree has a cycle or is too large")
        while out and out[-1] is None:
            out.pop()
        return out
    if _is_list_node(x):
        values: list[Any] = []
        while x is not None:
            values.append(to_jsonable(x.val, depth + 1))
            x = x.next
            if len(values) > MAX_NODES:
                raise ValueError("the returned linked list has a cycle or is too long")
        return values
    if isinstance(x, (set, frozenset)):
        return sorted((to_jsonable(v, depth + 1) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(x, dict):
        return {str(k): to_jsonable(v, depth + 1) for k, v in x.items()}
    if hasattr(x, "item") and callable(x.item):
        return to_jsonable(x.item(), depth + 1)
    if hasattr(x, "tolist") and callable(x.tolist):
        return to_jsonable(x.tolist(), depth + 1)
    raise TypeError(f"cannot compare a returned {type(x).__name__}")


def empty_nodes(value: Any, plan: Any) -> Any:
    """A ``None`` returned for a linked list or tree is LeetCode's empty list ``[]``."""
    if plan in ("node", "tree") and value is None:
        return []
    if isinstance(plan, list) and plan and plan[0] == "list" and isinstance(value, list):
        return [empty_nodes(v, plan[1]) for v in value]
    return value


def _fold(name: str) -> str:
    return name.lower().replace("_", "")


def run_design(cls: Any, raw_args: Any, design: dict[str, Any], ns: dict[str, Any], at: list[Any]) -> list[Any]:
    """Construct ``cls`` with the first operation's arguments and call each operation in turn;
    ``at`` holds the index and name of the operation running (for errors and timeouts)."""
    ops, arg_lists = raw_args
    at[:] = [0, ops[0]]
    obj = cls(*[convert(v, p, ns) for v, p in zip(arg_lists[0], design["init"])])  # noqa: B905
    names = {_fold(n): n for n in dir(obj) if not n.startswith("_")}
    outputs: list[Any] = [None]
    raw: list[Any] = [obj]
    for i in range(1, len(ops)):
        at[:] = [i, ops[i]]
        given = arg_lists[i]
        for ref in [a["$result"] for a in given if isinstance(a, dict) and "$result" in a]:
            outputs[ref] = None  # an encoding is the candidate's own: only the round trip counts
        info = design["methods"].get(_fold(ops[i]), {})
        name = ops[i] if callable(getattr(obj, ops[i], None)) else names.get(_fold(ops[i]), info.get("name", ops[i]))
        method = getattr(obj, name, None)
        if not callable(method):
            raise AttributeError(f"{type(obj).__name__} has no method {ops[i]}")
        value = method(*[raw[v["$result"]] if isinstance(v, dict) and "$result" in v else convert(v, p, ns)
                         for v, p in zip(given, info.get("plans", []))])  # noqa: B905
        raw.append(value)
        outputs.append(None if info.get("void") else empty_nodes(to_jsonable(value), info.get("returns_plan")))
    return outputs


def _error_text(exc: BaseException, solution: str) -> str:
    if isinstance(exc, SystemExit):
        return f"the candidate called exit({exc.code!r})"
    text = f"{type(exc).__name__}: {exc}"[:500]
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == solution]
    if frames:
        text += f" (line {frames[-1].lineno} of {solution})"
    return text


def main() -> None:
    spec_path = sys.argv[1]
    with open(spec_path, encoding="utf-8") as fh:
        spec = json.load(fh)
    with contextlib.suppress(OSError):
        os.unlink(spec_path)
    nonce = spec["nonce"]
    real_exit = os._exit
    out_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    results = open(spec["result_file"], "w", encoding="utf-8")  # noqa: SIM115

    def emit(event: dict[str, Any]) -> None:
        event["nonce"] = nonce
        line = json.dumps(event)
        results.write(line + "\n")
        results.flush()
        os.write(out_fd, f"@@vibecode {nonce} {line}\n".encode())

    def fake_exit(code: int = 0) -> None:
        raise SystemExit(code)

    os._exit = fake_exit  # type: ignore[assignment]
    sys.stdin = io.StringIO("")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    signal.signal(signal.SIGALRM, _on_alarm)
    timeout = float(spec["timeout_s"])
    solution = spec["solution"]
    mod = types.ModuleType("solution")
    mod.__file__ = solution
    sys.modules["solution"] = mod
    ns = mod.__dict__
    ns["__builtins__"] = builtins
    sink = _CappedOut()
    sys.stdout = sink
    try:
        signal.setitimer(signal.ITIMER_REAL, float(spec.get("load_timeout_s", 5.0)))
        with open(solution, encoding="utf-8") as fh:
            source = fh.read()
        exec(compile(source, solution, "exec"), ns)
        signal.setitimer(signal.ITIMER_REAL, 0)
        cls_name, fn_name = spec["class_name"], spec["function"]
        if cls_name and not isinstance(ns.get(cls_name), type):
            raise NameError(f"the code defines no class {cls_name}")
        if not cls_name and not callable(ns.get(fn_name)):
            raise NameError(f"the code defines no function {fn_name}")
        design = spec.get("design")
        if cls_name and not design and not callable(getattr(ns[cls_name], fn_name, None)):
            raise NameError(f"class {cls_name} has no method {fn_name}")
    except BaseException as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        reason = "loading the code timed out" if isinstance(exc, _Timeout) else _error_text(exc, solution)
        emit({"event": "load_error", "error": reason})
        real_exit(0)
    emit({"event": "loaded"})
    plans = spec["plans"]
    max_timeouts = int(spec.get("max_timeouts") or 0)
    timeouts = 0
    for i, raw_args in enumerate(spec["inputs"]):
        if max_timeouts and timeouts >= max_timeouts:
            emit({"event": "result", "i": i, "status": "timeout", "output": None, "duration_s": 0.0,
                  "stdout": "", "error": f"not run: the code already timed out on {timeouts} inputs"})
            continue
        emit({"event": "start", "i": i})
        sink = _CappedOut()
        sys.stdout = sink
        status, output, error = "ok", None, ""
        at: list[Any] = []
        t0 = time.perf_counter()
        try:
            random.seed(0)
            signal.setitimer(signal.ITIMER_REAL, timeout)
            if design:
                output = run_design(ns[cls_name], raw_args, design, ns, at)
            else:
                args = [convert(v, p, ns) for v, p in zip(raw_args, plans)]  # noqa: B905 (any Python 3)
                fn = getattr(ns[cls_name](), fn_name) if cls_name else ns[fn_name]
                value = fn(*args)
                if spec["returns_arg"] is not None:
                    value = args[spec["returns_arg"]]
                output = empty_nodes(to_jsonable(value), spec.get("returns_plan"))
            signal.setitimer(signal.ITIMER_REAL, 0)
        except _Timeout:
            signal.setitimer(signal.ITIMER_REAL, 0)
            status, error = "timeout", f"no answer within {timeout:g} s"
            timeouts += 1
        except BaseException as exc:
            signal.setitimer(signal.ITIMER_REAL, 0)
            status, error = "error", _error_text(exc, solution)
        if at and status != "ok":
            error += f" (at operation {at[0]}, `{at[1]}`)"
        duration = time.perf_counter() - t0
        event = {"event": "result", "i": i, "status": status, "output": output, "error": error,
                 "duration_s": round(duration, 6), "stdout": sink.text()}
        try:
            line = json.dumps(event)
        except (TypeError, ValueError) as exc:
            event.update(status="error", output=None, error=f"output is not serializable: {exc}")
            line = ""
        if len(line) > MAX_OUTPUT_CHARS:
            event.update(status="error", output=None, error="output too large to compare")
        emit(event)
    emit({"event": "done"})
    results.close()
    real_exit(0)


if __name__ == "__main__":
    main()
