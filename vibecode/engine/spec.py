"""Engine specs: the strings that select an engine everywhere (``--engine``, config, env).

- ``llama:<model id or path.gguf>``: llama.cpp in process.
- ``openai:<base url>``: an OpenAI-compatible server (llama-server, vLLM, Ollama).
- ``replay:<file.jsonl>``: recorded completions.
- ``tiny``: the embedded SmolLM2-135M (same as ``llama:tiny``).
"""

from __future__ import annotations

from dataclasses import dataclass

from vibecode.config import Settings
from vibecode.engine.base import Engine
from vibecode.errors import EngineSpecError
from vibecode.models import Manifest

SPEC_HELP = "llama:<model id or path.gguf> | openai:<base url> | replay:<file.jsonl> | tiny"


@dataclass(frozen=True)
class EngineSpec:
    kind: str  # "llama" | "openai" | "replay"
    target: str | None  # model ref, URL or file; None = the default model


def parse_spec(spec: str | None, model: str | None = None) -> EngineSpec:
    """Parse an engine spec; ``model`` fills in ``llama:`` without a target."""
    if spec is None or spec.strip() == "":
        return EngineSpec("llama", model)
    spec = spec.strip()
    if spec == "tiny":
        return EngineSpec("llama", "tiny")
    kind, sep, target = spec.partition(":")
    if not sep or kind not in ("llama", "openai", "replay"):
        raise EngineSpecError(f"Bad engine spec {spec!r}.", f"Use one of: {SPEC_HELP}.")
    target = target.strip()
    if kind == "llama":
        return EngineSpec("llama", target or model)
    if not target:
        what = "a base URL" if kind == "openai" else "a file"
        raise EngineSpecError(f"Engine spec {spec!r} needs {what} after the colon.", SPEC_HELP)
    return EngineSpec(kind, target)


@dataclass(frozen=True)
class OpenedEngine:
    engine: Engine
    manifest: Manifest | None  # the registry entry of the model, when it has one
    notice: str | None  # something the user should be told (e.g. "using the tiny model")


def make_engine(settings: Settings, spec: str | None = None) -> OpenedEngine:
    """Build the engine the settings ask for, with its model's manifest and a notice, if any."""
    parsed = parse_spec(spec if spec is not None else settings.engine, settings.model)
    engine: Engine
    notice: str | None = None
    manifest: Manifest | None = None
    if parsed.kind == "llama":
        from vibecode.engine.llama import LlamaCppEngine
        from vibecode.models import resolve_model

        resolved = resolve_model(parsed.target)
        notice, manifest = resolved.notice, resolved.manifest
        engine = LlamaCppEngine(resolved, settings)
        if engine.shape_twin:
            twin = (f"{resolved.path.name} is a shape twin of {engine.shape_twin}: random weights, "
                    "for speed and memory only; its answers are garbage.")
            notice = f"{notice} {twin}" if notice else twin
    elif parsed.kind == "openai":
        from vibecode.engine.openai import OpenAIEngine

        engine = OpenAIEngine(parsed.target or "", model=settings.model)
    else:
        from vibecode.engine.replay import ReplayEngine

        engine = ReplayEngine(parsed.target or "")
    if settings.record:
        from vibecode.engine.replay import RecordingEngine

        engine = RecordingEngine(engine, settings.record)
    return OpenedEngine(engine, manifest, notice)
