"""scripts/make_shape_twin.py: a random-weight GGUF with a real model's shapes, marked as a twin.

The figures need the full 36 blocks (1.7 GB); the test writes one block of the 1.5B model's
shapes, which keeps every other dimension (hidden size, heads, FFN, the 151,936-token vocabulary).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from vibecode.config import Settings
from vibecode.engine.spec import make_engine
from vibecode.models import load_manifests
from vibecode.types import ChatMessage, SamplingParams


@pytest.fixture(scope="module")
def twin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("twin") / "twin-1.5b.gguf"
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts/make_shape_twin.py"), "--model", "vibethinker-1.5b",
         "--quant", "q8_0", "--blocks", "1", "--out", str(out)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["bytes"] == out.stat().st_size and report["shapes"]["vocab"] == 151936
    return out


def test_the_twin_has_the_real_shapes_and_says_what_it_is(twin: Path) -> None:
    from gguf import GGUFReader

    fields = GGUFReader(twin).fields
    value = {k: fields[k].contents() for k in fields if not k.startswith("tokenizer.ggml.")}
    assert value["general.architecture"] == "qwen2"
    assert value["qwen2.embedding_length"] == 1536 and value["qwen2.feed_forward_length"] == 8960
    assert value["qwen2.attention.head_count"] == 12 and value["qwen2.attention.head_count_kv"] == 2
    assert value["qwen2.block_count"] == 1
    assert len(fields["tokenizer.ggml.tokens"].contents()) == 151936
    assert value["vibecode.shape_twin"] == "vibethinker-1.5b"
    assert "shape twin" in value["general.name"] and "random weights" in value["general.name"]


def test_the_engine_loads_it_samples_and_gives_notice(twin: Path) -> None:
    opened = make_engine(Settings(n_ctx=1024, n_threads=2), f"llama:{twin}")
    assert opened.notice is not None and "shape twin of vibethinker-1.5b" in opened.notice
    assert opened.engine.info().extra["shape_twin"] == "vibethinker-1.5b"
    completions = opened.engine.sample(
        [ChatMessage("user", "hi")], SamplingParams(temperature=1.0, top_p=0.95, top_k=0, max_tokens=8,
                                                    ignore_eos=True), n=2)
    assert [c.completion_tokens for c in completions] == [8, 8]


def test_a_twin_is_never_a_registry_model() -> None:
    assert not any("twin" in m.id or "twin" in m.file for m in load_manifests().values())
