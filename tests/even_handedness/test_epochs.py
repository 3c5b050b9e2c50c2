"""``--epochs N`` on even-handedness: :func:`even_handedness_metrics` counts every epoch's
pair record, whatever the reducer, through Inspect's real epoch handling
(``pytest_inspect_evals``), and the log reader (the report's road) gives the log's headline at
``--epochs 2``."""

from __future__ import annotations

from pathlib import Path

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
