"""The llama.cpp library (the only module that imports ``llama_cpp``): loading it once with its log
silenced, the thread wait policy, what the build supports (doctor's section), and the native
pieces a request is made of: a sampler chain, a token's log-probability, a batch slot.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import MutableMapping, Sequence
from typing import Any

from vibecode.checks import Check
from vibecode.errors import ConfigError
from vibecode.types import SamplingParams

_lock = threading.Lock()
_log_tail: list[str] = []


def set_thread_wait(env: MutableMapping[str, str]) -> None:
    """Choose how llama.cpp's OpenMP threads wait for each other, unless the user did.

    Spinning is fastest on a quiet machine; on a busy one (a laptop running other work, parallel
    sandbox runs) it starves them. A short spin, then sleep, keeps most of both. Measured with
    the tiny model on 2 cores, tokens/s at K=1/K=8: quiet, spin 110/179, short spin
    96-112/150-188, sleep 42/131; beside two busy processes, spin under 10/50, short spin 42/76,
    sleep 60/80. (A build without OpenMP fell below 3/41 there.) Must run before llama_cpp loads.
    """
    if "OMP_WAIT_POLICY" not in env:
        env.setdefault("GOMP_SPINCOUNT", "20000")


def lib() -> Any:
    """Import llama_cpp once, silence its logging (keeping the tail for error messages)."""
    set_thread_wait(os.environ)
    import llama_cpp

    with _lock:
        if not getattr(lib, "ready", False):
            llama_cpp.llama_backend_init()

            @llama_cpp.llama_log_callback
            def _quiet(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
                _log_tail.append(text.decode("utf-8", "replace"))
                del _log_tail[:-40]

            lib.callback = _quiet  # type: ignore[attr-defined]  # keep it alive
            llama_cpp.llama_log_set(_quiet, ctypes.c_void_p(0))
            lib.ready = True  # type: ignore[attr-defined]
    return llama_cpp


def clear_log() -> None:
    """Forget the log so far (before a load whose failure reason we want)."""
    _log_tail.clear()


def load_error() -> str:
    """The reason llama.cpp logged for a failed load, in one line."""
    marker = "error loading model:"
    for line in _log_tail:
        if marker in line:
            return line.split(marker, 1)[1].strip().rstrip(".")
    lines = [line.strip() for line in _log_tail if line.strip()]
    return lines[-1] if lines else "no reason given"


def backend_name(system_info: str, gpu_offload: bool) -> str:
    """The accelerator llama.cpp was built for, from ``llama_print_system_info``."""
    for name in ("CUDA", "Metal", "Vulkan", "ROCm", "HIP", "SYCL"):
        if name.upper() in system_info.upper():
            return name
    return "GPU" if gpu_offload else "CPU"


def build_info() -> dict[str, Any]:
    """What this llama-cpp-python build can do (used by doctor and info())."""
    llama_cpp = lib()
    system_info = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    offload = bool(llama_cpp.llama_supports_gpu_offload())
    return {
        "version": llama_cpp.__version__,
        "gpu_offload": offload,
        "backend": backend_name(system_info, offload),
        "system_info": system_info,
    }


def diagnose() -> list[Check]:
    try:
        info = build_info()
    except ImportError as exc:
        return [Check("llama-cpp-python", False, f"not importable: {exc}", "Run scripts/setup.")]
    checks = [
        Check("llama-cpp-python", True, f"version {info['version']}"),
        Check("backend", True, f"{info['backend']} ({info['system_info']})"),
    ]
    fix = (
        None
        if info["gpu_offload"]
        else (
            "For GPU offload rebuild: CMAKE_ARGS='-DGGML_CUDA=on' scripts/setup (or -DGGML_METAL=on)."
        )
    )
    detail = "supported" if info["gpu_offload"] else "not supported by this build (CPU only)"
    checks.append(Check("gpu_offload", info["gpu_offload"], detail, fix))
    return checks


def make_sampler(ll: Any, params: SamplingParams, seed: int, n_vocab: int, eog: Sequence[int]) -> Any:
    """A native sampler chain for one sequence: a bias against the end-of-generation tokens when
    they are ignored, then greedy, or top-k, top-p, min-p, temperature and a seeded draw."""
    chain = ll.llama_sampler_chain_init(ll.llama_sampler_chain_default_params())
    add = ll.llama_sampler_chain_add
    if params.ignore_eos:
        biases = (ll.llama_logit_bias * len(eog))(*[(t, float("-inf")) for t in eog])
        add(chain, ll.llama_sampler_init_logit_bias(n_vocab, len(eog), biases))
    if params.temperature <= 0:
        add(chain, ll.llama_sampler_init_greedy())
        return chain
    if params.top_k > 0:
        add(chain, ll.llama_sampler_init_top_k(params.top_k))
    if params.top_p < 1.0:
        add(chain, ll.llama_sampler_init_top_p(params.top_p, 1))
    if params.min_p > 0:
        add(chain, ll.llama_sampler_init_min_p(params.min_p, 1))
    add(chain, ll.llama_sampler_init_temp(params.temperature))
    add(chain, ll.llama_sampler_init_dist(seed))
    return chain



KV_TYPES = ("f16", "q8_0")


def kv_type(ll: Any, name: str) -> int:
    """The ggml type of a KV cache setting ("f16" or "q8_0")."""
    if name not in KV_TYPES:
        raise ConfigError(f"KV cache type {name!r} is not one of {', '.join(KV_TYPES)}.",
                          "Set kv_cache_type to f16 or q8_0.")
    return int(ll.GGML_TYPE_Q8_0 if name == "q8_0" else ll.GGML_TYPE_F16)


def logits_at(ll: Any, ctx: Any, index: int, n_vocab: int) -> Any:
    """The logits at batch ``index`` as a numpy view (valid until the next decode)."""
    import numpy as np

    return np.ctypeslib.as_array(ll.llama_get_logits_ith(ctx, index), shape=(n_vocab,))


def token_logprob(ll: Any, ctx: Any, index: int, token: int, n_vocab: int) -> float:
    """The log-probability of ``token`` under the logits at batch ``index``."""
    import numpy as np

    logits = logits_at(ll, ctx, index, n_vocab).astype(np.float64)
    top = logits.max()
    return float(logits[token] - top - np.log(np.exp(logits - top).sum()))


def batch_add(batch: Any, token: int, pos: int, seq_id: int | Sequence[int], logits: bool) -> None:
    """Add a token at ``pos`` of one sequence, or of several that share it (a shared prompt)."""
    i = batch.n_tokens
    batch.token[i] = token
    batch.pos[i] = pos
    ids = (seq_id,) if isinstance(seq_id, int) else seq_id
    batch.n_seq_id[i] = len(ids)
    for k, one in enumerate(ids):
        batch.seq_id[i][k] = one
    batch.logits[i] = logits
    batch.n_tokens = i + 1
