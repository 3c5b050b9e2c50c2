"""Open-model routes on the local server: Inspect's ``vllm/`` provider connected to an
already-running OpenAI-compatible server (``VLLM_BASE_URL`` / ``base_url``), the same way it
talks to the vLLM server it starts itself; ``openai-api/`` is covered by the other wire tests.
"""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, get_model
from inspect_stance.tasks.stance_drift import stance_drift
from wire_support import API_KEY, letter_vector

GEN_MARK = "WIRE-ARGUMENT"


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    return "The answer is C." if GEN_MARK in text else f"{GEN_MARK}: a short argument."


def test_vllm_provider_on_an_existing_server(serve, tmp_path):
    server = serve(script, models=("Qwen/Qwen2.5-0.5B-Instruct",))
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    model = get_model(
        "vllm/Qwen/Qwen2.5-0.5B-Instruct",
        base_url=server.base_url,
        api_key=API_KEY,
        memoize=False,
        config=GenerateConfig(max_retries=2, timeout=60),
    )
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, words_limit=20, cache=False),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    requests = server.chat_requests("Qwen/Qwen2.5-0.5B-Instruct")
    assert len(requests) == 20
    extraction = [r for r in requests if r.body.get("logprobs")]
    assert len(extraction) == 10 and all(r.body["top_logprobs"] >= 5 for r in extraction)
    expected = letter_vector(extraction[0].response["choices"][0]["logprobs"]["content"], "C")
    records = [r for s in read_eval_log(log.location).samples for r in s.store["trials"]]
    assert len(records) == 10
    for rec in records:
        assert rec["estimator"] == "logprobs"
        assert rec["probs"] == pytest.approx(expected, abs=1e-12)
