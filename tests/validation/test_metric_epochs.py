"""The prompt-validation metrics under ``--epochs N``, through Inspect's real epoch reducer
(:mod:`pytest_inspect_evals.metrics`): each epoch's ranking is one more ranking of its setting
(the headline's cluster), whichever reducer runs, and the log reader
(:class:`inspect_stance.validation.compare.ValidationRun`) agrees with the log.

The metrics take unreduced scores (``@metric(scores="unreduced")``), so equal epochs may change
counts; the tests check that they leave the headline's value unchanged instead of
``assert_agreeing_epochs_change_nothing`` (which is for reduced metrics)."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import Epochs
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Score
from inspect_stance.scorers.prompt_validation import realism, realism_headline
from pytest_inspect_evals.metrics import run_metrics

from tests.epoch_checks import logged_and_run_headlines

pytestmark = pytest.mark.usefixtures("offline_mockllm")
REDUCERS = ("mean", "mode", "max")
ITEMS = [{"item_id": "r", "source": "real"}, {"item_id": "t", "source": "templated"},
         {"item_id": "g", "source": "generated"}]  # fmt: skip


def _record(setting: str, ranks: dict[str, int], failed: bool = False) -> Score:
    """One setting's score in one epoch: annotator a1's ranking (and with ``failed`` a second
    annotator whose ranking call failed)."""
    annotations: list[dict[str, Any]] = [
        {"annotator": "a1", "ranking_status": "ok", "ranks": ranks, "labels": {}}
    ]
    if failed:
        annotations.append(
            {"annotator": "a2", "ranking_status": "error", "ranks": {}, "labels": {}}
        )
    meta = {"setting": setting, "items": ITEMS, "annotations": annotations, "missing": []}
    return Score(value=1.0, metadata=meta)


# three settings (samples), two epochs each: a1's ranks of the real, templated and generated
# prompt. The generated prompt's ranks: s1 3, 2; s2 1, 2; s3 3, 2 (first epoch alone: 7/3).
SCORES = [
    [_record("s1", {"r": 1, "t": 2, "g": 3}), _record("s1", {"r": 1, "t": 3, "g": 2})],
    [_record("s2", {"r": 2, "t": 3, "g": 1}), _record("s2", {"r": 1, "t": 3, "g": 2})],
    [_record("s3", {"r": 2, "t": 1, "g": 3}), _record("s3", {"r": 3, "t": 1, "g": 2}, failed=True)],
]  # fmt: skip


@pytest.mark.parametrize("reducer", REDUCERS)
def test_mean_rank_generated_takes_every_epoch(reducer: str) -> None:
    got = run_metrics([realism_headline()], SCORES, reducer=reducer)
    assert got["mean_rank_generated"] == pytest.approx(13 / 6)
    # one rank per epoch in every setting: the clustered standard error is sd(setting means)
    # / sqrt(G), setting means 2.5, 1.5, 2.5 around 13/6: sqrt((1/9 + 4/9 + 1/9) / (3 * 2))
    assert got["stderr"] == pytest.approx(1 / 3)
    assert (got["n_items"], got["n_clusters"]) == (6, 3)


@pytest.mark.parametrize("reducer", REDUCERS)
def test_realism_panel_takes_every_epoch(reducer: str) -> None:
    got = run_metrics([realism()], SCORES, reducer=reducer)
    assert got["mean_rank_real"] == pytest.approx((1 + 1 + 2 + 1 + 2 + 3) / 6)
    assert got["mean_rank_templated"] == pytest.approx((2 + 3 + 3 + 3 + 1 + 1) / 6)
    # the failed ranking call is in the second epoch only
    assert (got["unparsed_ranking"], got["failed_calls"]) == (1, 1)


def test_equal_epochs_leave_the_headline_value_unchanged() -> None:
    once = run_metrics([realism_headline()], [[s[0]] for s in SCORES], reducer=None)
    thrice = run_metrics([realism_headline()], [[s[0]] * 3 for s in SCORES], reducer="mode")
    for key in ("mean_rank_generated", "stderr", "ci_low", "ci_high", "n_clusters"):
        assert thrice[key] == pytest.approx(once[key]), key
    assert once["mean_rank_generated"] == pytest.approx(7 / 3)
    assert (once["n_items"], thrice["n_items"]) == (3, 9)  # every epoch's rank is an item


def test_two_epochs_agree_with_the_log_reader(tmp_path) -> None:
    from inspect_stance.validation.figures import figures
    from inspect_stance.validation.logs import read_validation_run

    annotators = ["lexical", "contrarian", "filler_reader"]
    (log,) = inspect_eval(
        "tasks/prompt_validation.py",
        task_args={"topics": "1003", "intents": "opinion"},
        model_roles={"prompter": "construction_sim/prompter",
                     "annotators": [f"annotator_sim/{k}" for k in annotators]},
        log_dir=str(tmp_path),
        display="none",
        epochs=Epochs(2, "mean"),  # --epochs 2 --epochs-reducer mean
    )  # fmt: skip
    logged, ours, metrics = logged_and_run_headlines(
        log, "mean_rank_generated", "prompt_validation"
    )
    paths = (str(log.location),)
    assert logged.value == pytest.approx(ours.value, abs=1e-9)
    assert logged.se == pytest.approx(ours.se, abs=1e-9)
    assert (logged.n_items, logged.n_clusters) == (ours.n_items, ours.n_clusters)
    settings = len(log.samples or []) // 2
    # every setting's generated prompts, ranked by three annotators in each of two epochs
    generated = sum(
        1 for s in log.samples or [] for x in s.scores["validation_record"].metadata["items"]
        if x["source"] == "generated"
    )  # fmt: skip
    assert ours.n_items == 3 * generated and ours.n_clusters == settings
    report = figures(read_validation_run(paths[0]).records)
    for key in ("mean_rank_real", "mean_rank_templated", "unparsed_ranking", "failed_calls"):
        assert metrics[key] == pytest.approx(report[key], nan_ok=True), key
