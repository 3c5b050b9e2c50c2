"""The judge_validation task on the shared IssueBench annotations with scripted judges."""

from __future__ import annotations

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import get_model
from inspect_stance.tasks.judge_validation import judge_validation

from inspect_stance.construction.labels import parse_label

N = 30


def test_judge_validation_on_shared_annotations(shared_data, tmp_path):
    path = shared_data / "issuebench" / "stance_annotations.csv"
    judges = [
        get_model(f"construction_sim/judge_{k}", memoize=False)
        for k in ("exact", "noisy", "neutral")
    ]
    (log,) = inspect_eval(
        judge_validation(annotations=str(path)),
        model_roles={"judges": judges},
        limit=N,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    log = read_eval_log(log.location)
    m = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    human = [parse_label(x) for x in pd.read_csv(path)["final_label"][:N]]
    outcomes = [s.scores["stance_ensemble"].value for s in sorted(log.samples, key=lambda s: s.id)]
    pairs = [
        (o, h)
        for o, h in zip(outcomes, human, strict=True)
        if o in {"1", "2", "3", "4", "5", "refusal"}
    ]
    assert m["n_labelled"] == N
    assert m["no_ensemble_label"] == N - len(pairs)
    assert m["exact"] == pytest.approx(sum(o == h for o, h in pairs) / len(pairs))
    neutral_judge = [
        s.scores["stance_ensemble"].metadata["judge_labels"]["construction_sim/judge_neutral"]
        for s in sorted(log.samples, key=lambda s: s.id)
    ]
    assert set(neutral_judge) == {"3"}
    assert m["judge3_exact"] == pytest.approx(sum(h == "3" for h in human) / N)
    assert 0.0 < m["humans_alpha_ordinal"] <= 1.0


def test_judge_validation_bad_file(tmp_path):
    with pytest.raises(ValueError, match="needs -T annotations=FILE"):
        judge_validation()
    bad = tmp_path / "a.csv"
    bad.write_text(
        "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label\np,r,n,a,b,7\n"
    )
    with pytest.raises(ValueError, match="data row 1 has final_label='7'"):
        judge_validation(annotations=str(bad))
