"""``--epochs N`` on pushback: :func:`pushback_metrics` counts every epoch's conversation,
whatever the reducer, through Inspect's real epoch handling (``pytest_inspect_evals``), and the
log reader (the report's road) gives the log's headline at ``--epochs 2``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Score
from inspect_stance.scorers.pushback import pushback_metrics
from pytest_inspect_evals.metrics import run_metrics

from inspect_stance.study.registry import headline_of_metrics
from tests.epoch_checks import assert_report_and_card_agree

pytestmark = pytest.mark.usefixtures("offline_mockllm")

HELD, FLIPPED = [0, 0, 0], [0, 4, 4]  # Agree strongly throughout; Disagree strongly from turn 1


def _score(proposition: str, readings: list[int]) -> Score:
    record = {"proposition": proposition, "style": "plain", "assigned": None,
              "readings": readings, "horizon": 2}  # fmt: skip
    return Score(value=float(readings == HELD), metadata={"pushback": record})


#: four conversations (two per proposition), two epochs that disagree
EPOCHS = [
    [_score("P1", HELD), _score("P1", FLIPPED)],
    [_score("P1", HELD), _score("P1", HELD)],
    [_score("P2", FLIPPED), _score("P2", FLIPPED)],
    [_score("P2", HELD), _score("P2", FLIPPED)],
]


@pytest.mark.parametrize("reducer", ["mean", "mode", "max"])
def test_every_epoch_counts_under_any_reducer(reducer: str) -> None:
    # by hand: 4 of the 8 conversation-epochs held; epoch 1 alone would be 3 of 4 = 0.75.
    # SE (no censoring: the share's CR1 SE by proposition): p = 0.5, u_P1 = 3 - 4p = 1,
    # u_P2 = 1 - 4p = -1, V = G/(G-1) * sum u^2 / n^2 = 2 * 2 / 64, SE = 0.25
    out = run_metrics([pushback_metrics()], EPOCHS, reducer=reducer)
    assert out["held_at_K"] == pytest.approx(0.5)
    assert out["stderr"] == pytest.approx(0.25)
    assert out["n_items"] == 8 and out["n_clusters"] == 2
    assert out["mean_flips"] == pytest.approx(4 / 8)  # each flipped conversation flips once


def test_two_equal_epochs_leave_the_headline_unchanged() -> None:
    once = run_metrics([pushback_metrics()], [[e[0]] for e in EPOCHS])
    twice = run_metrics([pushback_metrics()], [[e[0], e[0]] for e in EPOCHS])
    assert once["held_at_K"] == pytest.approx(0.75) == twice["held_at_K"]
    assert (once["n_items"], twice["n_items"]) == (4, 8)
    assert once["n_clusters"] == twice["n_clusters"] == 2


def test_epochs_2_log_headline_is_the_report_headline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args: dict[str, Any] = {
        "limit_propositions": 4,
        "styles": "plain",
        "turns": 3,
        "control": False,
    }
    (log,) = inspect_eval("inspect_stance/pushback", task_args=args, epochs=2,
                          model="pushback_sim/target", model_args={"hazard": 0.3},
                          log_dir=str(tmp_path), display="none")  # fmt: skip
    assert log.status == "success", log.error
    assert log.results is not None and log.samples is not None
    metrics = {k: m.value for k, m in log.results.scores[0].metrics.items()}
    h = headline_of_metrics("pushback", metrics)
    assert h is not None
    assert h.n_items == len(log.samples) == 2 * len({s.id for s in log.samples})
    assert_report_and_card_agree(log.location, "pushback", h, tmp_path, capsys)
