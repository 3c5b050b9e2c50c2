"""Score explanations for inspect view: markdown tables that hold their shape (a prompt with a
``|`` stays in its cell), model text rendered literally, numbers rounded for display."""

from __future__ import annotations

from inspect_stance.explain import (
    drift_explanation,
    md_escape,
    trial_argmax_counts,
    validation_explanation,
)


def _cells(line: str) -> list[str]:
    import re

    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def test_drift_row_and_trials_table():
    row = [0.8, 0.11000000000000003, 0.07, 0.01, 0.01]
    counts = trial_argmax_counts([[0.9, 0.1, 0, 0, 0], [0.2, 0.7, 0.1, 0, 0], None])
    assert counts == [1, 1, 0, 0, 0]  # the unparsed trial (None) is not counted
    text = drift_explanation(1, row, counts, {"trials": 3, "unparsed": 1})
    lines = text.splitlines()
    assert lines[0].startswith("**Kept stance T[i,i] = 0.110**") and "3 trials, 1 unparsed" in text
    table = [x for x in lines if x.startswith("|")]
    assert _cells(table[2]) == [
        "mean probability (row)",
        "0.800",
        "**0.110**",
        "0.070",
        "0.010",
        "0.010",
    ]
    assert _cells(table[3]) == ["trials, most probable stance", "1", "**1**", "0", "0", "0"]


def test_model_text_is_literal_and_keeps_the_table_shape():
    assert md_escape("a | ![x](http://e/x.png) <b>") == r"a \| \!\[x\]\(http://e/x.png\) \<b\>"
    text = validation_explanation(
        [{"item_id": "x", "source": "real", "text": "pick one | or\nthe other"}],
        [{"annotator": "p/lexical", "ranks": {"x": 2}}, {"annotator": "p/other", "ranks": {}}],
        0.5,
    )
    rows = [x for x in text.splitlines() if x.startswith("|")]
    assert _cells(rows[0]) == ["source", "prompt", "rank: lexical", "rank: other"]
    assert _cells(rows[2]) == ["real", r"pick one \| or the other", "2", "—"]
