"""``inspect-stance plan`` on .npz runs: text, JSON ``recommended``, bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.cli import main

REF = Path(__file__).resolve().parents[3] / "shared" / "data" / "stance_drift_reference"


def _npz(tmp_path: Path, seed: int = 0, p: int = 20, t: int = 30) -> Path:
    rng = np.random.default_rng(seed)
    lean = rng.beta(0.6, 0.6, (p, 1, 5, 1))
    probs = rng.dirichlet(np.ones(5), size=(p, t, 5))
    eye = np.eye(5)[None, None]
    probs = lean * eye + (1 - lean) * probs
    path = tmp_path / f"run{seed}.npz"
    np.savez(path, probs=probs)
    return path


def test_plan_json_has_recommended(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _npz(tmp_path)
    assert main(["plan", str(path), "--target-se", "0.05", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rec = out["recommended"]
    assert set(rec) >= {"propositions", "trials", "calls", "predicted_spr_se"}
    assert rec["predicted_spr_se"] <= 0.05
    assert rec["calls"] == rec["propositions"] * 5 * rec["trials"] * 2
    assert out["runs"][0]["components"]["within_cell"] > 0


def test_plan_paired_and_prices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _npz(tmp_path, 0), _npz(tmp_path, 1)
    assert main(["plan", str(a), str(b), "--detect", "0.2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["recommended"]["predicted_delta_se"] is not None
    # prices without a log's token counts: no cost (never a made-up figure)
    assert main(["plan", str(a), "--price-in", "1", "--price-out", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["recommended"]["cost"] is None


def test_plan_text_with_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _npz(tmp_path)
    assert main(["plan", str(path), "--adaptive-halfwidth", "0.1", "--replay-orders", "5"]) == 0
    text = capsys.readouterr().out
    assert "recommended for" in text and "adaptive stopping at half-width 0.1" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["plan", "missing.npz"],
        ["plan", "{npz}", "--target-se", "-1"],
        ["plan", "{npz}", "{npz}", "{npz}"],
        ["plan", "{npz}", "--detect", "0.1", "--correlation", "2"],
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = _npz(tmp_path)
    argv = [a.replace("{npz}", str(path)) for a in argv]
    try:
        code = main(argv)
    except SystemExit as ex:  # argparse's own errors
        code = int(ex.code or 0)
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "error" in err.splitlines()[-1]


@pytest.mark.skipif(not REF.is_dir(), reason="reference data not present")
def test_plan_on_reference_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", str(REF / "gpt_4o_mini.npz"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    comp = out["runs"][0]["components"]
    # about 1 % of Var(SPR) is trial noise in this run
    assert 0.005 < comp["trial_share_of_spr_variance"] < 0.02
    assert out["designs"][-1]["spr_se"] == pytest.approx(0.009139, abs=2e-6)
    assert math.isfinite(out["recommended"]["predicted_spr_se"])


def test_calls_by_variant_match_the_task_metadata() -> None:
    """The planner's calls per trial equal what the task records for each variant."""
    from inspect_stance.tasks.stance_drift import stance_drift

    from inspect_stance.drift.planning.design import calls_per_trial_by_variant

    for variant, calls in calls_per_trial_by_variant().items():
        if "+" in variant:
            continue  # arguments_from needs an earlier log
        task = stance_drift(variant=variant, limit_propositions=1)
        assert task.metadata is not None
        assert task.metadata["model_calls_per_trial"] == calls, variant


@pytest.mark.skipif(not REF.is_dir(), reason="reference data not present")
def test_report_says_what_logprobs_are_worth(capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_stance.drift.planning.estimators import precision_loss
    from inspect_stance.drift.run import load_npz

    path = REF / "gpt_4o_mini.npz"
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    loss = precision_loss(load_npz(path).probs)
    assert f"the trial variance would be x{loss.within_ratio:.2f}" in text
    assert 1.1 < loss.within_ratio < 1.5  # a logprob trial is worth 1.27 letter trials here


def test_paired_plan_matches_propositions_by_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same run with its propositions shuffled pairs with itself: sigma_D^2 = 0."""
    path = _npz(tmp_path)
    with np.load(path) as data:
        probs = data["probs"]
    names = np.array([f"proposition {k}" for k in range(probs.shape[0])])
    np.savez(tmp_path / "a.npz", probs=probs, propositions=names)
    perm = np.random.default_rng(1).permutation(probs.shape[0])
    np.savez(tmp_path / "b.npz", probs=probs[perm], propositions=names[perm])
    np.savez(
        tmp_path / "c.npz",
        probs=probs,
        propositions=np.array([f"other {k}" for k in range(probs.shape[0])]),
    )
    assert (
        main(
            ["plan", str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), "--detect", "0.1", "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    vc_noise = out["runs"][0]["components"]["within_cell"]
    # only trial noise is left in the paired SE: sqrt(2 sigma_e^2 / (5 T P)) at the largest design
    last = out["designs"][-1]
    assert last["delta_se"] == pytest.approx(
        math.sqrt(2 * vc_noise / (5 * last["trials"] * last["propositions"]))
    )
    assert main(["plan", str(tmp_path / "a.npz"), str(tmp_path / "c.npz"), "--detect", "0.1"]) == 2
    assert "same propositions" in capsys.readouterr().err


@pytest.mark.skipif(not REF.is_dir(), reason="reference data not present")
def test_plan_for_a_model_without_logprobs(capsys: pytest.CaptureFixture[str]) -> None:
    """--estimator frequency: the logprob run's proposition components with the trial variance
    of its one-letter re-scoring, so more trials are recommended for the same target."""
    from inspect_stance.drift.planning.estimators import precision_loss
    from inspect_stance.drift.run import load_npz

    path = str(REF / "gpt_3_5_turbo.npz")
    assert main(["plan", path, "--target-se", "0.0095", "--json"]) == 0
    lp = json.loads(capsys.readouterr().out)
    assert main(["plan", path, "--target-se", "0.0095", "--estimator", "frequency", "--json"]) == 0
    fr = json.loads(capsys.readouterr().out)
    loss = precision_loss(load_npz(path).probs)
    comp_lp, comp_fr = lp["runs"][0]["components"], fr["runs"][0]["components"]
    assert comp_fr["within_cell"] == pytest.approx(loss.frequency.within_cell)
    assert comp_fr["between_propositions"] == pytest.approx(comp_lp["between_propositions"])
    assert fr["recommended"]["calls"] > lp["recommended"]["calls"]
