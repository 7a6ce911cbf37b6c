"""Any OpenAI-compatible chat server: llama.cpp's llama-server, vLLM, Ollama, llama_cpp.server.

The n completions of a request are n streaming requests run concurrently (servers differ in
whether they honour ``n``), each with its own seed. Reasoning the server sends separately
(``reasoning_content``) is folded back into ``<think>...</think>`` so that every engine's
completions look alike. Budget forcing is best effort here: when the thinking passes its budget
the stream is closed and one follow-up request continues from the reasoning so far plus the
text that closes the think block.
"""

from __future__ import annotations

import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from vibecode.engine.base import CANDIDATE, StreamingEngine, make_completion, sequence_seeds
from vibecode.engine.replay import approx_tokens
from vibecode.engine.text import BUDGET_FORCE_TEXT, THINK_CLOSE, THINK_OPEN, SequenceText
from vibecode.errors import EngineError
from vibecode.types import (
    ChatMessage,
    EngineInfo,
    FinishReason,
    SamplingParams,
    SequenceDone,
    StreamEvent,
    TokenDelta,
)

TIMEOUT_S = 600.0


class OpenAIEngine(StreamingEngine):
    def __init__(self, base_url: str, model: str | None = None, api_key: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        if not self.base_url.endswith("/v1"):
            self.base_url += "/v1"
        self.api_key = api_key
        self.model = model or self._first_model()

    # -- HTTP ----------------------------------------------------------------------------------

    def _request(self, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=TIMEOUT_S)
        except urllib.error.HTTPError as exc:
            detail = exc.read(500).decode("utf-8", "replace")
            raise EngineError(
                f"The server at {self.base_url} answered {exc.code} to {path}: {detail}"
            ) from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise EngineError(
                f"Cannot reach the OpenAI-compatible server at {self.base_url}: {reason}.",
                "Start the server, or check the URL in --engine openai:<base url>.",
            ) from exc

    def _first_model(self) -> str:
        with self._request("/models") as response:
            listing = json.load(response)
        models = listing.get("data") or []
        return str(models[0]["id"]) if models else "default"

    # -- streaming -----------------------------------------------------------------------------

    def stream(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        n: int = 1,
        *,
        purpose: str = CANDIDATE,
        cancel: threading.Event | None = None,
    ) -> Iterator[StreamEvent]:
        events: queue.Queue[StreamEvent | BaseException | None] = queue.Queue()
        halt = threading.Event()  # set when the consumer stops listening

        def stopped() -> bool:
            return halt.is_set() or (cancel is not None and cancel.is_set())

        def worker(seq: int, seed: int) -> None:
            try:
                for event in self._one(seq, seed, messages, params, stopped):
                    events.put(event)
            except BaseException as exc:  # handed to the consumer, raised there
                events.put(exc)
            finally:
                events.put(None)

        threads = [
            threading.Thread(target=worker, args=(i, seed), daemon=True)
            for i, seed in enumerate(sequence_seeds(params, n))
        ]
        for thread in threads:
            thread.start()
        running = len(threads)
        try:
            while running:
                item = events.get()
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield item
        finally:
            halt.set()

    def _one(
        self,
        seq: int,
        seed: int,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stopped: Callable[[], bool],
    ) -> Iterator[StreamEvent]:
        started = time.monotonic()
        text = SequenceText(params.stop, params.max_think_tokens, params.prefill)
        chat = [{"role": m.role, "content": m.content} for m in messages]
        if params.prefill:
            chat.append({"role": "assistant", "content": params.prefill})
        finish: FinishReason = "stop"
        logprob = 0.0
        prompt_tokens = sum(approx_tokens(m.content) for m in messages)
        for attempt in range(2):
            body = self._body(chat, params, seed, params.max_tokens - text.tokens)
            reasoning_open = False
            finish = "stop"
            with self._request("/chat/completions", body) as response:
                for chunk in _sse(response):
                    if stopped():
                        finish = "cancelled"
                        break
                    prompt_tokens = chunk.get("usage", {}).get("prompt_tokens", prompt_tokens)
                    for choice in chunk.get("choices", [])[:1]:
                        delta = choice.get("delta") or {}
                        piece = delta.get("reasoning_content") or ""
                        if piece and not reasoning_open:
                            piece, reasoning_open = THINK_OPEN + piece, True
                        content = delta.get("content") or ""
                        if content and reasoning_open:
                            content, reasoning_open = THINK_CLOSE + content, False
                        if piece or content:
                            visible = text.feed((piece + content).encode())
                            yield TokenDelta(seq, visible, text.tokens, text.phase)
                        for item in (choice.get("logprobs") or {}).get("content") or []:
                            logprob += float(item.get("logprob", 0.0))
                        if choice.get("finish_reason") == "length":
                            finish = "length"
                    if text.stopped or text.needs_budget_forcing():
                        break
            if attempt == 0 and text.needs_budget_forcing() and not stopped():
                text.budget_forced = True
                visible = text.force(BUDGET_FORCE_TEXT)
                yield TokenDelta(seq, visible, text.tokens, text.phase, budget_forced=True)
                chat = [*chat, {"role": "assistant", "content": text.text}]
                continue
            break
        if text.tokens >= params.max_tokens and not text.stopped:
            finish = "length"
        tail = text.finish()
        if tail:
            yield TokenDelta(seq, tail, text.tokens, text.phase)
        completion = make_completion(
            seq,
            text,
            finish,
            prompt_tokens,
            seed,
            time.monotonic() - started,
            logprob if params.logprobs else None,
        )
        yield SequenceDone(seq, completion)

    def _body(
        self, chat: list[dict[str, str]], params: SamplingParams, seed: int, max_tokens: int
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": chat,
            "stream": True,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "max_tokens": max(1, max_tokens),
            "seed": seed,
        }
        if params.top_k > 0:
            body["top_k"] = params.top_k
        if params.min_p > 0:
            body["min_p"] = params.min_p
        if params.stop:
            body["stop"] = list(params.stop)
        if params.logprobs:
            body["logprobs"] = True
        if params.ignore_eos:
            body["ignore_eos"] = True
        return body

    def count_tokens(self, text: str) -> int:
        """The server's tokenizer when it has one (llama-server, llama_cpp.server), else an estimate."""
        root = self.base_url[: -len("/v1")]
        for url, key in ((root + "/tokenize", "tokens"), (root + "/extras/tokenize", "tokens")):
            try:
                request = urllib.request.Request(
                    url,
                    json.dumps({"content": text, "input": text}).encode(),
                    {"Content-Type": "application/json"},
                )
                with urllib.request.urlopen(request, timeout=10) as response:
                    return len(json.load(response)[key])
            except (urllib.error.URLError, OSError, KeyError, ValueError):
                continue
        return approx_tokens(text)

    def info(self) -> EngineInfo:
        return EngineInfo(
            engine="openai",
            model=self.model,
            backend="remote",
            gpu_layers=0,
            n_ctx=0,
            extra={"url": self.base_url},
        )


def _sse(response: Any) -> Iterator[dict[str, Any]]:
    """The JSON objects of a server-sent-events stream, up to ``[DONE]``."""
    for raw in response:
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data:"):
            continue
        payload = line[len("data:") :].strip()
        if payload == "[DONE]":
            return
        try:
            yield json.loads(payload)
        except json.JSONDecodeError:
            continue
