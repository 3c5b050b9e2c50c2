"""``inspect-stance card``: per-model pages and the leaderboard, from simulator runs."""

from __future__ import annotations

import json

from inspect_stance.card.core import escape_name, file_stem, leaderboard
from inspect_stance.cli import main


def test_cards_for_every_model_and_a_sorted_leaderboard(sim_logs, tmp_path, capsys):
    out = tmp_path / "cards"
    assert main(["card", *(str(p) for p in sim_logs.values()), "--out", str(out)]) == 0
    card = json.loads((out / "stance_sim_respondent.json").read_text())
    entry = card["methods"]["stance_drift"]
    from inspect_ai.log import list_eval_logs, read_eval_log

    (info,) = list_eval_logs(str(sim_logs["stance_drift"]))
    metrics = read_eval_log(info, header_only=True).results.scores[0].metrics
    assert entry["metric"] == "spr"
    assert entry["n_items"] == metrics["n_items"].value  # the headline's, as its scorer wrote it
    assert entry["n_clusters"] == metrics["n_clusters"].value == 5  # propositions
    lo, hi = entry["ci"]
    assert lo <= entry["value"] <= hi and hi - lo > 0  # realistic simulator: a real interval
    assert card["tokens"] > 0
    for stem in ("stance_sim_respondent", "press_sim_target", "construction_sim_target"):
        for suffix in (".html", ".md", ".json"):
            assert (out / f"{stem}{suffix}").is_file()
        for method, e in json.loads((out / f"{stem}.json").read_text())["methods"].items():
            assert e["ci"][0] <= e["value"] <= e["ci"][1], (stem, method)
    md = (out / "stance_sim_respondent.md").read_text()
    assert "keeps the stance it was asked to argue in" in md and "higher is better" in md
    assert (out / "index.html").is_file()
    board = json.loads((out / "leaderboard.json").read_text())
    assert set(board) >= {"stance_drift", "press", "prompt_construction"}


def test_leaderboard_sorts_by_the_better_direction():
    def card(model, method, value):
        return {"model": model, "methods": {method: {"value": value, "ci": [value, value]}}}

    cards = {m: card(m, "stance_drift", v) for m, v in (("a", 0.4), ("b", 0.9), ("c", 0.6))}
    assert [r["model"] for r in leaderboard(cards)["stance_drift"]] == ["b", "c", "a"]
    cards = {m: card(m, "prompt_construction", v) for m, v in (("a", 0.4), ("b", 0.1))}
    assert [r["model"] for r in leaderboard(cards)["prompt_construction"]] == ["b", "a"]


def test_model_names_with_control_characters_are_escaped():
    assert escape_name("evil\x1b[31m\nmodel\u202e") == "evil\\x1b[31m\\nmodel\\u202e"
    assert "\x1b" not in file_stem("a/\x1bb") and "/" not in file_stem("a/\x1bb")


def test_a_missing_path_is_a_one_line_error(tmp_path, capsys):
    assert main(["card", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    assert "not found" in capsys.readouterr().err
