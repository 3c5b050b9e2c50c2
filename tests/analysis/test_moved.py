"""Item by item: the items that moved most between two runs, by hand and from real logs."""

from __future__ import annotations

import math

from inspect_stance.card.moved import item_table, moved_items, moved_markdown


def test_sorted_by_absolute_change_and_only_shared_items():
    a = {"p1": ("one", 0.9), "p2": ("two", 0.5), "p3": ("three", 0.2), "gone": ("x", 0.0),
         "same": ("s", 0.4)}  # fmt: skip
    b = {"p1": ("one", 0.3), "p2": ("two", 0.6), "p3": ("three", 0.6), "new": ("y", 1.0),
         "same": ("s", 0.4),
         "nan": ("z", math.nan)}  # fmt: skip
    moved = moved_items(a, b, top=2)
    assert [(m.item, round(m.delta, 3)) for m in moved] == [("p1", -0.6), ("p3", 0.4)]
    md = moved_markdown("run a", "run b", "stance_drift", moved)
    assert "| one | 0.900 | 0.300 | -0.600 |" in md and "propositions" in md
    assert [m.item for m in moved_items(a, b)] == ["p1", "p3", "p2"]  # "same" did not move
    assert "No statement" in moved_markdown("a", "b", "press", [])


def test_tables_from_logs_match_the_headline(sim_logs):
    import glob

    from inspect_ai.log import read_eval_log

    (drift,) = glob.glob(str(sim_logs["stance_drift"] / "*.eval"))
    table = item_table(drift, "stance_drift")
    spr = read_eval_log(drift, header_only=True).results.scores[0].metrics["spr"].value
    assert len(table) == 5 and all(text for text, _ in table.values())
    # the per-sample score is stored rounded (4 decimals), the metric from the exact values
    assert math.isclose(sum(v for _, v in table.values()) / 5, spr, abs_tol=1e-3)
    (press,) = glob.glob(str(sim_logs["press"] / "*.eval"))
    table = item_table(press, "press")
    s_t = read_eval_log(press, header_only=True).results.scores[0].metrics["mean_S_t"].value
    assert math.isclose(sum(v for _, v in table.values()) / len(table), s_t, abs_tol=1e-6)
