"""Models: the registry (``models/*.toml``), model references, the default choice, and downloads.

- :mod:`vibecode.models.manifest`: manifests, hub files, ``check_gguf``.
- :mod:`vibecode.models.registry`: which models are here, ``resolve_model``, ``diagnose``.
- :mod:`vibecode.models.hub`: ``pull`` / ``remove`` and the Hugging Face cache; the only module
  that imports huggingface_hub (lazily), so importing this package stays cheap.
- :mod:`vibecode.models.verify`: the sha256 / GGUF checks a download must pass.
"""

from vibecode.models.hub import (
    NotOnHub,
    ProgressCallback,
    PullResult,
    RemoveResult,
    cached_file,
    cached_hub_file,
    hf_cache_dir,
    hub_endpoint,
    is_offline,
    pull,
    remove,
    repo_gguf_files,
)
from vibecode.models.manifest import (
    GGUF_MAGIC,
    HF_SCHEME,
    TINY_MODEL,
    HubFile,
    Manifest,
    SamplingDefaults,
    check_gguf,
    get_manifest,
    hub_targets,
    load_manifests,
    manifest_for,
    manifests_dir,
    parse_hf_uri,
)
from vibecode.models.registry import (
    DEFAULT_MODEL,
    TINY_NOTICE,
    ModelStatus,
    ResolvedModel,
    diagnose,
    list_models,
    local_path,
    package_file,
    resolve_model,
)
from vibecode.models.verify import ChecksumMismatch, verify_download

__all__ = [
    "DEFAULT_MODEL",
    "GGUF_MAGIC",
    "HF_SCHEME",
    "TINY_MODEL",
    "TINY_NOTICE",
    "ChecksumMismatch",
    "HubFile",
    "Manifest",
    "ModelStatus",
    "NotOnHub",
    "ProgressCallback",
    "PullResult",
    "RemoveResult",
    "ResolvedModel",
    "SamplingDefaults",
    "cached_file",
    "cached_hub_file",
    "check_gguf",
    "diagnose",
    "get_manifest",
    "hf_cache_dir",
    "hub_endpoint",
    "hub_targets",
    "is_offline",
    "list_models",
    "load_manifests",
    "local_path",
    "manifest_for",
    "manifests_dir",
    "package_file",
    "parse_hf_uri",
    "pull",
    "remove",
    "repo_gguf_files",
    "resolve_model",
    "verify_download",
]
