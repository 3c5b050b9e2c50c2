"""Adaptive stopping and the cell estimate: a known-answer simulation (the true rate is set),
the plain mean of the trials run is biased low, the scorer's estimate is not."""

from __future__ import annotations

import numpy as np

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, first_stop
from inspect_stance.drift.adaptive.estimate import stop_counts, unbiased_means
from inspect_stance.drift.adaptive.rule import adaptive_row, decide, rule_for

MU = 0.8  # Bernoulli cells (one-letter answers): the plain mean's bias is about -0.015 here
CELLS = 600


def _run_cell(x: np.ndarray, rule: AdaptiveRule) -> list[dict]:
    """The trial records the solver keeps: waves until :func:`decide` stops."""
    records: list[dict] = []
    for end in rule.checkpoints():
        records += [
            {"trial": t, "probs": [x[t], 1.0 - x[t], 0.0, 0.0, 0.0]}
            for t in range(len(records), end)
        ]
        if decide(records, 0, rule)["stop_reason"] is not None:
            break
    return records


def test_scorer_row_is_unbiased_where_the_plain_mean_is_not() -> None:
    rng = np.random.default_rng(7)
    rule = rule_for(0.1, 100)
    plain, unbiased = [], []
    for _ in range(CELLS):
        x = (rng.random(100) < MU).astype(float)
        records = _run_cell(x, rule)
        state = decide(records, 0, rule)
        plain.append(np.mean([r["probs"][0] for r in records]))
        row = adaptive_row(records, 0, state, lambda r: np.asarray(r["probs"]))
        assert row is not None and abs(sum(row) - 1.0) < 1e-9
        unbiased.append(row[0])
    se = np.std(plain) / np.sqrt(CELLS)
    assert np.mean(plain) - MU < -4 * se  # the bias the estimate removes is real here
    se_u = np.std(unbiased) / np.sqrt(CELLS)
    assert abs(np.mean(unbiased) - MU) < 3.5 * se_u


def test_unbiased_means_known_answer_and_stop_counts_agree_with_first_stop() -> None:
    rng = np.random.default_rng(8)
    rule = AdaptiveRule(halfwidth=0.1, max_trials=100)
    x = (rng.random((3000, 100)) < MU).astype(float)
    used, _ = first_stop(x, rule)
    for n in (10, 20, 50):
        rows = used == n
        assert (stop_counts(x[rows, :n], rule) == n).all()
        assert (stop_counts(x[used > n, :n], rule) == n + 1).all()  # runs on
    est = unbiased_means(x, used, rule, draws=32)
    assert abs(est.mean() - MU) < 3.5 * est.std() / np.sqrt(est.size)


def test_first_wave_stop_keeps_the_plain_mean() -> None:
    rule = rule_for(0.1, 100)
    records = [{"trial": t, "probs": [0.1, 0.9, 0, 0, 0]} for t in range(10)]
    state = decide(records, 0, rule)
    assert state["trials_run"] == 10 and state["stop_reason"] == "below_one"
    row = adaptive_row(records, 0, state, lambda r: np.asarray(r["probs"], dtype=float))
    assert row is not None and np.allclose(row, [0.1, 0.9, 0, 0, 0])
