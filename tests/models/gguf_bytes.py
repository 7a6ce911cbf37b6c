"""A tiny GGUF writer (and reader, to check it) for tests: header and metadata, no tensors.

Layout (GGUF v3, little-endian): magic "GGUF", uint32 version, uint64 tensor count, uint64
metadata count, then per key: a GGUF string (uint64 length + UTF-8 bytes), a uint32 value type and
the value. Only the value types the tests need are supported: UINT32 (4) and STRING (8).
"""

from __future__ import annotations

import struct
from functools import lru_cache

GGUF_VERSION = 3
UINT32, STRING = 4, 8


def _string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def gguf_bytes(metadata: dict[str, str | int], size: int = 0) -> bytes:
    """A valid GGUF file with ``metadata``; padded with a string value to ``size`` bytes at least."""
    items = dict(metadata)
    if size:
        bare = len(gguf_bytes(items)) + len(_string("test.padding")) + 4 + 8
        filler = b"0123456789abcdefghijklmnopqrstuvwxyz"
        need = max(0, size - bare)
        items["test.padding"] = (filler * (need // len(filler) + 1))[:need].decode()
    out = bytearray(b"GGUF")
    out += struct.pack("<IQQ", GGUF_VERSION, 0, len(items))
    for key, value in items.items():
        out += _string(key)
        if isinstance(value, str):
            out += struct.pack("<I", STRING) + _string(value)
        else:
            out += struct.pack("<II", UINT32, value)
    return bytes(out)


def read_gguf_metadata(data: bytes) -> dict[str, str | int]:
    """Parse what :func:`gguf_bytes` writes (to test the writer itself)."""
    assert data[:4] == b"GGUF", "no GGUF magic"
    version, tensors, count = struct.unpack_from("<IQQ", data, 4)
    assert (version, tensors) == (GGUF_VERSION, 0)
    pos = 24
    out: dict[str, str | int] = {}

    def read_string() -> str:
        nonlocal pos
        (length,) = struct.unpack_from("<Q", data, pos)
        pos += 8 + length
        return data[pos - length : pos].decode("utf-8")

    for _ in range(count):
        key = read_string()
        (kind,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if kind == STRING:
            out[key] = read_string()
        else:
            assert kind == UINT32, f"unsupported type {kind}"
            (out[key],) = struct.unpack_from("<I", data, pos)
            pos += 4
    assert pos == len(data), "trailing bytes"
    return out


def small_gguf(name: str = "test-model") -> bytes:
    return gguf_bytes(
        {"general.architecture": "llama", "general.name": name, "llama.context_length": 2048},
        size=64 * 1024,
    )


@lru_cache(maxsize=1)
def big_gguf() -> bytes:
    """Larger than huggingface_hub's 10 MB download chunk, so a cut leaves a partial file."""
    return gguf_bytes({"general.architecture": "llama", "general.name": "big"}, size=12 * 2**20)
