"""OpenAIEngine against a real OpenAI-compatible server: llama_cpp.server with the tiny model."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from vibecode.engine.openai import OpenAIEngine
from vibecode.errors import EngineError
from vibecode.models import ResolvedModel
from vibecode.types import ChatMessage, SamplingParams, TokenDelta


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tiny_model: ResolvedModel) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(tiny_model.path),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            "--verbose",
            "false",
            # llama_cpp.server serves one request at a time; by default a new request interrupts
            # the running one, which would cut our concurrent streams short.
            "--interrupt_requests",
            "false",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/v1/models", timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(
                    f"llama_cpp.server did not start (is the [server] extra installed?): {err[-800:]}"
                )
            time.sleep(0.3)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def test_samples_n_completions_with_seeds(server: str) -> None:
    engine = OpenAIEngine(server)
    params = SamplingParams(temperature=1.0, max_tokens=24, seed=11)
    a = engine.sample([ChatMessage("user", "Tell me a short story.")], params, n=3)
    b = engine.sample([ChatMessage("user", "Tell me a short story.")], params, n=3)
    assert [c.seed for c in a] == [11, 12, 13]
    assert [c.text for c in a] == [c.text for c in b]
    assert all(c.text and 0 < c.completion_tokens <= 24 for c in a)
    assert len({c.text for c in a}) > 1


def test_streams_token_events(server: str) -> None:
    engine = OpenAIEngine(server)
    events = list(
        engine.stream(
            [ChatMessage("user", "Count from one to five.")],
            SamplingParams(temperature=0, max_tokens=20),
        )
    )
    deltas = [e for e in events if isinstance(e, TokenDelta)]
    assert len(deltas) > 3
    assert [d.tokens for d in deltas] == sorted(d.tokens for d in deltas)


def test_stop_strings_and_info(server: str) -> None:
    engine = OpenAIEngine(server)
    [c] = engine.sample(
        [ChatMessage("user", "What is 2+2? Answer briefly.")],
        SamplingParams(temperature=0, max_tokens=30, stop=("4",)),
    )
    assert "4" not in c.text
    info = engine.info()
    assert info.engine == "openai" and info.backend == "remote"
    assert engine.count_tokens("hello world") >= 2


def test_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(EngineError) as info:
        OpenAIEngine(f"http://127.0.0.1:{_free_port()}")
    assert "Cannot reach" in info.value.message
