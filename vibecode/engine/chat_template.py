"""Render a chat into a prompt with the model's own template (from its GGUF), else ChatML.

Templates are Jinja2 as on the Hugging Face hub; they run in Jinja's immutable sandbox, since a
downloaded model file is not trusted code.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from vibecode.errors import ModelLoadError
from vibecode.types import ChatMessage


def render_chatml(messages: Sequence[ChatMessage]) -> str:
    parts = [f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages]
    return "".join(parts) + "<|im_start|>assistant\n"


def render_chat(
    template: str | None,
    messages: Sequence[ChatMessage],
    bos_token: str = "",
    eos_token: str = "",
) -> str:
    """The prompt text for ``messages``, ending with the assistant's generation header."""
    if not template:
        return render_chatml(messages)
    import jinja2
    import jinja2.ext
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str) -> None:
        raise jinja2.TemplateError(message)

    def tojson(value: Any, indent: int | None = None, **_: Any) -> str:
        return json.dumps(value, ensure_ascii=False, indent=indent)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    try:
        return env.from_string(template).render(
            messages=[{"role": m.role, "content": m.content} for m in messages],
            bos_token=bos_token,
            eos_token=eos_token,
            add_generation_prompt=True,
            raise_exception=raise_exception,
            strftime_now=lambda fmt: datetime.now().strftime(fmt),
        )
    except jinja2.TemplateError as exc:
        raise ModelLoadError(
            f"The model's chat template failed to render: {exc}.",
            "The GGUF's tokenizer.chat_template may be broken.",
        ) from exc
