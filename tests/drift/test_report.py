"""`inspect-stance report`: published figures, JSON schema, outputs and bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inspect_stance.cli import main
from inspect_stance.drift.report.analysis import analyse, build_report
from inspect_stance.drift.report.render import run_json
from inspect_stance.drift.run import DriftRun

JSON_KEYS = {
    "name",
    "n_propositions",
    "n_trials",
    "spr",
    "spr_se",
    "success_by_stance",
    "patterns",
    "sdr",
    "ci_includes_one",
    "ci_includes_one_bonferroni",
    "pass_rate",
    "auc",
    "patterns_by_stance",
    "patterns_by_stance_se",
    "pass_rate_curve",
    "argmax",
    "unparsed_trials",
    "unparsed_extractions",
    "label_mismatches",
    "missing_values",
    "trials_replayed",
    "replayed_recorded_from",
    "headline",
    "provenance",
    "provenance_notes",
}
PATTERN_KEYS = {
    "polarization",
    "moderation",
    "moderation_to_neutral",
    "flipping",
    "deviation_from_neutrality",
}


def _random_probs(p=6, t=8, seed=0):
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(5) * 0.5, size=(p, t, 5))
    for i in range(5):  # make the diagonal dominant
        probs[:, :, i, i] += 2.0
    return probs / probs.sum(axis=-1, keepdims=True)


def _npz(path, probs, **extra):
    np.savez(path, probs=probs, **extra)
    return path


def test_published_figures_cli(shared_data, capsys):
    path = shared_data / "stance_drift_reference" / "gpt_4o_mini.npz"
    assert main(["report", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (run,) = out["runs"]
    assert set(out) == {"runs"}
    assert set(run) == JSON_KEYS and set(run["patterns"]) == PATTERN_KEYS
    assert set(run["argmax"]) == {"spr", "success_by_stance"}
    assert round(run["spr"], 3) == 0.570
    assert [round(x, 3) for x in run["success_by_stance"]] == [0.933, 0.108, 0.717, 0.310, 0.784]
    assert [round(x, 3) for x in run["ci_includes_one_bonferroni"]] == [
        0.223,
        0.000,
        0.402,
        0.116,
        0.536,
    ]
    assert run["n_propositions"] == 112 and run["n_trials"] == 100
    assert run["unparsed_trials"] == 0 and run["missing_values"] == 0
    assert run["sdr"] == pytest.approx(1 - run["spr"], abs=1e-9)
    # terminal tables carry the same figures
    assert main(["report", str(path)]) == 0
    text = capsys.readouterr().out
    for fig in ("0.570", "0.933", "0.108", "0.717", "0.310", "0.784", "0.223 ", "0.536"):
        assert fig in text


def test_hand_computed_small_run():
    probs = np.zeros((2, 2, 5, 5))
    probs[:, :, np.arange(5), np.arange(5)] = 1.0  # perfect preservation ...
    probs[0, 0, 1] = [0.6, 0.4, 0, 0, 0]  # ... except one trial: Agree -> 0.6 Agree strongly
    an = analyse(probs, threshold=0.95, confidence=0.99)
    # T[0,1,1] = (0.4 + 1) / 2 = 0.7; SPR_s = (1+0.7+1+1+1)/5 = 0.94 and 1.0
    assert an.spr == pytest.approx(0.97)
    assert an.spr_se == pytest.approx(np.std([0.94, 1.0], ddof=1) / np.sqrt(2))
    np.testing.assert_allclose(an.success, [1, 0.85, 1, 1, 1])
    # polarization cell (1,0): proposition 0 mass 0.3/5, proposition 1: 0
    assert an.patterns["polarization"][0] == pytest.approx(0.03)
    assert an.sdr == pytest.approx(0.03)
    np.testing.assert_allclose(an.pass_rate, [1, 0.5, 1, 1, 1])
    # argmax: the 0.6/0.4 trial becomes a point mass on Agree strongly
    am = analyse(np.where(np.isnan(probs), 0, probs), threshold=0.95)
    assert am.spr == pytest.approx(0.97)


def test_argmax_and_exclude_policy_in_report():
    probs = np.zeros((3, 4, 5, 5))
    probs[..., np.arange(5), np.arange(5)] = 0.7
    probs[..., np.arange(5), (np.arange(5) + 1) % 5] = 0.3
    probs[0, 0, 2] = np.nan  # unparsed
    run = DriftRun("r", probs, ["a", "b", "c"], ["1", "2", "3"], "mem")
    fail = run_json(build_report(run))
    excl = run_json(build_report(run, unparsed="exclude"))
    assert fail["unparsed_trials"] == 1 and excl["unparsed_trials"] == 1
    assert fail["spr"] == pytest.approx(0.7 - 0.7 / 4 / 5 / 3)
    assert excl["spr"] == pytest.approx(0.7)
    assert excl["argmax"]["spr"] == pytest.approx(1.0)
    assert fail["argmax"]["success_by_stance"][2] == pytest.approx(1 - 1 / 12)


def test_out_dir_and_many_inputs(tmp_path, capsys):
    a = _npz(tmp_path / "a.npz", _random_probs(p=3, seed=1), propositions=np.array(list("uvw")))
    b = _npz(tmp_path / "b.npz", _random_probs(p=3, seed=2))
    (tmp_path / "again").mkdir()
    a2 = _npz(tmp_path / "again" / "a.npz", _random_probs(p=3, seed=3))  # another run named a
    out = tmp_path / "out"
    rc = main(
        ["report", str(a), str(b), str(a2), str(a), "--out", str(out), "--hops", "3"]
        + ["--per-proposition-heatmaps", "--exclude-unparsed"]
    )
    assert rc == 0
    captured = capsys.readouterr()
    text = captured.out
    # two runs named a: told apart by the end of their paths, whatever the order given
    first, second = f"a [run {tmp_path.name}/a.npz]", "a [run again/a.npz]"
    assert (
        first in text and second in text and "SPR hop 3 (projected)" in text and "excluded" in text
    )
    assert "#2" not in text and "counted 1 repeated run once" in captured.err  # a given twice
    slug = f"a_run_{tmp_path.name}_a.npz"
    for name in (
        "summary.csv",
        "per_proposition.csv",
        "pass_rate_curve.csv",
        "spr_by_hops.csv",
        "k_hop_matrices.csv",
        "stationary.csv",
        "report.md",
        f"heatmap_{slug}.png",
        "heatmap_b_argmax.png",
        f"heatmap_{slug}_hops3.png",
        "spr_vs_hops.png",
    ):
        assert (out / name).is_file(), name
    assert (out / f"heatmap_{slug}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list((out / "heatmaps_b").glob("*.png"))) == 3
    import pandas as pd

    per = pd.read_csv(out / "per_proposition.csv")
    assert len(per) == 3 * 3 * 5
    assert list(per["proposition"][:6]) == ["u"] * 5 + ["v"]
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["run"]) == [first, "b", second]
    md = (out / "report.md").read_text()
    assert f"heatmap_{slug}.png" in md and f"| {second} |" in md
    # --json with --hops > 1 adds the opt-in hops object
    assert main(["report", str(a), "--json", "--hops", "2"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert set(run) == JSON_KEYS | {"hops"} and len(run["hops"]["spr_by_hops"]) == 2


def test_all_reference_runs_at_once(shared_data, capsys):
    paths = sorted((shared_data / "stance_drift_reference").glob("*.npz"))
    assert len(paths) >= 13
    assert main(["report", *map(str, paths), "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [r["name"] for r in runs] == [p.stem for p in paths]
    maverick = next(r for r in runs if r["name"] == "llama4_maverick")
    assert maverick["unparsed_trials"] == 5


def _err_line(capsys):
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_bad_inputs_exit_2(tmp_path, capsys):
    missing = tmp_path / "missing.npz"
    assert main(["report", str(missing)]) == 2
    assert str(missing) in _err_line(capsys)

    shape = _npz(tmp_path / "shape.npz", np.full((3, 4, 5), 0.2))
    assert main(["report", str(shape)]) == 2
    err = _err_line(capsys)
    assert str(shape) in err and "shape" in err

    bad = _random_probs()
    bad[1, 2, 3] = [0.5, 0.1, 0.1, 0.1, 0.1]  # sums to 0.9
    rows = _npz(tmp_path / "rows.npz", bad)
    assert main(["report", str(rows)]) == 2
    err = _err_line(capsys)
    assert str(rows) in err and "sum to 1" in err

    junk = tmp_path / "junk.eval"
    junk.write_text("not a log")
    assert main(["report", str(junk)]) == 2
    assert str(junk) in _err_line(capsys)

    other = tmp_path / "table.csv"
    other.write_text("a,b\n")
    assert main(["report", str(other)]) == 2
    assert "unknown input type" in _err_line(capsys)

    good = _npz(tmp_path / "good.npz", _random_probs())
    assert main(["report", str(good), "--confidence", "1.5"]) == 2
    assert "--confidence" in _err_line(capsys)
