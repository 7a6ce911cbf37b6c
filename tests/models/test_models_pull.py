"""`pull` / `remove` / `resolve_model` with the real huggingface_hub client against a fake hub."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.models.fakehub import FakeHub
from tests.models.gguf_bytes import big_gguf, small_gguf
from vibecode.errors import DownloadError, ModelNotFound, OfflineError
from vibecode.models import (
    ChecksumMismatch,
    NotOnHub,
    pull,
    remove,
    resolve_model,
)
from vibecode.models.verify import file_digest

REPO = "acme/Widget-7B-GGUF"
FILE = "Widget-7B.Q4_K_M.gguf"
URI = f"hf://{REPO}/{FILE}"


def _repo_dir(cache: Path, repo: str = REPO) -> Path:
    return cache / ("models--" + repo.replace("/", "--"))


def _leftovers(cache: Path) -> list[Path]:
    """Files a failed download must not leave behind (partials, blobs, snapshot entries)."""
    repo = _repo_dir(cache)
    return sorted(p for p in repo.glob("**/*") if p.is_file() or p.is_symlink())


def test_pull_downloads_into_the_hf_cache(hub: FakeHub, hf_cache: Path) -> None:
    data = small_gguf()
    hub.add(REPO, FILE, data)
    hub.add(REPO, "README.md", b"# Widget\n", lfs=False)
    events: list[tuple[int, int | None]] = []

    result = pull(URI, progress=lambda done, total: events.append((done, total)))

    expected = _repo_dir(hf_cache) / "snapshots" / hub.commit / FILE
    assert result.path == expected
    assert result.path.read_bytes() == data
    assert result.sha256 == hashlib.sha256(data).hexdigest()
    assert (result.size_bytes, result.downloaded_bytes, result.resumed_from) == (
        len(data),
        len(data),
        0,
    )
    assert not result.already_present and result.checked_hub
    assert (_repo_dir(hf_cache) / "refs" / "main").read_text() == hub.commit
    assert events[0] == (0, len(data)) and events[-1] == (len(data), len(data))
    assert not list(_repo_dir(hf_cache).glob("blobs/*.incomplete"))
    assert resolve_model(URI).path == result.path

    again = pull(URI)
    assert again.already_present and again.downloaded_bytes == 0
    assert len(hub.cdn_gets(FILE)) == 1, "a second pull must not download again"


def test_a_cut_connection_is_resumed_with_a_range_request(hub: FakeHub) -> None:
    data = big_gguf()
    hub.add(REPO, FILE, data)
    hub.cut_once(REPO, FILE, after=11 * 2**20)

    result = pull(URI)

    gets = hub.cdn_gets(FILE)
    assert [g.range is None for g in gets] == [True, False]
    offset = int(gets[1].range.removeprefix("bytes=").rstrip("-"))  # type: ignore[union-attr]
    assert 0 < offset < len(data)
    assert gets[1].sent == len(data) - offset, "only the missing tail is sent again"
    assert result.path.read_bytes() == data


def test_an_interrupted_pull_resumes_on_the_next_pull(hub: FakeHub, hf_cache: Path) -> None:
    data = big_gguf()
    sha = hashlib.sha256(data).hexdigest()
    hub.add(REPO, FILE, data)
    hub.cut_once(REPO, FILE, after=11 * 2**20)
    hub.fail_next(REPO, FILE, 503)  # the client's own retry fails too: the pull gives up

    with pytest.raises(DownloadError, match="stopped at") as failed:
        pull(URI)
    assert "resumes" in (failed.value.hint or "")
    partial = _repo_dir(hf_cache) / "blobs" / f"{sha}.incomplete"
    kept = partial.stat().st_size
    assert 0 < kept < len(data)
    with pytest.raises(ModelNotFound, match="not downloaded"):
        resolve_model(URI)

    result = pull(URI)

    last = hub.cdn_gets(FILE)[-1]
    assert last.range == f"bytes={kept}-"
    assert last.sent == len(data) - kept
    assert (result.resumed_from, result.downloaded_bytes) == (kept, len(data) - kept)
    assert result.path.read_bytes() == data and result.sha256 == sha
    assert not partial.exists()


def test_a_checksum_mismatch_is_an_error_and_nothing_is_cached(
    hub: FakeHub, hf_cache: Path
) -> None:
    data = small_gguf()
    wrong = hashlib.sha256(b"something else").hexdigest()
    served = hub.add(REPO, FILE, data, sha256=wrong)

    with pytest.raises(ChecksumMismatch) as mismatch:
        pull(URI)
    assert wrong in mismatch.value.message
    assert hashlib.sha256(data).hexdigest() in mismatch.value.message
    assert _leftovers(hf_cache) == [], "the bad file must not stay in the cache"
    with pytest.raises(ModelNotFound):
        resolve_model(URI)

    served.sha256 = hashlib.sha256(data).hexdigest()  # the hub is fixed: the next pull works
    assert pull(URI).path.read_bytes() == data


def test_a_missing_file_lists_the_gguf_files_the_repo_has(hub: FakeHub) -> None:
    hub.add(REPO, "Widget-7B.Q8_0.gguf", small_gguf())
    hub.add(REPO, "Widget-7B.Q2_K.gguf", small_gguf())
    hub.add(REPO, "README.md", b"readme", lfs=False)

    with pytest.raises(NotOnHub, match=f"has no file '{FILE}'") as missing:
        pull(URI)
    hint = missing.value.hint or ""
    assert "Widget-7B.Q2_K.gguf" in hint and "Widget-7B.Q8_0.gguf" in hint
    assert "README.md" not in hint

    with pytest.raises(NotOnHub, match="names a repository") as no_file:
        pull(f"hf://{REPO}")
    assert "Widget-7B.Q8_0.gguf" in (no_file.value.hint or "")

    with pytest.raises(NotOnHub, match="was not found"):
        pull("hf://nobody/Nothing-GGUF/x.gguf")


def test_a_file_that_is_not_gguf_is_refused(hub: FakeHub, hf_cache: Path) -> None:
    hub.add(REPO, FILE, b"<!doctype html><p>not a model</p>" * 100)

    with pytest.raises(DownloadError, match="not a GGUF model file"):
        pull(URI)
    assert _leftovers(hf_cache) == []


def test_offline_mode_gives_a_clear_message_and_makes_no_request(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub.add(REPO, FILE, small_gguf())
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    with pytest.raises(OfflineError, match="HF_HUB_OFFLINE"):
        pull(URI)
    assert hub.requests == []

    monkeypatch.delenv("HF_HUB_OFFLINE")
    downloaded = pull(URI)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    cached = pull(URI)  # already there: offline is fine
    assert cached.path == downloaded.path and not cached.checked_hub


def test_an_unreachable_hub_gives_a_clear_message(
    hf_cache: Path, monkeypatch: pytest.MonkeyPatch, unused_port: int
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{unused_port}")

    with pytest.raises(OfflineError, match="Cannot reach the Hugging Face hub"):
        pull(URI)


def test_a_registry_model_falls_back_to_its_mirror_and_becomes_the_default(hub: FakeHub) -> None:
    mirror = "prithivMLmods/VibeThinker-3B-GGUF"
    hub.add(mirror, "VibeThinker-3B.Q4_K_M.gguf", small_gguf("vibethinker"))
    before = resolve_model(None)
    assert (
        before.id == "tiny"
        and before.notice
        and "vibecode models pull vibethinker-3b" in before.notice
    )

    result = pull("vibethinker-3b")

    assert result.uri == f"hf://{mirror}/VibeThinker-3B.Q4_K_M.gguf"
    default = resolve_model(None)
    assert (default.id, default.path, default.notice) == ("vibethinker-3b", result.path, None)
    assert default.manifest is not None and default.manifest.sampling.temperature == 1.0
    assert resolve_model("vibethinker-3b").path == result.path

    removed = remove("vibethinker-3b")
    assert removed.paths == (result.path,) and removed.freed_bytes == result.size_bytes
    assert resolve_model(None).id == "tiny"


def test_a_registry_model_missing_everywhere_names_the_repos(hub: FakeHub) -> None:
    hub.add("mradermacher/VibeThinker-3B-GGUF", "VibeThinker-3B.IQ4_XS.gguf", small_gguf())

    with pytest.raises(NotOnHub) as missing:
        pull("vibethinker-3b")
    hint = missing.value.hint or ""
    assert "VibeThinker-3B.IQ4_XS.gguf" in hint
    assert "Also not found in: prithivMLmods/VibeThinker-3B-GGUF" in hint


def test_rm_deletes_one_file_and_keeps_the_rest_of_the_repo(hub: FakeHub, hf_cache: Path) -> None:
    other = "Widget-7B.Q8_0.gguf"
    hub.add(REPO, FILE, small_gguf("q4"))
    hub.add(REPO, other, small_gguf("q8"))
    first, second = pull(URI), pull(f"hf://{REPO}/{other}")
    blob = first.path.resolve()
    assert blob.parent.name == "blobs"

    removed = remove(URI)

    assert removed.paths == (first.path,)
    assert not first.path.exists() and not blob.exists()
    assert resolve_model(f"hf://{REPO}/{other}").path == second.path
    with pytest.raises(ModelNotFound, match="nothing to remove"):
        remove(URI)


def test_a_small_non_lfs_file_is_checked_against_its_git_blob_sha1(
    hub: FakeHub, tmp_path: Path
) -> None:
    blob = tmp_path / "hello"
    blob.write_bytes(b"hello\n")
    assert file_digest(blob, "ce013625030ba8dba906f756967f9e9ca394464a") == (
        "ce013625030ba8dba906f756967f9e9ca394464a"  # `git hash-object` of b"hello\n"
    )
    data = small_gguf()
    hub.add(REPO, FILE, data, lfs=False)  # served directly by the hub, ETag = git blob sha1

    result = pull(URI)

    assert result.path.read_bytes() == data
    assert result.sha256 is None  # no sha256 published; the git sha1 was checked instead
    assert hub.cdn_gets(FILE) == []
