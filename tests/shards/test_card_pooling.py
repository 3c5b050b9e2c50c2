"""Cards and ``runs_df`` pool the shards of one study as ``report`` does (issue 27).

Shards 1/2 and 2/2 of a stance-drift study on the simulator in its known-answer mode
(``-M noise=exact``) must give the card entry and the ``runs_df`` row of the unsharded run:
the same SPR, standard error and number of items (to 1e-9); one shard alone is marked partial.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.analysis import runs_df
from inspect_stance.card.core import write_cards
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.report.analysis import build_report
from inspect_stance.provenance import STORE_KEY

PROPS = [f"We should adopt policy number {i}" for i in range(12)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    root = tmp_path_factory.mktemp("card_shards")
    path = root / "props.txt"
    path.write_text("\n".join(PROPS) + "\n")
    common = {"propositions": str(path), "trials": 2, "cache": False}
    tasks = [stance_drift(**common), stance_drift(shard="1/2", **common),
             stance_drift(shard="2/2", **common)]  # fmt: skip
    out = inspect_eval(tasks, model="stance_sim/respondent", model_args={"noise": "exact"},
                       log_dir=str(root / "logs"), display="none")  # fmt: skip
    assert all(x.status == "success" for x in out)
    return [x.location for x in out]


def test_runs_df_pools_two_shards_into_the_unsharded_row(logs):
    whole, one, two = logs
    df = runs_df([whole, one, two])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert pd.isna(w["shards"]) and p["shards"] == "2 of 2" and not p["partial"]
    assert sorted(p["logs"]) == sorted([one, two])
    main = build_report(read_drift_log(whole)).main
    assert abs(w["headline_value"] - main.spr) < 1e-9
    for key in ("headline_value", "headline_stderr", "ci_lo", "ci_hi"):
        assert abs(p[key] - w[key]) < 1e-9, key
    assert p["n_samples"] == w["n_samples"] == 60  # 12 propositions x 5 stances
    assert (p["n_items"], p["n_clusters"]) == (w["n_items"], w["n_clusters"])


def test_card_of_the_shards_equals_the_card_of_the_unsharded_run(logs, tmp_path):
    whole, one, two = logs
    write_cards(runs_df([whole]), tmp_path / "whole")
    write_cards(runs_df([two, one]), tmp_path / "shards")
    [a] = (tmp_path / "whole").glob("*.json")
    [b] = (tmp_path / "shards").glob("*.json")
    ea = json.loads(a.read_text())["methods"]["stance_drift"]
    eb = json.loads(b.read_text())["methods"]["stance_drift"]
    assert abs(ea["value"] - eb["value"]) < 1e-9
    assert (ea["n_items"], ea["n_clusters"]) == (eb["n_items"], eb["n_clusters"])
    assert ea["n_clusters"] == 12  # the propositions the interval counts
    assert all(abs(x - y) < 1e-9 for x, y in zip(ea["ci"], eb["ci"], strict=True))
    assert eb["shards"] == "2 of 2" and not eb["partial"] and ea["shards"] is None
    assert "(2 of 2 shards)" in eb["reading"]


def test_one_shard_alone_is_marked_partial(logs, tmp_path):
    one = logs[1]
    [row] = runs_df([one]).to_dict("records")
    assert row["shards"] == "1 of 2" and row["partial"]
    assert row["n_samples"] == 5 * read_drift_log(one).n_propositions < 60
    write_cards(runs_df([one]), tmp_path)
    [card] = tmp_path.glob("*.json")
    entry = json.loads(card.read_text())["methods"]["stance_drift"]
    assert entry["partial"] and "1 of 2 shards, partial" in entry["reading"]
    assert any("1 of 2 shards of one study" in n for n in entry["notes"])
    assert "1 of 2 shards" in card.with_suffix(".md").read_text()


def test_calls_from_two_system_fingerprints_are_noted_on_the_card(logs, tmp_path):
    log = read_eval_log(logs[0])
    for i, sample in enumerate(log.samples or []):
        fp = "fp_a" if i % 2 else "fp_b"
        sample.store[STORE_KEY] = [{"role": None, "model": "stance_sim/respondent",
                                    "returned_model": "respondent", "system_fingerprint": fp,
                                    "route": None, "cached": False, "calls": 3}]  # fmt: skip
    path = tmp_path / "changed.eval"
    write_eval_log(log, str(path))
    write_cards(runs_df([path]), tmp_path / "cards")
    [card] = (tmp_path / "cards").glob("*.json")
    notes = json.loads(card.read_text())["methods"]["stance_drift"]["notes"]
    assert any("2 system fingerprints" in n and "fp_a 90 calls" in n for n in notes), notes
    assert "2 system fingerprints" in card.with_suffix(".html").read_text()


def test_pooled_spr_is_the_item_weighted_mean_of_the_shards_under_realistic_noise(tmp_path):
    """With ``-M noise=realistic`` each proposition answers differently, so the shards' SPRs
    differ; the pooled SPR (a mean over propositions) is their mean weighted by items."""
    path = tmp_path / "props.txt"
    path.write_text("\n".join(PROPS) + "\n")
    common = {"propositions": str(path), "trials": 2, "cache": False}
    out = inspect_eval([stance_drift(shard=f"{k}/2", **common) for k in (1, 2)],
                       model="stance_sim/respondent", model_args={"noise": "realistic"},
                       log_dir=str(tmp_path / "logs"), display="none")  # fmt: skip
    one, two = (x.location for x in out)
    a, b = (runs_df([p]).iloc[0] for p in (one, two))
    assert abs(a["headline_value"] - b["headline_value"]) > 1e-3  # a test that can fail
    [pooled] = runs_df([one, two]).to_dict("records")
    expected = (a["n_samples"] * a["headline_value"] + b["n_samples"] * b["headline_value"]) / (
        a["n_samples"] + b["n_samples"]
    )
    assert abs(pooled["headline_value"] - expected) < 1e-9
    assert pooled["n_samples"] == a["n_samples"] + b["n_samples"] == 60
    assert pooled["n_clusters"] == a["n_clusters"] + b["n_clusters"] == 12
