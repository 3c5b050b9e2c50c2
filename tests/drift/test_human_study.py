"""Human-extraction study: reference label, agreement and drift shares, CLI and bad input."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from inspect_stance.cli import main
from inspect_stance.drift.human_study import analyse_study, load_study

SMALL = (
    "item\tinitial_stance\trater_1\trater_2\trater_3\t"
    "ai_votes_A\tai_votes_B\tai_votes_C\tai_votes_D\tai_votes_E\n"
    "1\tA\tA\tA\tB\t3\t0\t0\t0\t0\n"
    "2\tB\tB\tC\tC\t0\t2\t1\t0\t0\n"
    "3\tC\tC\tD\t\t0\t0\t0\t3\t0\n"  # tie C/D -> C; one blank label
    "4\tE\tE\tE\tE\t0\t0\t0\t2\t2\n"  # model tie D/E -> D
)


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "study.tsv"
    path.write_text(SMALL)
    return path


def test_small_study_hand_computed(small):
    res = analyse_study(load_study(small))
    h = res["human_agreement"]
    per_rater = [3 / 4, 3 / 4, 2 / 3]
    assert h["per_rater"] == pytest.approx(
        dict(zip(["rater_1", "rater_2", "rater_3"], per_rater, strict=True))
    )
    assert h["mean"] == pytest.approx(np.mean(per_rater))
    assert h["se"] == pytest.approx(np.std(per_rater, ddof=1) / np.sqrt(3))
    assert res["model_agreement"]["overall"] == pytest.approx(6 / 13)
    assert res["generation_drift"]["overall"] == pytest.approx(1 / 4)
    assert res["generation_drift"]["by_stance"] == [0.0, 1.0, 0.0, None, 0.0]
    assert res["extraction_drift"]["overall"] == pytest.approx(3 / 4)
    assert res["extraction_drift"]["by_stance"] == [0.0, 1.0, 1.0, None, 1.0]
    assert res["reference_label_counts_by_stance"][2][2] == 1  # tie went to C
    assert res["n_annotations"] == 11


def test_without_votes(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("initial_stance,rater_a,rater_b\nA,A,A\nB,A,B\n")
    res = analyse_study(load_study(path))
    assert res["has_model_votes"] is False and res["model_agreement"] is None
    assert res["generation_drift"]["overall"] == pytest.approx(1 / 2)  # tie A/B -> A != B


def test_shared_study_against_independent_computation(shared_data, capsys):
    path = shared_data / "human_extraction" / "ai_abandon_gpt54_100.tsv"
    df = pd.read_csv(path, sep="\t")
    raters = [c for c in df.columns if c.startswith("rater_")]
    letters = "ABCDE"

    def plural(labels):
        counts = Counter(labels)
        best = max(counts.values())
        return min(x for x in counts if counts[x] == best)

    ref = [plural(row) for row in df[raters].itertuples(index=False)]
    shares = [np.mean([a == r for a, r in zip(df[c], ref, strict=True)]) for c in raters]
    votes = df[[f"ai_votes_{x}" for x in letters]].to_numpy()
    model_share = sum(votes[k, letters.index(r)] for k, r in enumerate(ref)) / votes.sum()
    model_plural = [letters[int(np.argmax(v))] for v in votes]
    gen = np.mean([r != s for r, s in zip(ref, df["initial_stance"], strict=True)])
    ext = np.mean([m != r for m, r in zip(model_plural, ref, strict=True)])

    assert main(["human-study", str(path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["n_items"] == 100 and res["n_raters"] == 9
    assert res["human_agreement"]["mean"] == pytest.approx(np.mean(shares))
    assert res["model_agreement"]["overall"] == pytest.approx(model_share)
    assert res["generation_drift"]["overall"] == pytest.approx(gen)
    assert res["extraction_drift"]["overall"] == pytest.approx(ext)
    assert main(["human-study", str(path)]) == 0
    assert "Human-extraction study" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("stance\trater_1\nA\tA\n", "initial_stance"),
        ("initial_stance\tcoder\nA\tA\n", "rater_"),
        ("initial_stance\trater_1\nA\tF\n", "'F'"),
        ("initial_stance\trater_1\trater_2\nA\t\t\n", "no human label"),
        ("initial_stance\trater_1\tai_votes_A\nA\tA\t3\n", "incomplete"),
    ],
)
def test_bad_input_exit_2(tmp_path, capsys, text, needle):
    path = tmp_path / "bad.tsv"
    path.write_text(text)
    assert main(["human-study", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and needle in err


def test_missing_file_exit_2(tmp_path, capsys):
    assert main(["human-study", str(tmp_path / "nope.tsv")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_model_agreement_two_standard_errors_hand_computed(small):
    m = analyse_study(load_study(small))["model_agreement"]
    # per item: reference label and the model's vote indicators (1 = vote equals it)
    indicators = [[1, 1, 1], [0, 0, 1], [0, 0, 0], [0, 0, 1, 1]]  # refs A, C, C, E
    shares = [np.mean(x) for x in indicators]
    assert m["overall"] == pytest.approx(6 / 13)
    # over items: SD of the per-item shares / sqrt(items)
    assert m["se_over_items"] == pytest.approx(np.std(shares, ddof=1) / 2)
    # over votes (items fixed): sqrt(sum_n V_n s_n^2) / sum_n V_n, s_n^2 with ddof 1
    num = sum(len(x) * np.var(x, ddof=1) for x in indicators)
    assert m["se_over_votes"] == pytest.approx(np.sqrt(num) / 13)
    assert m["se_over_votes"] == pytest.approx(np.sqrt(7 / 3) / 13)
    assert m["se"] == m["se_over_votes"]
    assert set(m["se_definitions"]) == {"se_over_votes", "se_over_items"}


def test_shared_study_reproduces_the_papers_two_ses(shared_data, capsys):
    path = shared_data / "human_extraction" / "ai_abandon_gpt54_100.tsv"
    assert main(["human-study", str(path), "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["model_agreement"]
    # the paper: GPT-5.4 at 0.472 (SE 0.002); human 0.743 (SE 0.038)
    assert round(m["overall"], 3) == 0.472
    assert round(m["se_over_votes"], 3) == 0.002
    assert round(m["se_over_items"], 3) == 0.050
    # independent check: the 9 votes of each item dealt at random to 9 "AI annotators"; the
    # mean over deals of the variance of the annotators' agreement, / 9, is se_over_votes^2
    df = pd.read_csv(path, sep="\t")
    raters = [c for c in df.columns if c.startswith("rater_")]
    ref = [Counter(r).most_common() for r in df[raters].itertuples(index=False)]
    ref = [min(x for x, c in r if c == r[0][1]) for r in ref]
    votes = df[[f"ai_votes_{x}" for x in "ABCDE"]].to_numpy()
    hits = np.array([votes[k, "ABCDE".index(r)] for k, r in enumerate(ref)])
    rng = np.random.default_rng(0)
    deals = np.stack(
        [
            rng.permuted(np.array([[1] * h + [0] * (9 - h) for h in hits]), axis=1)
            for _ in range(400)
        ]
    )  # (deals, items, 9)
    variance = deals.mean(axis=1).var(axis=1, ddof=1).mean() / 9
    assert np.sqrt(variance) == pytest.approx(m["se_over_votes"], rel=0.05)
    text = main(["human-study", str(path)])
    out = capsys.readouterr().out
    assert text == 0 and "SE over votes 0.002" in out and "SE over items 0.050" in out
