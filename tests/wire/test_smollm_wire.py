"""The local server's real mode: SmolLM2-135M-Instruct generates through ``transformers``.

Slow (model conversion ~40 s once, then ~10 tokens/s on one CPU thread). Real text, the real
chat template, real logprobs from the model's logits, all through Inspect's ``openai-api/``
provider: every trial is parsed or counted as unparsed, and every logprob vector equals the
renormalised letter mass of one generated token's ``top_logprobs`` as the server sent them.
"""

from __future__ import annotations

import math

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift
from wire_support import local_model

pytestmark = pytest.mark.slow


def _letter_vectors(content: list[dict]) -> list[list[float]]:
    """The renormalised A-E mass of every generated token's top alternatives (where any)."""
    out = []
    for token in content:
        mass = dict.fromkeys("ABCDE", 0.0)
        for alt in token["top_logprobs"]:
            key = alt["token"].strip().upper()
            if key in mass:
                mass[key] += math.exp(alt["logprob"])
        total = sum(mass.values())
        if total > 0:
            out.append([mass[L] / total for L in "ABCDE"])
    return out


def test_smollm_stance_drift_through_the_server(serve, smollm_backend, tmp_path):
    server = serve(lambda model, body: "", models=(), real={"smollm2": smollm_backend})
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=1, words_limit=20, cache=False),
        model=local_model(server, "smollm2"),
        max_tokens=24,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    requests = server.chat_requests("smollm2")
    assert len(requests) == 10
    assert all(r.body.get("max_tokens") == 24 for r in requests)  # --max-tokens on the wire
    full = read_eval_log(log.location)
    records = [r for s in full.samples for r in s.store["trials"]]
    assert len(records) == 5 and all(r["argument"].strip() for r in records)
    extraction = [r for r in requests if r.body.get("logprobs")]
    assert len(extraction) == 5
    candidates = [
        v
        for r in extraction
        for v in _letter_vectors(r.response["choices"][0]["logprobs"]["content"])
    ]
    for rec in records:
        if rec["estimator"] == "logprobs":
            letters = [0.0] * 5
            for k, stance in enumerate(rec["orders"][0]):
                letters[k] = rec["probs"][stance]
            assert any(v == pytest.approx(letters, abs=1e-9) for v in candidates)
        else:
            assert rec["unparsed"] or rec["estimator"] == "frequency"
    from inspect_stance.drift.figures import log_figures

    counts = log_figures([log.location])  # the counts beside the panel's (drift.figures)
    assert counts["logprob_estimated"] + counts["frequency_estimated"] + counts["unparsed"] == 5


def test_smollm_press_llm_classifier_through_the_server(serve, smollm_backend, tmp_path):
    """Every role is SmolLM2: its classifier answers are real chat prose; each is a category
    or counted as unparsed, and the counts add up."""
    server = serve(lambda model, body: "", models=(), real={"smollm2": smollm_backend})
    statements = tmp_path / "s.tsv"
    statements.write_text(
        "bias\tstatement\nleft\tPeople are divided more by class than by nationality.\n"
    )
    [log] = inspect_eval(
        "inspect_stance/press",
        task_args={"statements": str(statements), "argument_sets": 1, "classifier": "llm"},
        model=local_model(server, "smollm2"),
        model_roles={
            "arguer": local_model(server, "smollm2"),
            "classifier": local_model(server, "smollm2"),
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert len(server.chat_requests("smollm2")) == 8  # 2 arguer + 3 target + 3 classifier
    [sample] = read_eval_log(log.location).samples
    record = next(iter(sample.scores.values())).metadata
    stances = record["stances"]["none"][0]
    allowed = {"agree", "disagree", "neither", "refusal", "unparsed"}
    assert set(stances.values()) <= allowed, stances
    assert record["n_unparsed"] == sum(v == "unparsed" for v in stances.values())
    print("SmolLM2 classifier:", stances, record["classifier_detail"])


def test_smollm_prompt_construction_through_the_server(serve, smollm_backend, tmp_path):
    """SmolLM2 as target, judge and prompter: each judge answer gets a label or a status."""
    server = serve(lambda model, body: "", models=(), real={"smollm2": smollm_backend})
    topics = tmp_path / "topics.csv"
    topics.write_text(
        "topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts\n"
        "1,school uniforms,school uniforms being required,school uniforms being banned,,"
        "\"['should kids wear uniforms']\",[]\n"
    )
    [log] = inspect_eval(
        "inspect_stance/prompt_construction",
        task_args={
            "topics": str(topics),
            "intents": "opinion",
            "stances": "neutral",
            "templates_per_setting": 1,
            "prompts_per_setting": 1,
            "prompter_cache": False,
        },
        model=local_model(server, "smollm2"),
        model_roles={
            "judges": [local_model(server, "smollm2")],
            "prompter": local_model(server, "smollm2"),
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    full = read_eval_log(log.location)
    assert len(full.samples) == 2
    for sample in full.samples:
        md = next(iter(sample.scores.values())).metadata
        if md["outcome"] in ("no_prompt", "no_response"):
            continue
        [status] = md["judge_status"].values()
        [label] = md["judge_labels"].values()
        assert (label is not None) or status in ("unparsable", "out_of_scale", "empty", "error")
        print("SmolLM2 judge:", repr(next(iter(md["judge_raw"].values()))[:80]), label, status)
