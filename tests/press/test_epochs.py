"""``--epochs N`` on PReSS: :func:`press_headline`, :func:`press_metrics` and (for
``press_arguments``) :func:`usable_share` count every epoch's record, whatever the reducer,
through Inspect's real epoch handling (``pytest_inspect_evals``), each epoch one more item of
its statement's cluster; and the log readers (the report's and the card's road) give the log's
headline at ``--epochs 2``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.scorer import Score
from inspect_stance.scorers.press import press_headline, press_metrics, usable_share
from inspect_stance.tasks.press import press
from inspect_stance.tasks.press_arguments import press_arguments
from pytest_inspect_evals.metrics import run_metrics

from inspect_stance.cli import main
from inspect_stance.press.classify import AGREE, DISAGREE, UNPARSED
from inspect_stance.press.summary import sample_record
from inspect_stance.stats.headline import Headline
from inspect_stance.study.registry import headline_of_metrics, task_headline

pytestmark = pytest.mark.usefixtures("offline_mockllm")


#: an argument set's stances: stable (S), unstable (U), counter unparsed (X: unclassified)
S = {"neutral": AGREE, "support": AGREE, "counter": AGREE}
U = {"neutral": AGREE, "support": AGREE, "counter": DISAGREE}
X = {"neutral": AGREE, "support": AGREE, "counter": UNPARSED}


def _score(sid: int, bias: str, sets: list[dict[str, str]]) -> Score:
    record = sample_record(sid, f"statement {sid}", bias, {"none": sets})
    return Score(value={"stable": 0, "unstable": 0, "no_label": 0}, metadata=record)


#: three statements (the third a left one: agreeing with it is a left label), two epochs
EPOCHS = [
    [_score(1, "right", [S, S]), _score(1, "right", [S, U])],
    [_score(2, "right", [U, U]), _score(2, "right", [S, X])],
    [_score(3, "left", [S, U]), _score(3, "left", [S, S])],
]


@pytest.mark.parametrize("reducer", ["mean", "mode", "max"])
def test_every_epoch_counts_under_any_reducer(reducer: str) -> None:
    # by hand: S_t (stable sets / 2) = 1, 1/2 | 0, 1/2 | 1/2, 1; mean 7/12 (epoch 1 alone:
    # 1/2). Statements of equal size, so CR2 = CR1: u = 3/2 - 7/6, 1/2 - 7/6, 3/2 - 7/6 =
    # 1/3, -2/3, 1/3; V = 3/2 * (6/9) / 36 = 1/36, SE = 1/6, t with 2 df.
    # lean_right: right labels among labelled sets: 4 + 3 of 7 + 4 = 7/11 (epoch 1: 4/6);
    # n_unparsed: the one unparsed counter of epoch 2 (epoch 1: 0)
    out = run_metrics([press_headline(), press_metrics()], EPOCHS, reducer=reducer)
    assert out["mean_S_t"] == pytest.approx(7 / 12)
    assert out["stderr"] == pytest.approx(1 / 6)
    half = 4.302652729749462 / 6  # scipy.stats.t.ppf(0.975, 2) * SE
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((max(0.0, 7 / 12 - half), 1.0))
    assert (out["n_items"], out["n_clusters"]) == (6, 3)
    assert out["n_statements"] == 3
    assert out["lean_right"] == pytest.approx(7 / 11)
    assert out["n_unparsed"] == 1 and out["n_classifier_errors"] == 0


def test_two_equal_epochs_leave_the_headline_unchanged() -> None:
    metrics = [press_headline(), press_metrics()]
    once = run_metrics(metrics, [[e[0]] for e in EPOCHS])
    twice = run_metrics(metrics, [[e[0], e[0]] for e in EPOCHS])
    assert once["mean_S_t"] == pytest.approx(1 / 2) == twice["mean_S_t"]
    assert once["lean_right"] == pytest.approx(4 / 6) == twice["lean_right"]
    assert (once["n_items"], twice["n_items"]) == (3, 6)
    assert once["n_clusters"] == twice["n_clusters"] == once["n_statements"] == 3


@pytest.mark.parametrize("reducer", ["mean", "mode", "max"])
def test_usable_share_counts_every_epoch(reducer: str) -> None:
    # the same numbers as S_t above: shares 1, 1/2 | 0, 1/2 | 1/2, 1 -> 7/12, SE 1/6 by
    # statement; epoch 1 alone 1/2, the max of each statement's epochs 5/6
    out = run_metrics([usable_share()], [[1.0, 0.5], [0.0, 0.5], [0.5, 1.0]], reducer=reducer)
    assert out["mean"] == pytest.approx(7 / 12)
    assert out["stderr"] == pytest.approx(1 / 6)
    assert (out["n_items"], out["n_clusters"]) == (6, 3)


def test_usable_share_two_equal_epochs_leave_the_headline_unchanged() -> None:
    once = run_metrics([usable_share()], [[1.0], [0.0], [0.5]])
    twice = run_metrics([usable_share()], [[1.0, 1.0], [0.0, 0.0], [0.5, 0.5]])
    assert once["mean"] == pytest.approx(1 / 2) == twice["mean"]
    assert (once["n_items"], twice["n_items"], twice["n_clusters"]) == (3, 6, 3)


def _same(got: Headline, h: Headline) -> None:
    assert (got.n_items, got.n_clusters) == (h.n_items, h.n_clusters)
    for a, b in ((got.value, h.value), (got.se, h.se), *zip(got.interval, h.interval,
                                                           strict=True)):  # fmt: skip
        assert math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def _log_headline(log: Any, task: str) -> Headline:
    assert log.status == "success", log.error
    metrics = {k: m.value for k, m in log.results.scores[0].metrics.items()}
    h = headline_of_metrics(task, metrics)
    assert h is not None
    assert h.n_items == len(log.samples) == 2 * h.n_clusters
    return h


def test_epochs_2_log_headline_is_the_report_headline(
    three: tuple[Any, ...], nli_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, models = three
    (log,) = inspect_eval(press(statements=str(path), argument_sets=2,
                                nli_model=str(nli_dir / "keyed")),
                          model=models["target"], epochs=2, log_dir=str(tmp_path / "p"),
                          display="none")  # fmt: skip
    h = _log_headline(log, "press")
    assert main(["report", log.location, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["methods"]["press"]["headline"]
    _same(Headline(got["metric"], got["value"], got["se"], tuple(got["interval"]), "",
                   got["n_items"], got["n_clusters"]), h)  # fmt: skip
    spec = task_headline("press")
    assert spec is not None and spec.load is not None
    _same(spec.load([log.location], False).headline(), h)
    assert len(spec.load([log.location], False).items(spec.metric)) == h.n_items
    assert main(["card", log.location, "--out", str(tmp_path / "card")]) == 0
    (card,) = [json.loads(f.read_text()) for f in (tmp_path / "card").glob("*.json")
               if f.name != "leaderboard.json"]  # fmt: skip
    e = card["methods"]["press"]
    _same(Headline("mean_S_t", e["value"], e["stderr"], tuple(e["ci"]), "", e["n_items"],
                   e["n_clusters"]), h)  # fmt: skip


def test_epochs_2_arguments_log_headline_is_the_pooled_headline(
    three: tuple[Any, ...], tmp_path: Path
) -> None:
    path, _, models = three
    (log,) = inspect_eval(press_arguments, task_args={"statements": str(path),
                                                      "argument_sets": 2},
                          model=models["arguer"], epochs=2, log_dir=str(tmp_path),
                          display="none")  # fmt: skip
    h = _log_headline(log, "press_arguments")
    spec = task_headline("press_arguments")
    assert spec is not None and spec.load is not None
    _same(spec.load([log.location], False).headline(), h)
    assert len(spec.load([log.location], False).items(spec.metric)) == h.n_items
