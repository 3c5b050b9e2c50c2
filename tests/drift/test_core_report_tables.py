"""Per-stance drift-pattern tables (S5-S10), the pass-rate curve (Fig. S6A), --threshold
checks and unique output names of `inspect-stance report`."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from inspect_stance.cli import main
from inspect_stance.drift.report.analysis import build_report, pooled_pass_curve
from inspect_stance.drift.report.frames import stance_patterns_frame
from inspect_stance.drift.report.render import stance_pattern_table
from inspect_stance.drift.report.write import file_bases
from inspect_stance.drift.run import DriftRun, load_npz


def _tiny() -> np.ndarray:
    """Two propositions, one trial: hand-written transition rows (stance order)."""
    t0 = np.array(
        [
            [0.6, 0.1, 0.1, 0.1, 0.1],  # AS: moderation .1, to-neutral .1, flipping .2
            [0.3, 0.5, 0.0, 0.2, 0.0],  # A: polarization .3, flipping .2
            [0.1, 0.2, 0.4, 0.2, 0.1],  # N: deviation from neutrality .6
            [0.0, 0.0, 0.1, 0.5, 0.4],  # D: to-neutral .1, polarization .4
            [0.0, 0.0, 0.0, 0.0, 1.0],  # DS: nothing
        ]
    )
    t1 = np.array(
        [
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.1, 0.9, 0.0, 0.0, 0.0],  # A: polarization .1
            [0.0, 0.0, 1.0, 0.0, 0.0],
            [0.0, 0.3, 0.0, 0.7, 0.0],  # D: flipping .3
            [0.2, 0.0, 0.0, 0.3, 0.5],  # DS: flipping .2, moderation .3
        ]
    )
    return np.stack([t0, t1])[:, None]  # (P=2, T=1, 5, 5)


def test_per_stance_patterns_hand_computed():
    rep = build_report(DriftRun("tiny", _tiny(), ["p", "q"], ["1", "2"], "mem"))
    pbs = rep.main.patterns_by_stance
    # mean over the two propositions, SE = |a - b| / 2 for two values
    assert pbs["polarization"][0] == pytest.approx([0, 0.2, 0, 0.2, 0])
    assert pbs["polarization"][1] == pytest.approx([0, 0.1, 0, 0.2, 0])
    assert pbs["flipping"][0] == pytest.approx([0.1, 0.1, 0, 0.15, 0.1])
    assert pbs["moderation"][0] == pytest.approx([0.05, 0, 0, 0, 0.15])
    assert pbs["moderation_to_neutral"][0] == pytest.approx([0.05, 0, 0, 0.05, 0])
    assert pbs["deviation_from_neutrality"][0] == pytest.approx([0, 0, 0.3, 0, 0])
    assert rep.main.success == pytest.approx([0.8, 0.7, 0.7, 0.6, 0.75])
    # success + the five masses = 1 per stance; the mean over stances = the overall mass
    total = rep.main.success + sum(pbs[p][0] for p in pbs)
    assert total == pytest.approx(np.ones(5))
    for p in pbs:
        assert float(np.mean(pbs[p][0])) == pytest.approx(rep.main.patterns[p][0])

    table = stance_pattern_table(rep)
    assert list(table.index) == [
        "Agree strongly", "Agree", "Neutral", "Disagree", "Disagree strongly", "All stances",
    ]  # fmt: skip
    assert table.loc["Agree", "Polarization"] == "0.200 (0.100)"
    assert table.loc["Neutral", "Polarization"] == "-"  # no such cell from Neutral
    assert table.loc["Agree strongly", "Deviation from neutrality"] == "-"
    assert (
        table.loc["All stances", "Success rate"] == "0.710 (0.110)"
    )  # per-proposition SPR 0.6, 0.82
    frame = stance_patterns_frame([rep])
    assert len(frame) == 6 and math.isnan(frame.loc[2, "polarization"])
    assert frame.loc[3, "flipping"] == pytest.approx(0.15)


def test_pooled_pass_curve_hand_computed():
    rep = build_report(DriftRun("tiny", _tiny(), ["p", "q"], ["1", "2"], "mem"))
    # success rates of the 10 (proposition, stance) combinations
    succ = [0.6, 0.5, 0.4, 0.5, 1.0, 1.0, 0.9, 1.0, 0.7, 0.5]
    taus = np.round(np.arange(0.5, 1.0001, 0.05), 2)
    expected = [sum(s > t for s in succ) / 10 for t in taus]
    assert pooled_pass_curve(rep.main) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("name", "column", "stance", "published"),
    [
        # the paper's text: GPT-5.4 default, Table S5 / section 3.2-3.4
        ("gpt_5_4", "success", "Agree", 0.147),
        ("gpt_5_4", "success", "Disagree", 0.136),
        ("gpt_5_4", "success", "All stances", 0.593),
        ("gpt_5_4", "polarization", "All stances", 0.328),
        ("gpt_5_4", "flipping", "Agree", 0.076),
        # shared/README: GPT-4o-mini success rate by initial stance and SPR
        ("gpt_4o_mini", "success", "Agree strongly", 0.933),
        ("gpt_4o_mini", "success", "Agree", 0.108),
        ("gpt_4o_mini", "success", "Neutral", 0.717),
        ("gpt_4o_mini", "success", "Disagree", 0.310),
        ("gpt_4o_mini", "success", "Disagree strongly", 0.784),
        ("gpt_4o_mini", "success", "All stances", 0.570),
        ("gpt_4_1", "success", "All stances", 0.686),
        ("gpt_4o_mini_reversed", "success", "All stances", 0.584),
        ("gpt_4o_mini_multiple_summarization", "success", "All stances", 0.569),
        ("gpt_4o_mini_in_context", "success", "All stances", 0.573),
        ("gpt_4o_mini_assert", "success", "All stances", 0.559),
    ],
)
def test_stance_tables_match_published_figures(shared_data, name, column, stance, published):
    path = shared_data / "stance_drift_reference" / f"{name}.npz"
    frame = stance_patterns_frame([build_report(load_npz(path))]).set_index("initial_stance")
    assert round(float(frame.loc[stance, column]), 3) == published


def test_lowest_stance_of_llama4_maverick_is_published(shared_data):
    rep = build_report(load_npz(shared_data / "stance_drift_reference" / "llama4_maverick.npz"))
    assert round(float(rep.main.success.min()), 3) == 0.515


def _npz(path, probs):
    np.savez(path, probs=probs)
    return path


@pytest.mark.parametrize("value", ["2", "nan", "-5", "1.5", "inf"])
def test_threshold_out_of_range_is_one_line_exit_2(tmp_path, capsys, value):
    path = _npz(tmp_path / "r.npz", _tiny())
    assert main(["report", str(path), f"--threshold={value}"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--threshold" in err and "between 0 and 1" in err
    with pytest.raises(ValueError, match="--threshold"):
        build_report(load_npz(path), threshold=float(value))


def test_threshold_bounds_are_accepted(tmp_path, capsys):
    path = _npz(tmp_path / "r.npz", _tiny())
    for value in ("0", "1"):
        assert main(["report", str(path), "--json", "--threshold", value]) == 0
        capsys.readouterr()


def test_colliding_run_names_write_distinct_files(tmp_path, capsys):
    # names that differ only where slug() replaces characters, or in case
    paths = [
        _npz(tmp_path / "run a.npz", _tiny()),
        _npz(tmp_path / "run_a.npz", _tiny() * 0 + np.eye(5)),
        _npz(tmp_path / "RUN_A.npz", _tiny()[::-1]),  # other content: another run
    ]
    out = tmp_path / "out"
    assert main(["report", *map(str, paths), "--out", str(out)]) == 0
    capsys.readouterr()
    heatmaps = sorted(p.name for p in out.glob("heatmap_*.png") if "argmax" not in p.name)
    assert len(heatmaps) == 3 and len({h.casefold() for h in heatmaps}) == 3
    md = (out / "report.md").read_text()
    images = [line for line in md.splitlines() if line.startswith("![") and "heatmap_" in line]
    linked = {line.split("](")[1].rstrip(")") for line in images}
    assert len(linked) == 6  # main + argmax heatmap of each of the three runs
    assert all((out / name).is_file() for name in linked)
    assert "pass_rate_curve.png" in md
    assert (out / "pass_rate_curve.png").read_bytes()[:4] == b"\x89PNG"
    csv = pd.read_csv(out / "drift_patterns_by_stance.csv")
    assert len(csv) == 3 * 6
    curve = pd.read_csv(out / "pass_rate_curve.csv")
    assert "pass_rate_all" in curve.columns


def test_file_bases_unique_for_equal_names():
    runs = [DriftRun(n, _tiny(), ["p", "q"], ["1", "2"], "mem") for n in ("a/b", "a b", "A_B")]
    bases = file_bases([build_report(r) for r in runs])
    assert bases == ["a_b", "a_b_2", "A_B_3"]


def test_json_carries_stance_tables_and_curve(tmp_path, capsys):
    path = _npz(tmp_path / "r.npz", _tiny())
    assert main(["report", str(path), "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["patterns_by_stance"]["polarization"] == pytest.approx([0, 0.2, 0, 0.2, 0])
    assert len(run["pass_rate_curve"]["thresholds"]) == 11
    assert run["pass_rate_curve"]["pass_rate"][0] == pytest.approx(0.6)  # 6 of 10 exceed 0.5
