"""The prompt-construction and judge-validation metrics under ``--epochs N``, through Inspect's
real epoch reducer (:mod:`pytest_inspect_evals.metrics`): every epoch's judgement is one more
record of its setting (or labelled response), whichever reducer runs, and the log reader
(:func:`inspect_stance.construction.report_records.read_records`) agrees with the log.

The metrics take unreduced scores (``@metric(scores="unreduced")``), so equal epochs may change
counts; the tests check that they leave the headline's value unchanged instead of
``assert_agreeing_epochs_change_nothing`` (which is for reduced metrics)."""

from __future__ import annotations

import math
from typing import Any

import krippendorff
import numpy as np
import pytest
from inspect_ai import Epochs
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_ai.scorer import Score
from inspect_stance.scorers.construction_metrics import (
    construction_headline,
    construction_metrics,
    validation_agreement,
    validation_headline,
)
from inspect_stance.tasks.judge_validation import judge_validation
from inspect_stance.tasks.prompt_construction import prompt_construction
from pytest_inspect_evals.metrics import run_metrics
from scipy.stats import t as student_t

pytestmark = pytest.mark.usefixtures("offline_mockllm")
REDUCERS = ("mean", "mode", "max")


def _score(outcome: str, **meta: Any) -> Score:
    return Score(value=outcome, metadata={"outcome": outcome, **meta})


def _setting(topic: int, method: str, outcomes: list[str], **meta: Any) -> list[Score]:
    """One sample (a neutral opinion setting of ``method``), one score per epoch."""
    base = {"topic_id": topic, "intent": "opinion", "stance": "neutral", "method": method}
    return [_score(o, **base, **meta) for o in outcomes]


# Per neutral setting, the two epochs' ensemble outcomes (lean = mean label - 3, distance =
# |lean| over both epochs' records):
#   topic 1: templated 5, 4 -> 1.5;   generated 3, 3 -> 0    -> d_T - d_G = 1.5
#   topic 2: templated 1, 3 -> 1.0;   generated 4, 3 -> 0.5  -> 0.5
#   topic 3: templated 4, 4 -> 1.0;   generated 2, 2 -> 1.0  -> 0
# topic 4 has a templated setting only (no pair), whose two epochs found no majority, and
# judge j1's answer was unparsable in both.
# The first epoch alone gives 2, 1, 0: mean 1.0.
GAP = [
    _setting(1, "templated", ["5", "4"]),
    _setting(1, "generated", ["3", "3"]),
    _setting(2, "templated", ["1", "3"]),
    _setting(2, "generated", ["4", "3"]),
    _setting(3, "templated", ["4", "4"]),
    _setting(3, "generated", ["2", "2"]),
    _setting(4, "templated", ["no_majority", "no_majority"], judges=["j1", "j2"],
             judge_labels={"j1": None, "j2": "3"},
             judge_status={"j1": "unparsable", "j2": "ok"}),
]  # fmt: skip
DIFFS = [1.5, 0.5, 0.0]


@pytest.mark.parametrize("reducer", REDUCERS)
def test_mean_difference_pools_every_epoch(reducer: str) -> None:
    got = run_metrics([construction_headline()], GAP, reducer=reducer)
    mean = sum(DIFFS) / 3  # 2/3
    se = math.sqrt(sum((d - mean) ** 2 for d in DIFFS) / 2 / 3)  # one pair per topic
    q = float(student_t.ppf(0.975, 2))
    assert got["mean_difference"] == pytest.approx(mean)
    assert got["stderr"] == pytest.approx(se)
    assert (got["n_items"], got["n_clusters"]) == (3, 3)
    assert got["ci_low"] == pytest.approx(mean - q * se)
    assert got["ci_high"] == pytest.approx(2.0)  # mean + q * se = 2.56, clipped to the range


@pytest.mark.parametrize("reducer", REDUCERS)
def test_construction_panel_counts_every_epoch(reducer: str) -> None:
    got = run_metrics([construction_metrics()], GAP, reducer=reducer)
    assert got["distance_templated"] == pytest.approx((1.5 + 1.0 + 1.0) / 3)
    assert got["distance_generated"] == pytest.approx((0.0 + 0.5 + 1.0) / 3)
    assert got["no_majority"] == 2  # one sample, two epochs
    assert got["judge_unparsable"] == 2


def test_equal_epochs_leave_the_gap_unchanged() -> None:
    once = run_metrics([construction_headline()], [[s[0]] for s in GAP], reducer=None)
    thrice = run_metrics([construction_headline()], [[s[0]] * 3 for s in GAP], reducer="mean")
    for key in ("mean_difference", "stderr", "ci_low", "ci_high", "n_items", "n_clusters"):
        assert thrice[key] == pytest.approx(once[key]), key
    assert once["mean_difference"] == pytest.approx(1.0)  # 2, 1, 0 (module comment)


def _labelled(human: str, outcomes: list[str]) -> list[Score]:
    meta = {"topic_id": 1, "intent": "opinion", "stance": "neutral", "method": "templated",
            "human_label": human}  # fmt: skip
    return [_score(o, **meta) for o in outcomes]


# labelled responses: (human label, the ensemble's outcome in each of two epochs)
LABELLED = [("1", ["1", "2"]), ("2", ["2", "2"]), ("4", ["4", "5"]), ("5", ["5", "5"]),
            ("3", ["no_majority", "3"])]  # fmt: skip
JV = [_labelled(h, o) for h, o in LABELLED]


@pytest.mark.parametrize("reducer", REDUCERS)
def test_alpha_ordinal_takes_every_epoch_as_a_unit(reducer: str) -> None:
    got = run_metrics([validation_headline()], JV, reducer=reducer)
    # every (epoch, response) with an ensemble label is a unit rated by ensemble and human
    pairs = [(float(o), float(h)) for h, outs in LABELLED for o in outs if o != "no_majority"]
    data = np.array(pairs).T
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")
    assert got["alpha_ordinal"] == pytest.approx(expected)
    assert expected < 0.99  # the first epoch alone agrees perfectly (alpha 1)
    # 10 ratings (units of alpha) of 5 labelled responses (the clusters: one human label each)
    assert (got["n_items"], got["n_clusters"]) == (10, 5)
    assert math.isnan(got["stderr"])


@pytest.mark.parametrize("reducer", REDUCERS)
def test_validation_agreement_counts_every_epoch(reducer: str) -> None:
    got = run_metrics([validation_agreement()], JV, reducer=reducer)
    # 9 (ensemble, human) pairs with a label: 2 off by one (1 vs 2, 4 vs 5), 7 exact
    assert got["exact"] == pytest.approx(7 / 9)
    assert got["within1"] == pytest.approx(1.0)
    assert (got["n_labelled"], got["no_ensemble_label"]) == (10, 1)


def test_equal_epochs_leave_alpha_perfect() -> None:
    perfect = [_labelled(h, [h]) for h, _ in LABELLED]
    once = run_metrics([validation_headline()], perfect, reducer=None)
    twice = run_metrics([validation_headline()], [s * 2 for s in perfect], reducer="mode")
    assert once["alpha_ordinal"] == pytest.approx(1.0)
    assert twice["alpha_ordinal"] == pytest.approx(1.0)
    assert (once["n_items"], once["n_clusters"]) == (5, 5)
    assert (twice["n_items"], twice["n_clusters"]) == (10, 5)


def test_too_few_labels_counts_labelled_responses_not_ratings() -> None:
    """Ten responses labelled once, rated in three epochs: ten human labels (fewer than 20,
    so the warning stands), not thirty; the report's records carry ``{id}@e<k>``."""
    from inspect_stance.construction.agreement import human_agreement
    from inspect_stance.construction.records import record_from_score_metadata

    meta = {"topic_id": 1, "intent": "opinion", "stance": "neutral", "method": "templated",
            "human_label": "3", "outcome": "3"}  # fmt: skip
    records = [
        record_from_score_metadata(f"row-{i:04d}" if e == 1 else f"row-{i:04d}@e{e}", "3", meta)
        for e in (1, 2, 3)
        for i in range(1, 11)
    ]
    result = human_agreement(records)
    assert (result.n_labelled, result.n_responses) == (30, 10)
    assert "only 10 human labels" in result.warning


# -- end to end: the log's headline is the log reader's at --epochs 2 --------------------------


def _sim(name: str):
    return get_model(f"construction_sim/{name}", memoize=False)


def _records_headline(path: str, task: str):
    from inspect_stance.construction.figures import (
        group_headline,
        log_agreement_figures,
        log_figures,
    )
    from inspect_stance.construction.report_records import read_records

    records, _ = read_records([path])
    figures = log_agreement_figures([path]) if task == "judge_validation" else log_figures([path])
    return group_headline(records), figures


def _assert_same(log, task: str, counts: tuple[str, ...]) -> None:
    from inspect_stance.stats.headline import headline_from_metrics

    assert log.status == "success"
    [scores] = log.results.scores  # one view: no reducer added to the metric names
    metrics = {k: v.value for k, v in scores.metrics.items()}
    metric = "alpha_ordinal" if task == "judge_validation" else "mean_difference"
    assert next(iter(metrics)) == metric
    ours, figures = _records_headline(log.location, task)
    logged = headline_from_metrics(metric, metrics)
    assert logged.value == pytest.approx(ours.value, abs=1e-9, nan_ok=True)
    assert (logged.n_items, logged.n_clusters) == (ours.n_items, ours.n_clusters)
    assert logged.interval == pytest.approx(ours.interval, abs=1e-9, nan_ok=True)
    for key in counts:
        assert metrics[key] == figures[key], key


@pytest.mark.slow
def test_prompt_construction_at_two_epochs_agrees_with_its_reader(tmp_path) -> None:
    (log,) = inspect_eval(
        prompt_construction,
        task_args={"templates_per_setting": 2, "prompts_per_setting": 2},
        model=_sim("target"),
        model_roles={"judges": [_sim("judge_exact"), _sim("judge_unparsable"), _sim("judge_noisy")],
                     "prompter": _sim("prompter")},
        log_dir=str(tmp_path),
        display="none",
        epochs=Epochs(2, "mean"),  # --epochs 2 --epochs-reducer mean
    )  # fmt: skip
    _assert_same(log, "prompt_construction", ("judge_unparsable", "no_majority"))
    samples = len(log.samples or []) // 2
    # the unparsable judge answered every response of both epochs
    assert log.results.scores[0].metrics["judge_unparsable"].value == 2 * samples


def test_judge_validation_at_two_epochs_agrees_with_its_reader(tmp_path) -> None:
    (log,) = inspect_eval(
        judge_validation,
        task_args={"annotations": "synthetic"},
        model_roles={"judges": [_sim("judge_exact"), _sim("judge_noisy"), _sim("judge_framed")]},
        log_dir=str(tmp_path),
        display="none",
        epochs=2,
    )
    _assert_same(log, "judge_validation", ("n_labelled", "no_ensemble_label"))
    # every one of the 24 synthetic rows is labelled: one record per row and epoch, the
    # headline's clusters the 24 labelled responses
    metrics = log.results.scores[0].metrics
    assert metrics["n_labelled"].value == metrics["n_items"].value == 48
    assert metrics["n_clusters"].value == 24
