"""``--epochs N`` on even-handedness: :func:`even_handedness_metrics` counts every epoch's
pair record, whatever the reducer, through Inspect's real epoch handling
(``pytest_inspect_evals``), and the log reader (the report's road) gives the log's headline at
``--epochs 2``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_ai.scorer import Score
from inspect_stance.scorers.even_handedness import even_handedness_metrics
from pytest_inspect_evals.metrics import run_metrics

from inspect_stance.even_handedness.keys import RECORD
from inspect_stance.study.registry import headline_of_metrics
from tests.epoch_checks import assert_report_and_card_agree

pytestmark = pytest.mark.usefixtures("offline_mockllm")


def _score(topic: str, even: int) -> Score:
    # the published read-out: no position correction, the headline is the share even-handed
    record = {"topic_name": topic, "even_handed": even, "readout": "published"}
    return Score(value=float(even), metadata={RECORD: record})


#: six pairs in three topics, two epochs that disagree
EPOCHS = [
    [_score("T1", 1), _score("T1", 0)],
    [_score("T1", 1), _score("T1", 1)],
    [_score("T2", 0), _score("T2", 0)],
    [_score("T2", 1), _score("T2", 0)],
    [_score("T3", 1), _score("T3", 1)],
    [_score("T3", 1), _score("T3", 0)],
]


@pytest.mark.parametrize("reducer", ["mean", "mode", "max"])
def test_every_epoch_counts_under_any_reducer(reducer: str) -> None:
    # by hand: 7 of the 12 pair-epochs even-handed (epoch 1 alone: 5 of 6). Topics of equal
    # size, so CR2 = CR1: u_T = sum_T - 4 * 7/12 = 2/3, -4/3, 2/3; V = 3/2 * (24/9) / 144 =
    # 1/36, SE = 1/6; within-topic MSW = 3 * 0.75 / (12 - 3) = 1/4, V_W = MSW / 12 = 1/48 < V,
    # so V stays; Satterthwaite df = V^2 / (V^2 / 2 + V_W^2 / 9) = 16/9
    out = run_metrics([even_handedness_metrics()], EPOCHS, reducer=reducer)
    assert out["even_handedness"] == pytest.approx(7 / 12)
    assert out["stderr"] == pytest.approx(1 / 6)
    # the share's interval: 7/12 -/+ t_{16/9} / 6, clipped to [0, 1] (scipy's quantile)
    from scipy.stats import t

    half = t.ppf(0.975, 16 / 9) / 6
    assert out["ci_low"] == pytest.approx(max(0.0, 7 / 12 - half))
    assert out["ci_high"] == pytest.approx(min(1.0, 7 / 12 + half))
    assert (out["n_items"], out["n_clusters"], out["pairs"]) == (12, 3, 12)


def test_two_equal_epochs_leave_the_headline_unchanged() -> None:
    once = run_metrics([even_handedness_metrics()], [[e[0]] for e in EPOCHS])
    twice = run_metrics([even_handedness_metrics()], [[e[0], e[0]] for e in EPOCHS])
    assert once["even_handedness"] == pytest.approx(5 / 6) == twice["even_handedness"]
    assert (once["n_items"], twice["n_items"]) == (6, 12)
    assert once["n_clusters"] == twice["n_clusters"] == 3


def test_epochs_2_log_headline_is_the_report_headline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graders = [get_model("even_sim/grader", position_bias=0.3)]
    (log,) = inspect_eval("inspect_stance/even_handedness", task_args={"limit": 12}, epochs=2,
                          model=get_model("even_sim/target", refuse_rate=0.2, weaken_rate=0.25),
                          model_roles={"graders": graders}, log_dir=str(tmp_path),
                          display="none")  # fmt: skip
    assert log.status == "success", log.error
    assert log.results is not None and log.samples is not None
    metrics = {k: m.value for k, m in log.results.scores[0].metrics.items()}
    h = headline_of_metrics("even_handedness", metrics)
    assert h is not None
    assert metrics["pairs"] == len(log.samples) == 2 * len({s.id for s in log.samples})
    assert_report_and_card_agree(log.location, "even_handedness", h, tmp_path, capsys)


#: five pairs judged in two epochs; people labelled three of them once each
PPI_RECORDS = {
    "p1": 1, "p1@e2": 0, "p2": 1, "p2@e2": 1, "p3": 0, "p3@e2": 0,
    "p4": 1, "p4@e2": 0, "p5": 0, "p5@e2": 1,
}  # fmt: skip
PPI_HUMAN = {"p1": "C", "p2": "A", "p3": "C"}


def test_ppi_at_epochs_is_the_hand_computation_over_pairs() -> None:
    """By hand, one labelled unit per pair: pair means f = .5, 1, 0 (labelled) and .5, .5
    (not); Y = 1, 0, 1; rectifiers Y - f = .5, -1, 1 (mean 1/6, ddof-1 variance 13/12);
    theta = .5 + 1/6 = 2/3, se^2 = 0 / 2 + (13/12) / 3."""
    from inspect_stance.even_handedness.audit import ppi_even
    from inspect_stance.even_handedness.summary import summarize

    recs = {k: {"even_handed": v} for k, v in PPI_RECORDS.items()}
    est = ppi_even(recs, PPI_HUMAN)
    assert est["estimate"] == pytest.approx(2 / 3)
    assert est["se"] == pytest.approx((13 / 12 / 3) ** 0.5)
    assert (est["n_labelled"], est["n_unlabelled"]) == (3, 2)
    # the report's road: every epoch's record carries its pair's label
    labelled = [
        {"topic_name": "T", "main_category": "M", "template_category": "C", "even_handed": v}
        | ({"human_label": PPI_HUMAN[k.split("@")[0]]} if k.split("@")[0] in PPI_HUMAN else {})
        for k, v in PPI_RECORDS.items()
    ]
    figures = summarize(labelled, list(PPI_RECORDS))
    assert figures["even_handedness_ppi"] == pytest.approx(2 / 3)
    assert figures["even_handedness_ppi_stderr"] == pytest.approx((13 / 12 / 3) ** 0.5)
    assert figures["human_labelled"] == 3


def test_ppi_at_epochs_covers_with_pairs_as_the_labelled_unit() -> None:
    """200 pairs, 3 epochs, 40 labelled pairs; the ensemble's error is mostly the pair's own
    (it says C on 30 % of non-C pairs, each pair's call repeated in 80 % of its epochs), so a
    pair's epochs are far from independent. Over 2,000 replications, one label counted as 3
    labelled pair-epochs (the earlier reading) covered 0.859 (mean SE 0.049); one unit per pair
    covers 0.969 (mean SE 0.073)."""
    from inspect_stance.even_handedness.audit import ppi_even

    rng = np.random.default_rng(7)
    cover, reps, pairs, epochs = 0, 400, 200, 3
    for _ in range(reps):
        truth = rng.random(pairs) < 0.5
        own = np.where(truth, rng.random(pairs) < 0.95, rng.random(pairs) < 0.3)
        recs: dict[str, dict[str, int]] = {}
        for e in range(1, epochs + 1):
            call = np.where(rng.random(pairs) < 0.8, own, rng.random(pairs) < 0.5)
            for i in range(pairs):
                recs[f"p{i}" if e == 1 else f"p{i}@e{e}"] = {"even_handed": int(call[i])}
        human = {f"p{i}": ("C" if truth[i] else "A") for i in range(40)}
        est = ppi_even(recs, human)
        cover += est["ci_low"] <= truth.mean() <= est["ci_high"]
    assert 0.91 <= cover / reps <= 0.985


def test_epochs_2_log_ppi_counts_labelled_pairs(tmp_path: Path) -> None:
    """A real ``--epochs 2`` run with 4 labelled pairs: every epoch's record carries its pair's
    label, ``human_labelled`` is 4 (pairs, not 8 pair-epochs), and the PPI estimate is the
    hand formula over pair means."""
    from inspect_stance.even_handedness.data import select_pairs
    from inspect_stance.even_handedness.logs import read_even_log
    from inspect_stance.even_handedness.report import run_figures

    ids = [p.sample_id for p in select_pairs(None, None, None, None, 12)][::3]
    labels = tmp_path / "labels.csv"
    labels.write_text("id,label\n" + "".join(f"{i},{'CA'[n % 2]}\n" for n, i in enumerate(ids)))
    (log,) = inspect_eval("inspect_stance/even_handedness", epochs=2,
                          task_args={"limit": 12, "human_labels": str(labels)},
                          model=get_model("even_sim/target", refuse_rate=0.3, weaken_rate=0.25),
                          model_roles={"graders": [get_model("even_sim/grader")]},
                          log_dir=str(tmp_path), display="none")  # fmt: skip
    assert log.status == "success", log.error
    run = read_even_log(log.location)
    assert {k for k, r in run.records.items() if r.get("human_label")} == {
        k for i in ids for k in (i, f"{i}@e2")
    }
    f = {
        i: np.mean([run.records[k]["even_handed"] for k in (i, f"{i}@e2")])
        for i in {k.split("@")[0] for k in run.records}
    }
    y = {i: float(n % 2 == 0) for n, i in enumerate(ids)}
    expected = np.mean([v for i, v in f.items() if i not in y]) + np.mean(
        [y[i] - f[i] for i in ids]
    )
    m = run_figures(run)["metrics"]
    assert m["human_labelled"] == len(ids) == 4
    assert m["even_handedness_ppi"] == pytest.approx(expected)
