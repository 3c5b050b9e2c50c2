"""The stance-drift metrics under ``--epochs N``, through Inspect's real epoch reducer
(:mod:`pytest_inspect_evals.metrics`): a sample's epochs are further trials of its
(proposition, stance), pooled trial-weighted whichever reducer runs (``--epochs-reducer``
replaces a task's own), as the log reader offsets them into further trials
(:mod:`inspect_stance.drift.logs`).

The metrics take unreduced scores (``@metric(scores="unreduced")``), so equal epochs change the
trial counts; the tests check that they leave SPR unchanged instead of
``assert_agreeing_epochs_change_nothing`` (which is for reduced metrics)."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from inspect_ai import Epochs
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Score
from inspect_stance.scorers.stance_drift import counts_metric, spr_metric
from inspect_stance.tasks.stance_drift import stance_drift
from pytest_inspect_evals.metrics import run_metrics
from scipy.stats import t as student_t

from tests.epoch_checks import logged_and_run_headlines

pytestmark = pytest.mark.usefixtures("offline_mockllm")
REDUCERS = ("mean", "mode", "max", "median")


def _score(topic: str, stance: int, kept: float, trials: int, **counts: int) -> Score:
    """One epoch of sample (topic, stance): ``kept`` on the initial stance, the rest on the
    next one, from ``trials`` trials."""
    row = [0.0] * 5
    row[stance] += kept
    row[(stance + 1) % 5] += 1 - kept
    meta: dict[str, Any] = {"topic_id": topic, "initial_stance": stance, "row": row,
                            "unparsed_policy": "failure", "n_trials": trials, "n_unparsed": 0,
                            "n_replayed": 0, "n_missing": 0, "n_incomplete": 0}  # fmt: skip
    meta.update({f"n_{k}": v for k, v in counts.items()})
    return Score(value=round(kept, 3), metadata=meta)


# Two propositions x five initial stances, two epochs each.
#   P1: epoch 1 keeps every stance (1.0, 2 trials), epoch 2 none (0.0, 3 trials):
#       pooled kept share (2 * 1 + 3 * 0) / 5 = 0.4
#   P2: epoch 1 keeps 0.5 (2 trials), epoch 2 1.0 (2 trials): pooled 0.75
# SPR = (0.4 + 0.75) / 2 = 0.575; the first epoch alone gives (1.0 + 0.5) / 2 = 0.75.
# Stance 0 of P1 has one unparsed trial in epoch 1; stance 4 of P2 stopped early in epoch 2.
SCORES = [
    *[[_score("P1", i, 1.0, 2, unparsed=int(i == 0)), _score("P1", i, 0.0, 3)] for i in range(5)],
    *[[_score("P2", i, 0.5, 2), _score("P2", i, 1.0, 2, incomplete=int(i == 4))] for i in range(5)],
]  # fmt: skip


@pytest.mark.parametrize("reducer", REDUCERS)
def test_spr_pools_epochs_as_trials_whatever_the_reducer(reducer: str) -> None:
    got = run_metrics([spr_metric()], SCORES, reducer=reducer)
    spr, se = 0.575, abs(0.4 - 0.75) / 2  # sd of two values / sqrt(2)
    q = float(student_t.ppf(0.975, 1))
    assert got["spr"] == pytest.approx(spr)
    assert got["stderr"] == pytest.approx(se)
    assert (got["n_items"], got["n_clusters"]) == (2, 2)
    assert (got["ci_low"], got["ci_high"]) == pytest.approx(
        (max(spr - q * se, 0), min(spr + q * se, 1))
    )


@pytest.mark.parametrize("reducer", REDUCERS)
def test_counts_sum_every_epoch(reducer: str) -> None:
    got = run_metrics([counts_metric()], SCORES, reducer=reducer)
    assert got["trials"] == 5 * (2 + 3) + 5 * (2 + 2)
    assert (got["unparsed"], got["trials_replayed"], got["incomplete_samples"]) == (1, 0, 1)


def test_equal_epochs_leave_spr_unchanged() -> None:
    once = run_metrics([spr_metric()], [[s[0]] for s in SCORES], reducer=None)
    thrice = run_metrics([spr_metric()], [[s[0]] * 3 for s in SCORES], reducer="mean")
    for key in ("spr", "stderr", "ci_low", "ci_high", "n_items", "n_clusters"):
        assert thrice[key] == pytest.approx(once[key]), key
    assert once["spr"] == pytest.approx(0.75)


@pytest.mark.parametrize("reducer", ["mean", None])
def test_two_epochs_agree_with_the_log_reader(tmp_path, reducer: str | None) -> None:
    """``--epochs 2`` (the default reducer) and ``--epochs 2 --epochs-reducer mean``: the log's
    SPR is the log reader's over ``trials`` x 2 trials."""

    truth = tmp_path / "T.json"
    truth.write_text(json.dumps((np.eye(5) * 0.6 + 0.08).tolist()), encoding="utf-8")
    (log,) = inspect_eval(
        stance_drift(limit_propositions=3, trials=3, cache=False),
        model="stance_sim/respondent",
        model_args={"transition": str(truth), "logprobs": "false", "seed": 5},
        log_dir=str(tmp_path / "logs"),
        display="none",
        epochs=Epochs(2, reducer) if reducer else 2,
    )
    logged, ours, metrics = logged_and_run_headlines(log, "spr", "stance_drift")
    assert logged.value == pytest.approx(ours.value, abs=1e-9)
    assert logged.se == pytest.approx(ours.se, abs=1e-9)
    assert (logged.n_items, logged.n_clusters) == (ours.n_items, ours.n_clusters) == (3, 3)
    assert metrics["trials"] == 3 * 5 * 3 * 2
    # by hand from the trial records: per proposition, the mean over stances of the share of
    # its 6 trials (both epochs) whose vector keeps the initial stance
    kept: dict[str, list[float]] = {}
    for sample in log.samples or []:
        stance = sample.metadata["initial_stance"]
        vectors = [t["probs"] for t in sample.store["trials"]]
        kept.setdefault(sample.metadata["topic_id"], []).extend(v[stance] for v in vectors)
    per = [sum(v) / len(v) for v in kept.values()]
    assert all(len(v) == 5 * 6 for v in kept.values())
    assert logged.value == pytest.approx(sum(per) / len(per), abs=1e-12)
    assert not math.isnan(logged.se)
