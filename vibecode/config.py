"""Settings: one object, from a TOML file in the platform config dir plus ``VIBECODE_*`` variables.

Precedence, lowest to highest: defaults, the config file, environment variables, then whatever
the caller overrides explicitly (command-line flags) through :meth:`Settings.with_overrides`.

The config file is ``$VIBECODE_CONFIG`` when set, else ``<user config dir>/vibecode/config.toml``.
Every field can be set in the file by its name and in the environment as ``VIBECODE_<NAME>``,
for example ``n_ctx = 16384`` or ``VIBECODE_N_CTX=16384``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from vibecode.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ENV_PREFIX = "VIBECODE_"


@dataclass(frozen=True)
class Settings:
    # Engine spec (llama:<model>, openai:<url>, replay:<file>, tiny); None means "the default model".
    engine: str | None = None
    # Model id from the registry or a path to a .gguf; used when engine is None or "llama:".
    model: str | None = None
    # Candidates per request.
    n: int = 8
    # KV cache cells at most, for all the sequences of a batch (the K candidates and the helper
    # requests). Each sequence has its own stream of cells, as long as the batch's longest sequence
    # (its prompt and budget), plus one stream for the shared prompt (engine/llama_context.py);
    # the cache grows to what a batch needs, up to n_ctx, and each sequence stays within the
    # trained context. The default holds K=8 candidates of 4,096 tokens and the three helpers with
    # prompts of up to about 4,000 tokens (12 streams of 8,192 cells; 12 x 6,144 = 73,728 with a
    # prompt under 2,000); a batch that does not fit is split into waves by the session.
    n_ctx: int = 98304
    # Layers to offload to the GPU; None = all when llama.cpp supports GPU offload, else 0.
    n_gpu_layers: int | None = None
    # CPU threads for llama.cpp; None = all cores.
    n_threads: int | None = None
    # Cores the TUI keeps for itself when n_threads is not set: llama.cpp decodes on the others,
    # so keys are answered while the model samples (0: decode on every core, as the CLI does).
    tui_reserved_cores: int = 1
    # KV cache element type for llama.cpp: "f16", or "q8_0" (half the memory; see README
    # Performance for its speed on this machine).
    kv_cache_type: str = "f16"
    # Generation budget per completion, and the thinking budget inside it (budget forcing);
    # None = the model manifest's recommendation (4096 when it has none).
    max_tokens: int | None = None
    max_think_tokens: int | None = None
    # Overrides of the model manifest's recommended sampling.
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    seed: int | None = None
    # Sandbox backend and its image.
    sandbox: str = "local"
    docker_image: str = "vibecode-sandbox:latest"
    # Where sandbox workspaces are made (None: the system temp dir). On the file system of your
    # repositories, running as root, their files are hard-linked instead of copied.
    sandbox_dir: str | None = None
    # Local sandbox isolation: "auto" (bubblewrap; refuses to run without it), or, by explicit
    # choice only, the weaker "unshare" (host writable) or "plain" (host writable, network on).
    isolation: str = "auto"
    # Processes and threads one test run may start (None: 256, or 1024 when the tests use threads
    # or processes). VIBECODE_SANDBOX_NPROCS=2048 for a suite that starts more.
    sandbox_nprocs: int | None = None
    # Disk one sandbox workspace may add, MB (a size-capped tmpfs as root; else a watch that
    # kills the run once its files pass it). VIBECODE_SANDBOX_DISK_MB=4096 for bigger suites.
    sandbox_disk_mb: int = 1024
    # The hard pre-commit hook blocks a commit on which no test was collected, unless this is true.
    precommit_allow_no_tests: bool = False
    # Wall-clock budget for one request, seconds; None = no limit.
    time_budget_s: float | None = None
    # Where --record writes completions, if anywhere.
    record: str | None = None
    # When solve stops sampling: "confident" (more candidates cannot change the decision),
    # "first-verified" (the first verified decision) or "all" (every candidate).
    until: str = "confident"

    def with_overrides(self, **values: Any) -> Settings:
        """A copy with every non-None value replaced (so unset CLI flags change nothing)."""
        known = {f.name for f in fields(self)}
        unknown = set(values) - known
        if unknown:
            raise ConfigError(f"Unknown setting(s): {', '.join(sorted(unknown))}.")
        given = {k: v for k, v in values.items() if v is not None}
        for key, value in given.items():
            check_value(key, value, "the command line")
        return dataclasses.replace(self, **given)


# The smallest (and largest) value each numeric setting accepts; a value outside is refused
# where it is given (flag, config file, environment), never reported later as a model failure.
LIMITS: dict[str, tuple[float, float | None, bool]] = {  # name -> (low, high, low is exclusive)
    "n": (1, 1024, False),
    "n_ctx": (1, None, False),
    "n_threads": (1, None, False),
    "tui_reserved_cores": (0, None, False),
    "max_tokens": (1, None, False),
    "max_think_tokens": (0, None, False),
    "temperature": (0, None, False),
    "top_p": (0, 1, True),
    "top_k": (0, None, False),
    "time_budget_s": (0, None, True),
    "sandbox_disk_mb": (1, None, False),
}
CHOICES: dict[str, tuple[str, ...]] = {"sandbox": ("local", "docker"),
                                       "until": ("confident", "first-verified", "all"),
                                       "kv_cache_type": ("f16", "q8_0")}
_FLAGS = {"time_budget_s": "--time-budget", "n": "--n", "n_ctx": "--n-ctx"}


def check_value(name: str, value: Any, source: str) -> None:
    """Refuse a setting's value outside its range, naming where it came from and the fix."""
    where = f"--{name.replace('_', '-')}" if source == "the command line" else f"{name!r} in {source}"
    if source == "the command line":
        where = _FLAGS.get(name, where)
    elif source == "environment":
        where = f"{ENV_PREFIX}{name.upper()} in the environment"
    if name in CHOICES and value not in CHOICES[name]:
        raise ConfigError(
            f"Setting {where} is {value!r}, which is not one of {', '.join(CHOICES[name])}.",
            f"Set it to one of: {', '.join(CHOICES[name])}.",
        )
    if name not in LIMITS or isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    low, high, exclusive = LIMITS[name]
    too_low = value <= low if exclusive else value < low
    if too_low or (high is not None and value > high):
        bound = f"greater than {low:g}" if exclusive else f"at least {low:g}"
        span = f"{bound}" + (f" and at most {high:g}" if high is not None else "")
        raise ConfigError(f"Setting {where} is {value!r}; it must be {span}.", f"Give a value {span}.")


def default_config_path() -> Path:
    explicit = os.environ.get(ENV_PREFIX + "CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("vibecode")) / "config.toml"


def load_settings(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Read the config file (if it exists) and the environment into one :class:`Settings`."""
    env = os.environ if environ is None else environ
    path = path or default_config_path()
    values: dict[str, Any] = {}
    if path.is_dir():
        raise ConfigError(
            f"The config file {path} is a folder, not a file (set by VIBECODE_CONFIG or the default path).",
            "Point VIBECODE_CONFIG at a config.toml file, or unset it.",
        )
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"The config file {path} is not valid TOML: {exc}.",
                "Fix the file or move it aside.",
            ) from exc
        values.update(_coerce_all(data, source=str(path)))
    env_values = {
        key[len(ENV_PREFIX) :].lower(): raw
        for key, raw in env.items()
        if key.startswith(ENV_PREFIX) and key != ENV_PREFIX + "CONFIG"
    }
    known = _field_types()
    values.update(
        _coerce_all({k: v for k, v in env_values.items() if k in known}, source="environment")
    )
    return Settings(**values)


def _field_types() -> dict[str, Any]:
    hints = typing.get_type_hints(Settings)
    return {f.name: hints[f.name] for f in fields(Settings)}


def _coerce_all(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    types_by_name = _field_types()
    out: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in types_by_name:
            raise ConfigError(
                f"Unknown setting {key!r} in {source}.",
                f"Known settings: {', '.join(sorted(types_by_name))}.",
            )
        out[key] = _coerce(key, raw, types_by_name[key], source)
        if out[key] is not None:
            check_value(key, out[key], source)
    return out


def _coerce(name: str, raw: Any, annotation: Any, source: str) -> Any:
    args = typing.get_args(annotation)  # (T, NoneType) for "T | None", () for plain T
    optional = type(None) in args
    base = next((a for a in args if a is not type(None)), annotation)
    if isinstance(raw, str):
        text = raw.strip()
        if optional and text.lower() in ("", "none", "null", "auto"):
            return None
        try:
            if base is bool:
                if text.lower() in ("1", "true", "yes", "on"):
                    return True
                if text.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError(text)
            if base is int:
                return int(text)
            if base is float:
                return float(text)
        except ValueError:
            raise ConfigError(
                f"Setting {name!r} from {source} must be {base.__name__}, got {raw!r}."
            ) from None
        return text
    if base is float and isinstance(raw, int) and not isinstance(raw, bool):
        return float(raw)
    if not isinstance(raw, base) or (base is int and isinstance(raw, bool)):
        raise ConfigError(f"Setting {name!r} from {source} must be {base.__name__}, got {raw!r}.")
    return raw
