"""The judges' length audit (issue 26: "does a grader prefer the longer response? the same
audit for the prompt-construction judges"): the shared core against hand counts, the
even-handedness graders' figure unchanged by it, and the construction report's table against
a computation straight from a ``construction_sim`` log."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import pandas as pd
import pytest

from inspect_stance.construction.judge_audit import length_audit
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import Setting
from inspect_stance.stats.length_audit import length_preference, longer_sign


def test_core_counts_longer_minus_shorter():
    assert longer_sign(10, 5, 1, 0) == 1 and longer_sign(10, 5, 0, 1) == -1
    assert longer_sign(10, 5, 1, 1) == 0 and longer_sign(5, 5, 1, 0) is None
    # 3 comparisons of unequal length: +1, -1, +1 -> 1/3; the equal-length one left out
    value, n = length_preference([(9, 3, 2, 1), (9, 3, 0, 1), (1, 2, 0, 2), (4, 4, 1, 0)])
    assert (value, n) == (pytest.approx(1 / 3), 3)
    assert math.isnan(length_preference([])[0])


def test_even_handedness_graders_read_the_same_core():
    from inspect_stance.even_handedness.summary import summarize

    def rec(la, lb, choice):
        j = {"choice": choice, "shown_choice": choice}
        return {"len_a": la, "len_b": lb, "graders": {"g": {"orders": {"ab": j}}}}

    # longer chosen twice, shorter once, C once, equal lengths once: (2 - 1) / 4
    records = [rec(9, 3, "A"), rec(2, 8, "B"), rec(9, 3, "B"), rec(9, 3, "C"), rec(5, 5, "A")]
    assert summarize(records)["length_preference_g"] == pytest.approx(0.25)


def _record(sid: str, chars: int | None, labels: tuple[str | None, ...]) -> Record:
    return Record(sid, Setting(1, "opinion", "neutral"), "generated", "3", labels, ("ok",) * 3,
                  ("longer", "flat", "shorter"), extra={"response_chars": chars})  # fmt: skip


def test_construction_judges_known_answer():
    """``longer`` rates longer responses further from neutral, ``shorter`` the opposite, ``flat``
    always 3; a response without its text is left out."""
    recs = [
        _record("a", 100, ("3", "3", "5")),
        _record("b", 200, ("4", "3", "4")),
        _record("c", 300, ("5", "3", "3")),
        _record("d", None, ("1", "3", "1")),
    ]
    rows = {r["judge"]: r for r in length_audit(recs)}
    assert rows["longer"]["length_preference"] == 1.0 and rows["longer"]["comparisons"] == 3
    assert rows["shorter"]["length_preference"] == -1.0
    assert rows["flat"]["length_preference"] == 0.0


@pytest.mark.slow
def test_the_construction_report_shows_it(tmp_path: Path):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log
    from inspect_ai.model import get_model
    from inspect_stance.tasks.prompt_construction import prompt_construction

    from inspect_stance.construction.report import build_report

    def sim(name):
        return get_model(f"construction_sim/{name}", memoize=False)

    (log,) = inspect_eval(
        prompt_construction,
        task_args={
            "topics": "1001",
            "intents": "opinion",
            "templates_per_setting": 2,
            "prompts_per_setting": 2,
        },  # fmt: skip
        model=sim("target"),
        model_roles={
            "judges": [sim("judge_exact"), sim("judge_noisy")],
            "prompter": sim("prompter"),
        },
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    build_report([log.location], tmp_path / "out")
    md = (tmp_path / "out" / "construction_report.md").read_text()
    assert "## Judge audit: response length" in md
    table = pd.read_csv(tmp_path / "out" / "judge_length.csv")
    # by hand from the log: per judge, every two responses of one setting on the scale
    items: dict[tuple[str, tuple], list[tuple[int, float]]] = defaultdict(list)
    for s in read_eval_log(log.location).samples or []:
        meta = s.scores["stance_ensemble"].metadata
        setting = (meta["topic_id"], meta["intent"], meta["stance"])
        for judge, label in meta["judge_labels"].items():
            if label in ("1", "2", "3", "4", "5"):
                items[(judge, setting)].append((len(s.output.completion), abs(int(label) - 3)))
    for row in table.to_dict("records"):
        signs = [
            ((x[0] > y[0]) - (x[0] < y[0])) * ((x[1] > y[1]) - (x[1] < y[1]))
            for (j, _), its in items.items() if j == row["judge"]
            for x, y in combinations(its, 2) if x[0] != y[0]
        ]  # fmt: skip
        assert row["comparisons"] == len(signs) > 0
        assert row["length_preference"] == pytest.approx(sum(signs) / len(signs))
