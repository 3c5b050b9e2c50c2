"""The stratified random export of sample ids for human labelling: every (model, setting,
method) stratum gets its share, drawn uniformly at random within it (checked by simulation),
reproducibly by seed; empty and too-small strata are warned about; the file goes back to
``--human-labels`` once labelled."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest

from inspect_stance.construction.human_labels import load_model_labels
from inspect_stance.construction.label_sample import label_sample, write_label_sample
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import Setting

METHODS = ("templated", "generated")


def _records(per: int = 10, refusing: tuple[str, str] | None = None) -> list[Record]:
    out = []
    for topic in (1, 2, 3):
        s = Setting(topic, "writing", "neutral")
        for method in METHODS:
            for k in range(per):
                outcome = "refusal" if refusing == (s.key, method) else str(1 + k % 5)
                rid = f"{s.key}/{method}/{k:02d}"
                out.append(Record(rid, s, method, outcome, extra={"target_model": "m/x"}))
    return out


def _strata(rows) -> Counter:
    return Counter((r["setting"], r["method"]) for r in rows)


def test_every_stratum_gets_its_share_and_ids_are_eligible() -> None:
    recs = _records()
    sample = label_sample(recs, 14, seed=1)
    assert len(sample.rows) == 14 and sample.n_strata == 6 and sample.warnings == []
    assert sorted(_strata(sample.rows).values()) == [2, 2, 2, 2, 3, 3]  # 14 = 6 x 2 + 2
    assert len({r["id"] for r in sample.rows}) == 14
    by_id = {r.sample_id: r for r in recs}
    for row in sample.rows:
        rec = by_id[row["id"]]
        assert (rec.setting.key, rec.method) == (row["setting"], row["method"])
        assert row["model"] == "m/x" and row["label"] == ""
    assert label_sample(recs, 14, seed=1).rows == sample.rows  # reproducible
    assert label_sample(recs, 14, seed=2).rows != sample.rows


def test_draws_are_uniform_within_a_stratum() -> None:
    """2 of 10 per stratum: each response is drawn with probability 0.2 (known answer);
    over 2,000 seeds every frequency is within 4.5 binomial SE of 0.2 (SE 0.0089)."""
    recs = _records()
    counts: Counter = Counter()
    reps = 2000
    for seed in range(reps):
        counts.update(r["id"] for r in label_sample(recs, 12, seed=seed).rows)
    freq = np.array([counts[r.sample_id] / reps for r in recs])
    se = np.sqrt(0.2 * 0.8 / reps)
    assert np.abs(freq - 0.2).max() < 4.5 * se, freq


def test_empty_and_small_strata_are_warned() -> None:
    recs = _records(refusing=("2-writing-neutral", "generated"))
    sample = label_sample(recs, 5, seed=0)
    assert sample.n_strata == 5
    text = "\n".join(sample.warnings)
    assert "m/x / 2-writing-neutral / generated: no response with a scale label" in text
    assert "get fewer than 2 labels" in text and "--n 10" in text
    short = label_sample(_records(per=2), 30, seed=0)
    assert len(short.rows) == 12 and any("18 fewer rows" in w for w in short.warnings)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        label_sample(_records(), 0)
    all_refused = [Record("a", Setting(1, "writing", "neutral"), "templated", "refusal")]
    with pytest.raises(ValueError, match="no response has a scale label"):
        label_sample(all_refused, 5)


def test_the_filled_file_is_a_human_label_file(tmp_path) -> None:
    sample = label_sample(_records(), 12, seed=3)
    path = tmp_path / "ids.csv"
    write_label_sample(sample, str(path))
    rows = list(csv.DictReader(path.open()))
    assert [r["id"] for r in rows] == [r["id"] for r in sample.rows]
    for r in rows:
        r["label"] = "3"
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    labels = load_model_labels(path)
    assert len(labels) == 12 and set(labels.values()) == {"3"}
    assert ("m/x", rows[0]["id"]) in labels
