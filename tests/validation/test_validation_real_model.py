"""prompt_validation with a real small model (SmolLM2-135M-Instruct, Inspect's ``hf`` provider).

The model mostly does not follow the answer formats: the point is that its answers are kept,
counted as parsed or unparsed, and never guessed.
"""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig, get_model

pytestmark = pytest.mark.slow


def test_smollm_annotations_are_kept_and_counted(smollm_dir, tmp_path):
    topics = tmp_path / "topics.csv"
    topics.write_text(
        "topic_id,topic_neutral,topic_pro,topic_con\n"
        "7,school uniforms,school uniforms being good,school uniforms being bad\n"
    )
    prompts = tmp_path / "generated.csv"
    prompts.write_text(
        "topic_id,intent,stance,method,slot,prompt_text\n"
        "7,opinion,neutral,generated,0,Do uniforms at school actually help? What do you think?\n"
    )
    smollm = get_model(
        "hf/local",
        model_path=str(smollm_dir),
        do_sample=False,
        config=GenerateConfig(max_tokens=32),
        memoize=False,
    )
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={
            "topics": str(topics),
            "intents": "opinion",
            "stances": "neutral",
            "sources": "templated,generated",
            "per_source": 1,
            "prompts_from": str(prompts),
        },
        model_roles={"annotators": [smollm, get_model("annotator_sim/lexical")]},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    log = read_eval_log(log.location)
    # the role's own max_tokens wins over the task default (256 / 128)
    configs = log.eval.metadata["annotator_configs"]
    assert configs["hf/local"]["labels"]["max_tokens"] == 32
    assert configs["annotator_sim/lexical"]["labels"]["max_tokens"] == 128
    m = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert m["failed_calls"] == 0
    from inspect_stance.validation.figures import log_figures

    m = {**log_figures([log.location]), **m}  # the counts beside the panel's
    record = log.samples[0].scores["validation_record"].metadata
    real = record["annotations"][0]
    assert real["annotator"] == "hf/local"
    assert real["ranking_raw"].strip()  # a real answer, kept
    statuses = [real["ranking_status"]] + [
        s for label in real["labels"].values() for s in label["status"].values()
    ]
    assert set(statuses) <= {"ok", "unparsed"}
    # every unparsed answer of the real model is counted; the scripted one parses them all
    assert m["unparsed_ranking"] == (real["ranking_status"] == "unparsed")
    for field in ("intent", "stance", "side"):
        counted = sum(label["status"][field] == "unparsed" for label in real["labels"].values())
        assert m[f"unparsed_{field}"] == counted
