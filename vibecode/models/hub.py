"""Hugging Face hub downloads and the local HF cache: the only module that imports huggingface_hub
(always lazily, inside functions).

Files go into the standard HF cache (``HF_HUB_CACHE`` / ``HF_HOME``), read from the environment on
every call. ``pull`` keeps an interrupted download as ``blobs/<etag>.incomplete`` and resumes it
with a Range request; it checks the sha256 against the hub's LFS etag and refuses a file without
the GGUF magic, so only a verified file becomes the cached model; then huggingface_hub itself
creates the snapshot entry and ``refs/main``. Progress goes to a callback; nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from vibecode.errors import DownloadError, ModelNotFound, OfflineError, UsageError
from vibecode.models.manifest import (
    HubFile,
    Manifest,
    check_gguf,
    hub_targets,
)
from vibecode.models.verify import is_sha256, verify_download

if TYPE_CHECKING:
    from huggingface_hub import HfFileMetadata

DEFAULT_ENDPOINT = "https://huggingface.co"

# Called with (bytes done, total bytes or None) as a download advances.
ProgressCallback = Callable[[int, int | None], None]


class NotOnHub(DownloadError):
    """The repository or the file does not exist on the hub (or is private/gated)."""


@dataclass(frozen=True)
class PullResult:
    ref: str  # what the user asked for: a registry id or an hf:// URI
    uri: str  # the hub file actually used (a mirror when the main repo lacks it)
    path: Path  # the file in the HF cache (a snapshot entry)
    size_bytes: int
    sha256: str | None  # verified digest; None when the hub gave no sha256 to check against
    commit: str
    downloaded_bytes: int  # fetched by this call
    resumed_from: int  # bytes already there from an interrupted download
    already_present: bool
    checked_hub: bool = True  # False when offline / unreachable and the cached copy was used

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "path": str(self.path)}


@dataclass(frozen=True)
class RemoveResult:
    ref: str
    paths: tuple[Path, ...]
    freed_bytes: int

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "paths": [str(p) for p in self.paths],
            "freed_bytes": self.freed_bytes,
        }


# ---------------------------------------------------------------------------------------------
# Environment and the local cache


def hf_cache_dir() -> Path:
    """The HF hub cache as huggingface_hub computes it at import, but read on every call:
    HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME or ~/.cache, then huggingface/hub."""
    env = os.environ
    home = env.get("HF_HOME") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "huggingface"
    )
    cache = env.get("HF_HUB_CACHE") or env.get("HUGGINGFACE_HUB_CACHE") or os.path.join(home, "hub")
    return Path(os.path.expandvars(os.path.expanduser(cache)))


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", DEFAULT_ENDPOINT).rstrip("/")


def is_offline() -> bool:
    flags = (os.environ.get("HF_HUB_OFFLINE"), os.environ.get("TRANSFORMERS_OFFLINE"))
    return any((v or "").strip().upper() in {"1", "ON", "YES", "TRUE"} for v in flags)


def _prepare_client() -> None:
    """Before talking to the hub: no telemetry unless the user turned it on explicitly.

    huggingface_hub otherwise fetches ``{endpoint}/api/agent-harnesses`` once a day to tag its
    user agent and caches it under HF_HOME; an offline-first tool should not phone home for that.
    """
    from huggingface_hub import constants

    explicit = os.environ.get("HF_HUB_DISABLE_TELEMETRY", "").strip().upper()
    constants.HF_HUB_DISABLE_TELEMETRY = explicit not in {"0", "FALSE", "NO", "OFF"}


def cached_hub_file(hub: HubFile) -> Path | None:
    """The file in the local HF cache: at the commit ``main`` points to, else in any snapshot."""
    from huggingface_hub import try_to_load_from_cache
    from huggingface_hub.file_download import repo_folder_name

    found = try_to_load_from_cache(
        repo_id=hub.repo, filename=hub.filename, cache_dir=hf_cache_dir()
    )
    if isinstance(found, str):
        return Path(found)
    snapshots = hf_cache_dir() / repo_folder_name(repo_id=hub.repo, repo_type="model") / "snapshots"
    older = [p for p in snapshots.glob(f"*/{hub.filename}") if p.is_file()]
    return max(older, key=lambda p: p.stat().st_mtime) if older else None


def cached_ggufs() -> list[tuple[HubFile, Path]]:
    """Every .gguf file in the HF cache (newest snapshot of each), read from the cache's own
    layout (``models--OWNER--REPO/snapshots/REV/FILE``): what ``models pull hf://...`` left."""
    found: dict[tuple[str, str], tuple[float, Path]] = {}
    cache = hf_cache_dir()
    for folder in sorted(cache.glob("models--*--*")) if cache.is_dir() else []:
        owner, _, name = folder.name.removeprefix("models--").partition("--")
        for path in (folder / "snapshots").glob("*/**/*.gguf"):
            if not path.is_file():  # a dangling link: the blob was removed
                continue
            rel = path.relative_to(folder / "snapshots").parts[1:]
            key = (f"{owner}/{name}", "/".join(rel))
            when = path.stat().st_mtime
            if key not in found or when > found[key][0]:
                found[key] = (when, path)
    return [(HubFile(repo, file), path) for (repo, file), (_, path) in sorted(found.items())]


def cached_file(manifest: Manifest) -> Path | None:
    """The manifest's file in the local HF cache, from its repo or one of its mirrors."""
    for hub in manifest.hub_files():
        path = cached_hub_file(hub)
        if path is not None:
            return path
    return None


# ---------------------------------------------------------------------------------------------
# Pull


def pull(ref: str, progress: ProgressCallback | None = None) -> PullResult:
    """Download a registry model or ``hf://owner/repo/file.gguf`` into the HF cache.

    Resumes an interrupted download, verifies the sha256 against the hub's LFS etag and the GGUF
    magic, and only then makes the file the cached model. A registry model is looked for in its
    repo, then in its mirrors. When the hub cannot be asked (offline mode, no network) a copy
    already in the cache is returned with ``checked_hub=False``.
    """
    _, targets = hub_targets(ref)
    _prepare_client()
    if not targets[0].filename:
        raise _missing_file_error(targets[0])
    if is_offline():
        cached = _cached_result(ref, targets)
        if cached is not None:
            return cached
        raise OfflineError(
            f"Cannot download {ref}: offline mode is on (HF_HUB_OFFLINE is set).",
            "Unset HF_HUB_OFFLINE to download, or pass --model path/to/file.gguf.",
        )
    missing: list[NotOnHub] = []
    for hub in targets:
        try:
            meta = _file_metadata(hub)
        except NotOnHub as exc:
            missing.append(exc)
            continue
        except OfflineError:
            cached = _cached_result(ref, targets)
            if cached is not None:
                return cached
            raise
        return _fetch(ref, hub, meta, progress)
    first = missing[0]
    if len(targets) > 1:
        others = ", ".join(t.repo for t in targets[1:])
        raise NotOnHub(first.message, f"{first.hint or ''} Also not found in: {others}.".strip())
    raise first


def _cached_result(ref: str, targets: list[HubFile]) -> PullResult | None:
    for hub in targets:
        path = cached_hub_file(hub)
        if path is not None:
            check_gguf(path)
            size = path.stat().st_size
            return PullResult(ref, hub.uri, path, size, None, path.parent.name, 0, 0, True, False)
    return None


def _file_metadata(hub: HubFile) -> HfFileMetadata:
    """HEAD the file on the hub (following the hub's own redirects), mapping errors to ours."""
    import httpx2
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (
        GatedRepoError,
        HfHubHTTPError,
        OfflineModeIsEnabled,
        RemoteEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    endpoint = hub_endpoint()
    url = hf_hub_url(hub.repo, hub.filename, endpoint=endpoint)
    try:
        meta = get_hf_file_metadata(url, endpoint=endpoint)
    except RemoteEntryNotFoundError:
        raise _missing_file_error(hub) from None
    except GatedRepoError:
        raise NotOnHub(
            f"{hub.repo} is a gated repository on the hub.",
            "Accept its terms on huggingface.co and log in with `hf auth login`, or use another repo.",
        ) from None
    except (RepositoryNotFoundError, RevisionNotFoundError):
        raise NotOnHub(
            f"The repository {hub.repo} was not found on the hub (or it is private).",
            "Check the owner/repo spelling.",
        ) from None
    except (httpx2.ConnectError, httpx2.TimeoutException, OfflineModeIsEnabled) as exc:
        raise OfflineError(
            f"Cannot reach the Hugging Face hub at {endpoint}: {_reason(exc)}.",
            "Check your network or proxy (HF_ENDPOINT). Models already downloaded still work: "
            "vibecode models list.",
        ) from exc
    except HfHubHTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "an error"
        raise DownloadError(
            f"The hub answered {status} for {hub.uri}.", "Try again later."
        ) from exc
    if not meta.etag or not meta.commit_hash:
        raise DownloadError(
            f"{endpoint} did not answer like the Hugging Face hub for {hub.uri} (no ETag or commit).",
            "Check HF_ENDPOINT and any proxy.",
        )
    return meta


def _fetch(
    ref: str, hub: HubFile, meta: HfFileMetadata, progress: ProgressCallback | None
) -> PullResult:
    from huggingface_hub.file_download import repo_folder_name
    from huggingface_hub.utils import WeakFileLock

    etag, commit = str(meta.etag), str(meta.commit_hash)
    storage = hf_cache_dir() / repo_folder_name(repo_id=hub.repo, repo_type="model")
    blob = storage / "blobs" / etag
    partial = blob.with_name(f"{etag}.incomplete")
    resumed_from = downloaded = 0
    already = blob.is_file()
    sha256: str | None = etag if is_sha256(etag) else None
    if not already:
        lock = hf_cache_dir() / ".locks" / storage.name / f"{etag}.vibecode.lock"
        lock.parent.mkdir(parents=True, exist_ok=True)
        blob.parent.mkdir(parents=True, exist_ok=True)
        with WeakFileLock(lock):
            if not blob.is_file():
                resumed_from, downloaded = _download(hub, meta, partial, progress)
                sha256 = verify_download(partial, etag, hub.uri)
                os.replace(partial, blob)
    path = _link_into_cache(hub)
    check_gguf(path)
    size = path.stat().st_size
    return PullResult(ref, hub.uri, path, size, sha256, commit, downloaded, resumed_from, already)


def _download(
    hub: HubFile, meta: HfFileMetadata, partial: Path, progress: ProgressCallback | None
) -> tuple[int, int]:
    """Append the missing bytes to ``partial`` (a Range request when part of it is there)."""
    import httpx2
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils import build_hf_headers

    headers = build_hf_headers()
    if urlsplit(meta.location).netloc != urlsplit(hub_endpoint()).netloc:
        headers.pop("authorization", None)  # a signed CDN URL: the token stays on the hub
    start = partial.stat().st_size if partial.is_file() else 0
    if meta.size is not None and start > meta.size:
        partial.unlink()
        start = 0
    try:
        with partial.open("ab") as fh:
            http_get(
                meta.location,
                fh,
                resume_size=start,
                headers=headers,
                expected_size=meta.size,
                displayed_filename=hub.filename,
                tqdm_class=_progress_class(progress),
            )
    except (OSError, ValueError, httpx2.HTTPError) as exc:
        have = partial.stat().st_size if partial.is_file() else 0
        if meta.size is not None and have > meta.size:
            partial.unlink()
        raise DownloadError(
            f"Downloading {hub.uri} stopped at {_size(have)} of {_size(meta.size)}: {_reason(exc)}.",
            "Run the same command again: it resumes where it stopped.",
        ) from exc
    return start, partial.stat().st_size - start


def _link_into_cache(hub: HubFile) -> Path:
    """Let huggingface_hub create the snapshot entry and ``refs/main`` for the verified blob."""
    import httpx2
    from huggingface_hub import hf_hub_download

    try:
        path = hf_hub_download(
            hub.repo,
            hub.filename,
            cache_dir=hf_cache_dir(),
            endpoint=hub_endpoint(),
            tqdm_class=_progress_class(None),
        )
    except (OSError, ValueError, httpx2.HTTPError) as exc:
        raise DownloadError(
            f"{hub.uri} was downloaded and verified but could not be entered in the HF cache: "
            f"{_reason(exc)}.",
            "Run the same command again (the verified file is kept).",
        ) from exc
    return Path(str(path))


def repo_gguf_files(repo: str) -> list[str] | None:
    """The .gguf files of a hub repository, or None when they cannot be listed."""
    from huggingface_hub import HfApi

    _prepare_client()
    try:
        files = HfApi(endpoint=hub_endpoint()).list_repo_files(repo)
    except Exception:  # any failure only means the error message lists nothing
        return None
    return sorted(f for f in files if f.lower().endswith(".gguf"))


def _missing_file_error(hub: HubFile) -> NotOnHub:
    files = repo_gguf_files(hub.repo)
    if files is None:
        hint = f"The files of {hub.repo} could not be listed; check the name on huggingface.co."
    elif not files:
        hint = f"{hub.repo} has no .gguf files."
    else:
        hint = (
            f"Its .gguf files: {', '.join(files)}. "
            f"Pull one with: vibecode models pull hf://{hub.repo}/<file>"
        )
    if not hub.filename:
        return NotOnHub(f"hf://{hub.repo} names a repository; say which file to pull.", hint)
    return NotOnHub(f"{hub.repo} has no file {hub.filename!r}.", hint)


def _progress_class(callback: ProgressCallback | None) -> Any:
    """A stand-in for tqdm that huggingface_hub drives, forwarding progress to ``callback``."""

    class _Progress:
        def __init__(self, *_: Any, total: int | None = None, initial: int = 0, **__: Any) -> None:
            self.total, self.n = total, initial
            if callback is not None:
                callback(self.n, self.total)

        def update(self, n: float | None = 1) -> None:
            self.n += int(n or 0)
            if callback is not None:
                callback(self.n, self.total)

        def close(self) -> None:
            pass

        def __enter__(self) -> _Progress:
            return self

        def __exit__(self, *_: object) -> None:
            pass

    return _Progress


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__).rstrip(".")


def _size(n: int | None) -> str:
    return "an unknown size" if n is None else f"{n / 1e6:.1f} MB"


# ---------------------------------------------------------------------------------------------
# Remove


def remove(ref: str) -> RemoveResult:
    """Delete a downloaded model's file from the HF cache; other files of its repo are kept."""
    from huggingface_hub import scan_cache_dir

    _, targets = hub_targets(ref)
    wanted = {(hub.repo, hub.filename) for hub in targets if hub.filename}
    if not wanted:
        raise UsageError(f"{ref} names a repository, not a file.", "Use hf://owner/repo/file.gguf.")
    cache = hf_cache_dir()
    info = scan_cache_dir(cache) if cache.is_dir() else None
    files = [
        f
        for repo in (info.repos if info else ())
        if repo.repo_type == "model"
        for revision in repo.revisions
        for f in revision.files
        if (repo.repo_id, f.file_path.relative_to(revision.snapshot_path).as_posix()) in wanted
    ]
    if info is None or not files:
        raise ModelNotFound(f"{ref} is not downloaded; there is nothing to remove.")
    strategy = info.delete_files(*files)
    strategy.execute()
    return RemoveResult(ref, tuple(f.file_path for f in files), int(strategy.expected_freed_size))
