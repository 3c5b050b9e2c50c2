"""inspect_stance.analysis: the documented columns on real simulator runs, and the docs page's
worked example executed as written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from inspect_ai.analysis import evals_df, samples_df

from inspect_stance.analysis import items_df, runs_df
from inspect_stance.drift.dataframes import trials_df
from inspect_stance.stances import STANCE_KEYS

DOC = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"


def test_runs_df_one_row_per_run_with_the_headline_interval(sim_logs):
    runs = runs_df(list(sim_logs.values()))
    assert sorted(runs["method"]) == sorted(
        ["stance_drift", "press", "prompt_construction", "prompt_validation"]
    )
    assert runs["headline_stderr"].notna().all()
    assert (runs["ci_lo"] <= runs["headline_value"]).all()
    assert (runs["headline_value"] <= runs["ci_hi"]).all()
    # joins with Inspect's own table
    inspect_ids = set(evals_df([str(p) for p in sim_logs.values()])["eval_id"])
    assert set(runs["eval_id"]) == inspect_ids
    by = runs.set_index("method")
    assert by.loc["stance_drift", "n_samples"] == 25  # 5 propositions x 5 stances
    assert by.loc["press", "n_samples"] == 6
    # the headline columns are the log's headline metric values, not recomputed
    for method, path in sim_logs.items():
        from inspect_ai.log import list_eval_logs, read_eval_log

        (info,) = list_eval_logs(str(path))
        log = read_eval_log(info, header_only=True)
        row = runs.set_index("eval_id").loc[log.eval.eval_id]
        metrics = {k: m.value for k, m in log.results.scores[0].metrics.items()}
        assert row["headline_metric"] == next(iter(metrics)), method
        assert row["headline_value"] == metrics[row["headline_metric"]]
        assert row["headline_stderr"] == metrics["stderr"]
        assert (row["ci_lo"], row["ci_hi"]) == (metrics["ci_low"], metrics["ci_high"])
        assert (row["n_items"], row["n_clusters"]) == (metrics["n_items"], metrics["n_clusters"])


def test_items_df_one_row_per_item_and_value(sim_logs):
    items = items_df(sim_logs["press"])
    assert list(items.columns) == [
        "eval_id", "task_name", "model", "sample_id", "id", "epoch", "item", "cluster", "level",
        "score", "value",
    ]  # fmt: skip
    # PReSS scores are dicts of three counts: one row each
    items = items[items["level"] == "sample"]
    assert len(items) == 6 * 3
    assert set(items["score"]) == {"stable", "unstable", "no_label"}
    drift = items_df(sim_logs["stance_drift"])
    drift = drift[drift["level"] == "sample"]
    assert len(drift) == 25 and drift["item"].nunique() == 5


def test_trials_df_one_row_per_trial_with_the_distribution(sim_logs):
    trials = trials_df(sim_logs["stance_drift"])
    assert len(trials) == 25 * 10
    probs = trials[[f"p_{k}" for k in STANCE_KEYS]].to_numpy(dtype=float)
    assert np.allclose(probs.sum(axis=1), 1.0)
    rows = np.arange(len(trials))
    assert np.allclose(trials["kept"], probs[rows, trials["initial_stance"].to_numpy()])
    assert set(trials["estimator"]) <= {"logprobs", "frequency"}
    # the trials' kept probabilities average to the sample scores (value = mean over trials)
    samples = samples_df(sim_logs["stance_drift"])
    score = samples.set_index("sample_id")["score_stance_drift_scorer"].astype(float)
    mean_kept = trials.groupby("sample_id")["kept"].mean()
    assert np.allclose(mean_kept.loc[score.index], score, atol=1e-3)
    # other tasks' logs are skipped
    assert trials_df(sim_logs["press"]).empty


def test_the_docs_worked_example_runs(sim_logs, capsys):
    blocks = re.findall(r"```python analysis\n(.*?)```", DOC.read_text(), re.S)
    assert blocks, "docs/analysis.md lost its worked example"
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), {"LOGS": str(sim_logs["stance_drift"])})
    out = capsys.readouterr().out
    assert "trials joined to 25 samples" in out


@pytest.mark.parametrize("fn", [runs_df, items_df, trials_df])
def test_an_empty_list_gives_an_empty_frame(fn):
    assert fn([]).empty
