"""The prompt-validation metrics under ``--epochs N``, through Inspect's real epoch reducer
(:mod:`pytest_inspect_evals.metrics`): each epoch's ranking is one more ranking of its setting
(the headline's cluster), whichever reducer runs, and the log reader
(:class:`inspect_stance.validation.compare.ValidationRun`) agrees with the log.

The metrics take unreduced scores (``@metric(scores="unreduced")``), so equal epochs may change
counts; the tests check that they leave the headline's value unchanged instead of
``assert_agreeing_epochs_change_nothing`` (which is for reduced metrics)."""

from __future__ import annotations

from typing import Any

import numpy as np
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
    # the simulated annotators rank alike in both epochs: W, Friedman and Fleiss' kappa read as
    # from the first epoch alone (a round's W is not inflated by a repeat of it)
    once = figures(
        [s.scores["validation_record"].metadata for s in log.samples or [] if s.epoch == 1]
    )
    for key in (
        "kendall_w",
        "kendall_w_settings",
        "friedman_chi2",
        "friedman_p",
        "intent_fleiss_real",
    ):
        assert report[key] == pytest.approx(once[key], nan_ok=True), key


def _round(setting: str, ranks: dict[str, dict[str, int]], labels: Any = None) -> dict[str, Any]:
    """One setting's score record in one epoch: each annotator's ranking (and intent labels)."""
    annotations = [
        {"annotator": a, "ranking_status": "ok", "ranks": r, "labels": (labels or {}).get(a, {})}
        for a, r in ranks.items()
    ]
    items = [{**x, "intended_intent": "opinion", "intended_stance": "neutral"} for x in ITEMS]
    return {"setting": setting, "items": items, "annotations": annotations, "missing": []}


def test_kendall_w_at_epochs_is_the_mean_of_each_rounds_w() -> None:
    """One setting ranked by a1 and a2 in two epochs. Epoch 1: both rank r, t, g as 1, 2, 3,
    W = 1. Epoch 2: a1 1, 2, 3 and a2 2, 1, 3: R = 3, 3, 6 around m (n + 1) / 2 = 4, S = 6,
    W = 12 * 6 / (4 * 24) = 3/4. The setting's W is their mean, 7/8 (a later epoch no longer
    overwrites an earlier one: epoch 2 alone gives 3/4; ranks averaged over the epochs, 13/14)."""
    from scipy.stats import friedmanchisquare

    from inspect_stance.validation.figures import figures
    from inspect_stance.validation.realism import kendall_w

    second = {"a1": {"r": 1, "t": 2, "g": 3}, "a2": {"r": 2, "t": 1, "g": 3}}
    records = [
        _round("s1", {"a1": {"r": 1, "t": 2, "g": 3}, "a2": {"r": 1, "t": 2, "g": 3}}),
        _round("s1", second),
    ]
    # each round's W is scipy's Friedman statistic with annotators as blocks over m (n - 1)
    chi2 = friedmanchisquare(
        *zip(*[[r["r"], r["t"], r["g"]] for r in second.values()], strict=True)
    ).statistic
    assert kendall_w([[1, 2, 3], [2, 1, 3]]) == pytest.approx(chi2 / (2 * 2)) == 0.75
    got = figures(records)
    assert got["kendall_w"] == pytest.approx(7 / 8)
    assert got["kendall_w_settings"] == 1
    # two sources re-ranked: real vs templated, epoch 1 W = 1, epoch 2 (1, 2 vs 2, 1) W = 0
    assert got["kendall_w_real_templated"] == pytest.approx(1 / 2)


def test_friedman_at_epochs_averages_each_setting_over_its_rounds() -> None:
    """Three settings, two annotators, two epochs that differ: the blocks are the settings
    (not setting-epochs), each source's value its mean rank over the setting's annotators and
    epochs; checked against scipy on those hand-averaged values."""
    from scipy.stats import friedmanchisquare

    from inspect_stance.validation.figures import figures

    rounds = {
        "s1": [({"r": 1, "t": 2, "g": 3}, {"r": 1, "t": 3, "g": 2}),
               ({"r": 2, "t": 1, "g": 3}, {"r": 1, "t": 2, "g": 3})],
        "s2": [({"r": 1, "t": 3, "g": 2}, {"r": 2, "t": 3, "g": 1}),
               ({"r": 1, "t": 2, "g": 3}, {"r": 1, "t": 3, "g": 2})],
        "s3": [({"r": 3, "t": 1, "g": 2}, {"r": 1, "t": 2, "g": 3}),
               ({"r": 2, "t": 3, "g": 1}, {"r": 1, "t": 2, "g": 3})],
    }  # fmt: skip
    records = [_round(s, {"a1": a1, "a2": a2}) for s, eps in rounds.items() for a1, a2 in eps]
    blocks = [
        [sum(r[k] for pair in eps for r in pair) / 4 for k in ("r", "t", "g")]
        for eps in rounds.values()
    ]
    expected = friedmanchisquare(*zip(*blocks, strict=True))
    got = figures(records)
    assert got["friedman_blocks"] == 3
    assert got["friedman_chi2"] == pytest.approx(expected.statistic)
    assert got["friedman_p"] == pytest.approx(expected.pvalue)


def test_fleiss_at_epochs_counts_every_round_of_a_prompt() -> None:
    """Two annotators label the three prompts' intent in two epochs; each prompt in each epoch
    is one unit of Fleiss' kappa (statsmodels on the six units), none overwriting another."""
    from statsmodels.stats.inter_rater import fleiss_kappa

    from inspect_stance.validation.annotation import FIELDS
    from inspect_stance.validation.figures import figures

    def labels(a1: list[str], a2: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
        return {
            who: {
                i: {"intent": v, "status": dict.fromkeys(FIELDS, "ok")}
                for i, v in zip("rtg", vs, strict=True)
            }
            for who, vs in (("a1", a1), ("a2", a2))
        }

    ranks = {"a1": {"r": 1, "t": 2, "g": 3}, "a2": {"r": 1, "t": 2, "g": 3}}
    records = [
        _round("s1", ranks, labels(["opinion", "writing", "opinion"], ["opinion", "writing", "information"])),
        _round("s1", ranks, labels(["writing", "opinion", "opinion"], ["opinion", "opinion", "opinion"])),
    ]  # fmt: skip
    # units (prompt, epoch) x categories (information, opinion, writing): counts of the two
    # annotators' labels, one source's prompt per figure (epoch 2 alone: one unit, kappa NaN)
    units = {"r": [[0, 2, 0], [0, 1, 1]], "g": [[1, 1, 0], [0, 2, 0]], "t": [[0, 0, 2], [0, 2, 0]]}
    got = figures(records)
    for item, source in (("r", "real"), ("t", "templated"), ("g", "generated")):
        assert got[f"intent_fleiss_{source}"] == pytest.approx(
            fleiss_kappa(np.array(units[item]), method="fleiss"), nan_ok=True
        ), source
