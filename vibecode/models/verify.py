"""Checks on a finished download, before it may become the cached model (no huggingface_hub)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from vibecode.errors import DownloadError
from vibecode.models.manifest import GGUF_MAGIC


class ChecksumMismatch(DownloadError):
    """The downloaded bytes do not match the sha256 the hub published for the file."""


def verify_download(partial: Path, etag: str, uri: str) -> str | None:
    """Check the digest the hub published (sha256 for LFS files) and the GGUF magic; a file that
    fails either is deleted, so it never becomes the cached model."""
    digest = file_digest(partial, etag)
    if digest is not None and digest != etag:
        partial.unlink()
        raise ChecksumMismatch(
            f"The download of {uri} is corrupt: its sha256 is {digest}, the hub says {etag}. "
            "The file was deleted.",
            "Run the pull again; if it fails the same way, a proxy or mirror is changing the file.",
        )
    with partial.open("rb") as fh:
        magic = fh.read(4)
    if magic != GGUF_MAGIC:
        partial.unlink()
        raise DownloadError(
            f"{uri} is not a GGUF model file (it does not start with the GGUF magic bytes); "
            "it was not kept.",
            "vibecode runs GGUF models through llama.cpp: pull a .gguf file.",
        )
    return digest if digest is not None and is_sha256(etag) else None


def file_digest(path: Path, etag: str) -> str | None:
    """sha256 for LFS etags, the git blob sha1 for small files, None when the etag is neither."""
    if is_sha256(etag):
        hasher = hashlib.sha256()
    elif len(etag) == 40 and all(c in "0123456789abcdef" for c in etag):
        hasher = hashlib.sha1()
        hasher.update(b"blob %d\0" % path.stat().st_size)
    else:
        return None
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            hasher.update(chunk)
    return hasher.hexdigest()


def is_sha256(etag: str) -> bool:
    return len(etag) == 64 and all(c in "0123456789abcdef" for c in etag)
