"""`inspect-stance compare` on stance-drift runs: reference .npz figures, pairing by content,
JSON fields, outputs, and refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from inspect_stance.cli import main
from inspect_stance.drift.compare import METRICS, drift_items
from inspect_stance.drift.run import DriftRun, load_npz
from inspect_stance.stats.family import item_comparisons

JSON_KEYS = {"metric", "a", "b", "delta", "ci", "p", "p_adjusted", "test", "n_items"}


@pytest.fixture(scope="module")
def ref(shared_data):
    folder = shared_data / "stance_drift_reference"
    if not folder.is_dir():
        pytest.skip("reference runs not available")
    return folder


def test_reference_npz_gives_published_figures(ref, capsys):
    rc = main(["compare", str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4_1.npz"), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    by = {c["metric"]: c for c in out["comparisons"]}
    assert by["spr"]["a"] == pytest.approx(0.570, abs=5e-4)
    published = [0.933, 0.108, 0.717, 0.310, 0.784]
    for key, value in zip(
        ["agree_strongly", "agree", "neutral", "disagree", "disagree_strongly"],
        published,
        strict=True,
    ):
        assert by[f"success_{key}"]["a"] == pytest.approx(value, abs=5e-4)
    for c in out["comparisons"]:
        assert JSON_KEYS <= set(c)
        assert c["delta"] == pytest.approx(c["b"] - c["a"])
        assert c["n_items"] == 112
        assert c["p_adjusted"] >= c["p"]
    # the SPR delta against an independent computation: scipy's paired t over propositions
    a, b = load_npz(ref / "gpt_4o_mini.npz"), load_npz(ref / "gpt_4_1.npz")
    sa = np.nan_to_num(a.probs).diagonal(axis1=-2, axis2=-1).mean(axis=(1, 2))
    sb = np.nan_to_num(b.probs).diagonal(axis1=-2, axis2=-1).mean(axis=(1, 2))
    ci = stats.ttest_rel(sb, sa).confidence_interval()
    assert by["spr"]["ci"] == pytest.approx([ci.low, ci.high])
    assert by["spr"]["p"] == pytest.approx(stats.ttest_rel(sb, sa).pvalue)
    assert set(out["rankings"]["spr"]["order"]) == {"gpt_4o_mini", "gpt_4_1"}


def _run(props, probs, name="r"):
    return DriftRun(name=name, probs=probs, propositions=props, topic_ids=props, source=name)


def test_pairing_is_by_proposition_text_not_position():
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.ones(5), size=(6, 4, 5))
    props = [f"p{k}" for k in range(6)]
    perm = [3, 0, 5, 1, 4, 2]
    a = drift_items(_run(props, probs, "a"), "a")
    b = drift_items(_run([props[k] for k in perm], probs[perm], "b"), "b")
    (spr,) = [c for c in item_comparisons([a, b], METRICS[:1]) if c.metric == "spr"]
    assert spr.delta == pytest.approx(0.0, abs=1e-12)  # same data, shuffled order


def test_same_npz_twice_counted_once(ref, capsys):
    path = str(ref / "gpt_4o_mini.npz")
    assert main(["compare", path, path]) == 2
    err = capsys.readouterr().err
    assert "at least two different runs (got 1)" in err and "repeated run once" in err


def test_a_copy_of_a_run_counts_once(ref, tmp_path, capsys):
    import shutil

    copy = tmp_path / "copy_of_4o_mini.npz"
    shutil.copy(ref / "gpt_4o_mini.npz", copy)
    paths = [str(ref / "gpt_4o_mini.npz"), str(copy), str(ref / "gpt_4_1.npz")]
    assert main(["compare", *paths, "--metric", "spr", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [r["name"] for r in out["runs"]] == ["gpt_4o_mini", "gpt_4_1"]
    assert len(out["comparisons"]) == 1
    assert "copy_of_4o_mini.npz is the same run as" in captured.err


def test_out_writes_csv_markdown_and_forest_plot(ref, tmp_path, capsys):
    out = tmp_path / "cmp"
    paths = [str(ref / f"{m}.npz") for m in ("gpt_4o_mini", "gpt_4_1", "gpt_3_5_turbo")]
    assert main(["compare", *paths, "--metric", "spr", "--out", str(out),
                 "--label", "gpt_4_1.npz=GPT-4.1"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "GPT-4.1" in text and "ranking on spr" in text
    import pandas as pd

    frame = pd.read_csv(out / "comparisons.csv")
    assert len(frame) == 3  # 3 pairs x 1 metric
    assert (frame["p_adjusted"] >= frame["p"]).all()
    assert (out / "forest.png").stat().st_size > 1000
    assert "ranking on spr" in (out / "comparison.md").read_text()


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--confidence", "1.5"], "--confidence 1.5 must be strictly between 0 and 1"),
        (["--alpha", "0"], "--alpha 0.0 must be strictly between 0 and 1"),
        (["--metric", "nope"], "unknown stance-drift metric 'nope'"),
    ],
)
def test_bad_options_are_one_line_errors(ref, capsys, extra, message):
    paths = [str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4_1.npz")]
    assert main(["compare", *paths, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_out_existing_file_is_one_line_error(ref, tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    paths = [str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4_1.npz")]
    assert main(["compare", *paths, "--out", str(f)]) == 2
    assert "is an existing file" in capsys.readouterr().err


def test_reversed_npz_refused_against_default(ref, capsys):
    paths = [str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4o_mini_reversed.npz")]
    assert main(["compare", *paths]) == 2
    err = capsys.readouterr().err.strip()
    assert "letter_order differs" in err and "\n" not in err
    assert main(["gate", paths[1], "--baseline", paths[0]]) == 2
    assert "letter_order differs" in capsys.readouterr().err
    assert main(["compare", *paths, "--metric", "spr", "--allow-different-settings"]) == 0
    assert "compared anyway" in capsys.readouterr().out


def test_out_below_a_file_is_one_line_error(ref, tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    paths = [str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4_1.npz")]
    assert main(["compare", *paths, "--out", str(f / "sub")]) == 2
    err = capsys.readouterr().err.strip()
    assert "is a file, not a folder" in err and "\n" not in err


def test_bh_adjustment_and_bootstrap_interval(ref, capsys):
    from statsmodels.stats.multitest import multipletests

    paths = [str(ref / "gpt_4o_mini.npz"), str(ref / "gpt_4_1.npz")]
    assert main(["compare", *paths, "--adjust", "bh", "--interval", "bootstrap", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    p = [c["p"] for c in out["comparisons"]]
    assert [c["p_adjusted"] for c in out["comparisons"]] == pytest.approx(
        list(multipletests(p, method="fdr_bh")[1])
    )
    spr = out["comparisons"][0]
    assert "bootstrap" in spr["test"] and spr["ci"][0] < spr["delta"] < spr["ci"][1]


def test_few_propositions_use_t_with_its_df_and_say_it(tmp_path, capsys):
    rng = np.random.default_rng(4)
    props = np.array([f"p{k}" for k in range(5)])
    for name, shift in (("a", 0.0), ("b", 0.3)):
        probs = np.zeros((5, 8, 5, 5))
        for s in range(5):
            for i in range(5):
                hits = rng.uniform(size=8) < min(0.6 + shift, 1.0)
                probs[s, :, i, i] = hits
                probs[s, ~hits, i, (i + 1) % 5] = 1.0
        np.savez(tmp_path / f"{name}.npz", probs=probs, propositions=props)
    assert main(["compare", str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), "--metric", "spr",
                 "--json"]) == 0  # fmt: skip
    (c,) = json.loads(capsys.readouterr().out)["comparisons"]
    assert "fewer than 10" in c["test"] and c["n_items"] == 5
    assert -1.0 <= c["ci"][0] <= c["ci"][1] <= 1.0
    assert (c["ci"][0] > 0 or c["ci"][1] < 0) == (c["p"] < 0.05)


def test_partial_overlap_is_said_with_the_counts(ref, tmp_path, capsys):
    """A run on 60 of the 112 propositions: the comparison is over the 60 shared ones, and the
    output says how many each run has, so b's value is not read as the full run's."""
    full = dict(np.load(ref / "gpt_4_1.npz"))
    keep = np.random.default_rng(0).permutation(112)[:60]
    part = tmp_path / "part.npz"
    np.savez(part, probs=full["probs"][keep], propositions=full["propositions"][keep])
    rc = main(["compare", str(ref / "gpt_4o_mini.npz"), str(part), "--metric", "spr"])
    assert rc == 0
    out = capsys.readouterr().out
    a = load_npz(ref / "gpt_4o_mini.npz")
    index = {p: k for k, p in enumerate(a.propositions)}
    sa = np.nan_to_num(a.probs).diagonal(axis1=-2, axis2=-1).mean(axis=(1, 2))
    sa = sa[[index[p] for p in full["propositions"][keep]]]
    assert f"{sa.mean():.3f}" in out  # value a is over the shared propositions only
    assert "60 shared propositions" in out
    assert "gpt_4o_mini has 112" in out and "part has 60" in out


def test_identical_item_values_are_said(ref, tmp_path, capsys):
    """Two runs with equal per-proposition values (trials reordered): delta 0 with a zero-width
    interval is reported with a note that the differences have no spread, not as a finding."""
    full = dict(np.load(ref / "gpt_4_1.npz"))
    twin = tmp_path / "twin.npz"
    np.savez(twin, probs=full["probs"][:, ::-1], propositions=full["propositions"])
    rc = main(["compare", str(ref / "gpt_4_1.npz"), str(twin), "--metric", "spr"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "nan" not in out.lower()
    assert "spr gpt_4_1 vs twin: every item's difference is 0.000 (zero variance)" in out


def test_a_chain_run_is_refused_against_a_one_hop_run(ref):
    """A ``hops=3`` log's matrix is the one read after the last hop, a ``hops=1`` run's (and an
    ``.npz``'s) the one-hop matrix: different measurements, refused in one line."""
    from inspect_stance.drift.compare import npz_settings, run_settings
    from inspect_stance.errors import InputError
    from inspect_stance.runs import RunInfo, check_settings

    args = {"variant": "default", "relay_operation": "paraphrase", "relay_language": None}
    chain = RunInfo("chain.eval", "c", task_args={**args, "hops": 3})
    one = RunInfo("one.eval", "o", task_args={**args, "hops": 1})
    npz = RunInfo("x.npz", "n")
    chain.settings, one.settings = run_settings(chain), run_settings(one)
    npz.settings = npz_settings(ref / "gpt_4o_mini.npz")
    for other in (one, npz):
        with pytest.raises(InputError, match="hops differs"):
            check_settings([chain, other], ["chain", "other"])
    translated = RunInfo("t.eval", "t", task_args={**args, "hops": 3,
                                                   "relay_operation": "translate"})  # fmt: skip
    translated.settings = run_settings(translated)
    with pytest.raises(InputError, match="relay_operation differs"):
        check_settings([chain, translated], ["chain", "translated"])
    check_settings([one, npz], ["one", "npz"])  # a one-hop log and an .npz compare


def test_ranking_line_gives_equal_runs_one_rank() -> None:
    """Two runs with identical items and a third below: the line names the shared rank of the
    equal pair (1 and 1, joined by '='), each with P(rank 1) = 1, not ranks 1 and 2 with
    P(rank 2) = 0 for the second."""
    import numpy as np

    from inspect_stance.cli.compare_render import ranking_line
    from inspect_stance.stats.ranking import rank_runs

    a = np.array([0.9, 0.8, 0.7, 0.9, 0.6, 0.8])
    values = np.column_stack([a, a, a - 0.5])
    rk = rank_runs(["A", "B", "C"], values)
    line = ranking_line(rk)
    assert line.startswith(
        "A (0.783, P(rank 1) 1.00) = B (0.783, P(rank 1) 1.00) > C (0.283, P(rank 3) 1.00)"
    ), line  # means 4.7 / 6 and 1.7 / 6


def test_exclude_unparsed_leaves_unparsed_trials_out(tmp_path, capsys):
    """``--exclude-unparsed`` (the method's own compare option): run b answers every parsed
    trial on the diagonal but half its trials are unparsed (NaN). Counted as failures its SPR
    is 0.5 (delta -0.5 against run a's 1.0); left out it is 1.0 (delta 0)."""
    props = np.array([f"p{k}" for k in range(5)])
    eye = np.broadcast_to(np.eye(5), (5, 4, 5, 5)).copy()
    half = eye.copy()
    half[:, :2] = np.nan
    for name, probs in (("a", eye), ("b", half)):
        np.savez(tmp_path / f"{name}.npz", probs=probs, propositions=props)
    args = ["compare", str(tmp_path / "a.npz"), str(tmp_path / "b.npz"), "--metric", "spr"]
    deltas = []
    for extra in ([], ["--exclude-unparsed"]):
        assert main([*args, *extra, "--json"]) == 0
        (c,) = json.loads(capsys.readouterr().out)["comparisons"]
        deltas.append(c["delta"])
    assert deltas == [pytest.approx(-0.5), pytest.approx(0.0)]
