"""The test server itself speaks OpenAI's protocol: checked with the official ``openai`` SDK,
whose pydantic models parse every response (so a wrong shape fails here, not in a task test)."""

from __future__ import annotations

import json

import pytest
from openai import BadRequestError, NotFoundError, OpenAI
from openai_server import Reply

MESSAGES = [{"role": "user", "content": "Which option? Answer with a letter."}]


def script(model: str, body: dict) -> Reply | str:
    return "The answer is B.\n\nIt is the closest to the argument."


@pytest.fixture(scope="module")
def server(serve):
    return serve(script, models=("m",))


@pytest.fixture(scope="module")
def client(server):
    return OpenAI(base_url=server.base_url, api_key="k", max_retries=0)


def test_tokens_are_the_real_tokenizer_s_and_logprobs_are_real_shaped(client, vocab):
    out = client.chat.completions.create(
        model="m", messages=MESSAGES, logprobs=True, top_logprobs=5
    )
    choice = out.choices[0]
    assert choice.message.content == script("m", {})
    assert choice.finish_reason == "stop"
    content = choice.logprobs.content
    ids = vocab.encode(script("m", {}))
    assert [c.token for c in content] == [vocab.tokenizer.decode([i]) for i in ids]
    assert b"".join(bytes(c.bytes) for c in content).decode() == script("m", {})
    for c in content:
        assert len(c.top_logprobs) == 5
        assert c.top_logprobs[0].token == c.token and c.top_logprobs[0].logprob == c.logprob
        lps = [t.logprob for t in c.top_logprobs]
        assert lps == sorted(lps, reverse=True) and all(lp <= 0 for lp in lps)
    # " B" stands alone: the alternatives are the other letters with the same prefix
    b = next(c for c in content if c.token == " B")
    assert {t.token for t in b.top_logprobs} == {" A", " B", " C", " D", " E"}
    assert out.usage.completion_tokens == len(ids)
    assert out.usage.total_tokens == out.usage.prompt_tokens + out.usage.completion_tokens


@pytest.mark.parametrize("key", ["max_tokens", "max_completion_tokens"])
def test_token_limit_truncates_with_finish_reason_length(client, key):
    out = client.chat.completions.create(model="m", messages=MESSAGES, **{key: 4})
    assert out.choices[0].finish_reason == "length"
    assert out.choices[0].message.content == "The answer is B"
    assert out.usage.completion_tokens == 4
    assert out.choices[0].logprobs is None  # not asked for


def test_n_choices(client):
    out = client.chat.completions.create(model="m", messages=MESSAGES, n=3)
    assert [c.index for c in out.choices] == [0, 1, 2]


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [
        ({"extra_body": {"temperature_schedule": 1}}, "temperature_schedule"),
        ({"top_logprobs": 3}, "top_logprobs"),  # without logprobs=true
        ({"logprobs": True, "top_logprobs": 21}, "top_logprobs"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": 5, "max_completion_tokens": 5}, "max_tokens"),
    ],
)
def test_bad_requests_are_400_with_openai_error_json(client, server, kwargs, param):
    with pytest.raises(BadRequestError) as info:
        client.chat.completions.create(model="m", messages=MESSAGES, **kwargs)
    error = info.value.body
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == "invalid_request_error" and error["param"] == param


def test_unknown_model_is_404_and_models_are_listed(client):
    with pytest.raises(NotFoundError) as info:
        client.chat.completions.create(model="nope", messages=MESSAGES)
    assert info.value.body["code"] == "model_not_found"
    assert [m.id for m in client.models.list().data] == ["m"]


def test_streaming_chunks_rebuild_the_completion(client):
    stream = client.chat.completions.create(
        model="m",
        messages=MESSAGES,
        stream=True,
        stream_options={"include_usage": True},
        logprobs=True,
        top_logprobs=2,
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == script("m", {})
    tokens = [
        lp.token
        for c in chunks
        if c.choices and c.choices[0].logprobs
        for lp in c.choices[0].logprobs.content
    ]
    assert "".join(tokens) == text
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens == len(tokens)
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finishes[-1] == "stop"


def test_every_request_is_recorded(client, server):
    before = len(server.requests)
    client.chat.completions.create(model="m", messages=MESSAGES, max_tokens=7, temperature=0)
    rec = server.requests[before]
    assert rec.status == 200 and rec.via == "http"
    assert rec.body["max_tokens"] == 7 and rec.body["temperature"] == 0


def test_files_and_batches(client, server):
    line = (
        '{"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", '
        '"body": {"model": "m", "messages": [{"role": "user", "content": "hi"}], '
        '"logprobs": true, "top_logprobs": 2}}\n'
    )
    uploaded = client.files.create(file=("in.jsonl", line.encode()), purpose="batch")
    batch = client.batches.create(
        input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h"
    )
    assert batch.status == "validating"
    assert client.batches.retrieve(batch.id).status == "in_progress"
    done = client.batches.retrieve(batch.id)
    assert done.status == "completed" and done.request_counts.completed == 1
    output = client.files.content(done.output_file_id).text
    [row] = [json.loads(x) for x in output.splitlines()]
    assert row["custom_id"] == "r1" and row["response"]["status_code"] == 200
    body = row["response"]["body"]
    assert body["object"] == "chat.completion"
    assert len(body["choices"][0]["logprobs"]["content"][0]["top_logprobs"]) == 2
