"""Inspect's own dataframe reads each task's headline standard error (``score_headline_stderr``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from inspect_ai.analysis import evals_df, samples_df

TASKS = ("stance_drift", "press", "construction", "validation")


@pytest.mark.parametrize("task", TASKS)
def test_evals_df_has_the_headline_stderr(sim_logs, task):
    df = evals_df(str(sim_logs[task]))
    assert len(df) == 1
    se = df["score_headline_stderr"].iloc[0]
    assert se is not None and not (isinstance(se, float) and math.isnan(se)), df.iloc[0].to_dict()
    assert float(se) >= 0


def test_stance_drift_stderr_is_the_spread_of_proposition_spr(sim_logs):
    """SE = sd over propositions of mean_i T[s,i,i] / sqrt(P), from the sample scores."""
    evals = evals_df(str(sim_logs["stance_drift"]))
    samples = samples_df(str(sim_logs["stance_drift"]))
    topic = samples["metadata_topic_id"]
    per_prop = samples.groupby(topic)["score_stance_drift_scorer"].mean().to_numpy(dtype=float)
    expected = per_prop.std(ddof=1) / np.sqrt(len(per_prop))
    assert float(evals["score_headline_stderr"].iloc[0]) == pytest.approx(expected, abs=2e-3)
