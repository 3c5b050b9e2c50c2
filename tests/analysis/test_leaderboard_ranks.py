"""The leaderboard ranks only what ``compare`` would compare, with the clustered test, and equal
values share a rank."""

from __future__ import annotations

import pytest
from scipy import stats

from inspect_stance.card.ranks import comparable, rank_rows, rank_targets
from inspect_stance.cli import main
from tests.press.test_compare_runs import BEFORE, rec, write_log

OTHER = [
    rec("A", ["S^L", "U^L", "U^L"]),
    rec("B", ["U^L", "U^L", "S^L"]),
    rec("C", ["S^R", "U^R", "U^R"], "right"),
    rec("D", ["S^R", "U^R", "S^R"], "right"),
]


def test_targets_compare_refuses_are_set_apart_with_compare_s_reason(tmp_path, capsys):
    a = write_log(tmp_path / "a.eval", "m/a", BEFORE)
    b = write_log(tmp_path / "b.eval", "m/b", OTHER)
    c = write_log(tmp_path / "c.eval", "m/c", OTHER, metadata={"arguments_fingerprint": "f2"})
    assert main(["compare", a, c]) == 2  # compare refuses: the arguments differ
    refusal = capsys.readouterr().err
    assert "faced different arguments (fingerprint f1" in refusal
    kept, apart = comparable("press", {"a": [a], "b": [b], "c": [c]},
                             {"a": 0.7, "b": 0.3, "c": 0.9}, True)  # fmt: skip
    assert kept == ["a", "b"]
    assert set(apart) == {"c"} and "arguments_fingerprint differs" in apart["c"]
    # two targets only, each with its own arguments: nothing is ranked
    kept, apart = comparable("press", {"a": [a], "c": [c]}, {"a": 0.7, "c": 0.9}, True)
    assert len(kept) == 1 and len(apart) == 1


def test_equal_values_share_a_rank_on_the_board():
    rows = [{"model": "x", "value": 1.0}, {"model": "y", "value": 0.5},
            {"model": "z", "value": 1.0}]  # fmt: skip
    rank_rows(rows, True)
    assert [(r["model"], r["rank"]) for r in rows] == [("x", 1), ("z", 1), ("y", 3)]
    rows = [{"model": "x", "value": 3.611}, {"model": "y", "value": 3.611}]
    rank_rows(rows, False)
    assert [r["rank"] for r in rows] == [1, 1]


def test_ranking_uses_the_clusters():
    # two targets, 4 topics x 3 pairs; b better by 1 on three topics, equal on the fourth:
    # delta 0.75; topic sums of deviations 0.75, 0.75, 0.75, -2.25; CR1 se =
    # sqrt(4/3 * 6.75) / 12 = 0.25; t = 3 on 3 df (as 12 independent items: p < 0.01)
    a = {f"t{g}-{i}": (f"t{g}", 0.0) for g in range(4) for i in range(3)}
    shift = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.0}
    b = {k: (c, shift[int(c[1])]) for k, (c, _) in a.items()}
    ranked = rank_targets({"a": a, "b": b}, True)
    assert ranked is not None
    pair = ranked["pairs"][0]
    assert pair["n_clusters"] == 4 and pair["n_items"] == 12
    assert pair["p"] == pytest.approx(2 * stats.t.sf(3.0, 3))
    assert ranked["tied_groups"] == [["b", "a"]]
    plain = rank_targets({"a": {k: v for k, (_, v) in a.items()},
                          "b": {k: v for k, (_, v) in b.items()}}, True)  # fmt: skip
    assert plain is not None and plain["pairs"][0]["p"] < 0.01
