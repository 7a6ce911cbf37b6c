"""Helpers shared by the sub-commands: engine/model flags, settings, output."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vibecode.config import Settings, load_settings
from vibecode.engine.spec import SPEC_HELP, OpenedEngine
from vibecode.errors import UsageError


def add_engine_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model")
    group.add_argument("--engine", metavar="SPEC", help=f"engine spec: {SPEC_HELP}")
    group.add_argument(
        "--model", metavar="ID|PATH", help="model id from the registry, or a .gguf path"
    )
    group.add_argument(
        "--record", metavar="FILE", help="append every completion to FILE (replay format)"
    )
    group.add_argument("--n-ctx", type=int, metavar="CELLS",
                       help="KV cache cells at most, for all of a batch's sequences (default 98304)")
    group.add_argument("--n-gpu-layers", type=int, metavar="N", help="layers to offload to the GPU")
    group.add_argument("--seed", type=int, help="base seed (sequence i uses seed + i)")


def settings_from_args(args: argparse.Namespace, **extra: Any) -> Settings:
    return load_settings().with_overrides(
        engine=getattr(args, "engine", None),
        model=getattr(args, "model", None),
        record=getattr(args, "record", None),
        n_ctx=getattr(args, "n_ctx", None),
        n_gpu_layers=getattr(args, "n_gpu_layers", None),
        seed=getattr(args, "seed", None),
        **extra,
    )


def open_engine(settings: Settings) -> OpenedEngine:
    """Build the engine; print the model's notice (e.g. the tiny-model warning) to stderr."""
    from vibecode.engine.spec import make_engine

    opened = make_engine(settings)
    if opened.notice:
        print(f"note: {opened.notice}", file=sys.stderr)
    return opened


def print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


def repo_root(args: argparse.Namespace) -> Path:
    """The working tree of ``--repo`` (default: the current folder), which must be a folder."""
    root = Path(args.repo or ".").resolve()
    if not root.is_dir():
        raise UsageError(f"--repo {root} is not a folder.")
    return root
