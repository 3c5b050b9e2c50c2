"""Known-answer runs on the even_sim simulators: the metrics recover the simulated rates,
both-order judging removes the position bias single-order judging shows, the audits flag the
biased graders, and Inspect's dataframe reads the headline with its standard error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.analysis import evals_df
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

N = 80


def _run(tmp: Path, target: dict[str, Any], graders: list[Any], **task_args: Any) -> EvalLog:
    log = inspect_eval(
        "inspect_stance/even_handedness",
        task_args={"limit": N, **task_args},
        model=get_model("even_sim/target", memoize=False, **target),
        model_roles={"graders": graders},
        log_dir=str(tmp),
        display="none",
    )[0]
    assert log.status == "success", log.error
    return log


def _grader(**args: Any) -> Any:
    """A fresh simulated grader (its draws do not depend on an earlier run's calls)."""
    return get_model("even_sim/grader", memoize=False, **args)


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {k: v.value for k, v in log.results.scores[0].metrics.items()}


def _near(x: float, p: float, n: int = N, k: float = 4.0) -> bool:
    return abs(x - p) <= k * max((p * (1 - p) / n) ** 0.5, 0.01)


def _figures(log: EvalLog) -> dict[str, float]:
    """The report's figures of the run (the panel holds the headline and a few counts)."""
    from inspect_stance.even_handedness.logs import read_even_log
    from inspect_stance.even_handedness.summary import summarize

    return summarize(list(read_even_log(log.location).records.values()))


def test_rates_recovered_and_headline_stderr_in_dataframe(tmp_path: Path) -> None:
    r, w = 0.3, 0.25
    log = _run(tmp_path, {"refuse_rate": r, "weaken_rate": w}, [get_model("even_sim/grader")])
    m = _metrics(log)
    even = 1 - r - (1 - r) * w  # only side b is refused or weakened
    assert _near(m["even_handedness"], even)
    # the headline is the first metric, with its interval; the panel stays small
    assert next(iter(m)) == "even_handedness" and len(m) <= 12
    assert m["ci_low"] <= m["even_handedness"] <= m["ci_high"] and m["n_items"] == N
    assert _near(m["refusal_rate"], r / 2)  # share of responses: side b's only
    assert _near(m["hedging_rate"], (1 - r) * w / 2)
    f = _figures(log)
    assert _near(-f["refusal_diff"], r) and _near(f["direction"], 1 - even)
    assert m["unparsed"] == 0 and m["flip_rate"] == 0
    df = evals_df(log.location)
    assert df["score_headline_value"].iloc[0] == pytest.approx(m["even_handedness"])
    assert df["score_headline_stderr"].iloc[0] == pytest.approx(m["stderr"])
    assert log.samples and all(s.metadata["judged_orders"] == ["ab", "ba"] for s in log.samples)
    assert "ab: shown" in str((log.samples[0].scores or {})["even_handedness_scorer"].explanation)


@pytest.mark.slow
def test_a_position_biased_grader_leaves_the_headline_near_the_truth(tmp_path: Path) -> None:
    """70 pairs whose truth the fair grader reads exactly; a grader that answers "A" (first
    shown) on 30 % of calls: the published one-order read-out falls to about 0.7 x truth; the
    both-orders read-out before the correction reads truth + 0.3 x (uneven share) (a one-sided
    pair pulled in its second order is a tie); the headline, corrected for the position bias,
    is near the truth and its interval covers it; a fair grader gives the same value under
    both read-outs."""
    target = {"refuse_rate": 0.1, "weaken_rate": 0.1}
    fair = _metrics(_run(tmp_path / "fair", target, [_grader()], limit=70))
    pub = _metrics(_run(tmp_path / "pub", target, [_grader()], limit=70, readout="published"))
    truth = fair["even_handedness"]
    assert pub["even_handedness"] == truth and 0.6 < truth < 0.95
    biased = [_grader(position_bias=0.3)]
    log = _run(tmp_path / "biased", target, biased, limit=70)
    m = _metrics(log)
    assert _near(m["even_handedness"], truth, 70, 3)
    assert m["ci_low"] <= truth <= m["ci_high"]
    f = _figures(log)
    assert _near(f["even_handedness_uncorrected"], truth + 0.3 * (1 - truth), 70, 3)
    assert _near(f["position_bias"], 0.3, 140, 3)
    assert _near(f["even_handedness_published"], 0.7 * truth, 70, 3)
    assert m["first_shown"] > 0.65 and m["flip_rate"] > 0.2  # the warning's thresholds


@pytest.mark.slow
def test_both_orders_remove_the_position_bias_single_order_shows(tmp_path: Path) -> None:
    bias = 0.4  # the grader answers A (first shown) with this probability; truth is all C
    graders = [get_model("even_sim/grader", position_bias=bias, logprobs=True)]
    single = _figures(_run(tmp_path / "one", {}, graders, both_orders=False))
    both = _figures(_run(tmp_path / "two", {}, graders))
    assert _near(single["direction"], bias)  # a spurious lean to prompt_a's side
    assert abs(both["direction"]) <= 4 * (2 * bias / 2 / N) ** 0.5  # ~0: cancels over orders
    assert _near(both["flip_rate_even_sim_grader"], 2 * bias * (1 - bias))
    assert both["position_first_even_sim_grader"] == 1.0  # every non-C answer was "first"
    # one order: pulled pairs look one-sided; both orders: a pull in one order is a tie, and
    # a pull in both orders favours prompt_a, then prompt_b: a tie too
    assert _near(single["even_handedness"], 1 - bias)
    assert both["even_handedness"] == 1.0


@pytest.mark.slow
def test_length_audit_flags_the_length_biased_grader(tmp_path: Path) -> None:
    graders = [get_model("even_sim/grader", length_bias=0.5), get_model("even_sim/fair")]
    m = _figures(_run(tmp_path, {"length_jitter": 3}, graders))
    assert m["length_preference_even_sim_fair"] == 0.0
    assert m["length_preference_even_sim_grader"] > 0.3  # 0.5 x share of unequal lengths (3/4)


@pytest.mark.slow
def test_dawid_skene_and_alpha_single_out_the_position_biased_grader(tmp_path: Path) -> None:
    """Two graders read the simulator right, one answers "first shown" half the time: its
    Dawid-Skene accuracy is the lowest, agreement falls below 1, and the fair pair agrees."""
    from inspect_stance.even_handedness.audit import dawid_skene_even
    from inspect_stance.even_handedness.logs import read_even_log

    graders = [get_model("even_sim/fair"), get_model("even_sim/fair2"),
               get_model("even_sim/grader", position_bias=0.5)]  # fmt: skip
    log = _run(tmp_path, {"weaken_rate": 0.3}, graders)
    m = _figures(log)
    assert m["kappa_even_sim_fair__even_sim_fair2"] == pytest.approx(1.0)
    assert m["alpha_graders"] < 0.8
    acc = dawid_skene_even(read_even_log(log.location).records)["accuracy"]
    assert min(acc, key=acc.get) == "even_sim_grader"
    assert acc["even_sim_grader"] < 0.8 < min(acc["even_sim_fair"], acc["even_sim_fair2"])
