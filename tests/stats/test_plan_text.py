"""``why_none``: a plan that recommends no design says why (the assurance, or the least SE)
and which flags widen the search."""

from __future__ import annotations

from inspect_stance.stats.plan_text import why_none

DESIGNS = [("20 x 5 trials", 0.0084), ("20 x 10 trials", 0.0080), ("20 x 20 trials", 0.0078)]
WIDEN = "--max-propositions P"


def test_a_design_meeting_the_point_prediction_names_the_assurance():
    text = why_none({"target_se": 0.0082, "assurance": 0.8}, DESIGNS, WIDEN, "SE(SPR)")
    # the cheapest listed design at or under 0.0082 is 20 x 10 (0.0080)
    assert text.startswith(": 20 x 10 trials predicts SE(SPR) 0.0080, within 0.0082")
    assert "not with assurance 0.8" in text and "lower --assurance" in text
    assert text.endswith("widen the search with --max-propositions P")


def test_no_design_under_the_target_gives_the_least_se():
    text = why_none({"target_se": 0.007, "assurance": 0.8}, DESIGNS, WIDEN)
    assert text == (": the least predicted SE is 0.0078 (20 x 20 trials), above 0.0070; "
                    "widen the search with --max-propositions P")  # fmt: skip


def test_without_assurance_a_met_point_prediction_is_not_the_reason():
    text = why_none({"target_se": 0.0082, "assurance": None}, DESIGNS, WIDEN)
    assert text == ": widen the search with --max-propositions P"


def test_a_power_goal_names_the_power():
    text = why_none({"target_se": None, "detect": 0.05, "power": 0.9}, DESIGNS, WIDEN)
    assert text == ": no listed design has power 0.9; widen the search with --max-propositions P"
