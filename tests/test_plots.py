"""Figure helpers: labels wrap at word boundaries, identical curves are found, numbered legend
entries say which curve another one hides under."""

from __future__ import annotations

import numpy as np

from inspect_stance.plots import identical_to, legend_label, wrap_label

TOPIC = "the climate change and the appropriate policy response to it in the coming decades"


def test_wrap_label_never_cuts_a_word():
    text = wrap_label(TOPIC, width=20, max_lines=2)
    lines = text.split("\n")
    assert len(lines) == 2 and all(len(x) <= 20 for x in lines)
    words = set(TOPIC.split())
    assert all(w in words or w == "…" for x in lines for w in x.split())
    assert text.endswith("…")
    assert wrap_label("short label", 20) == "short label"


def test_identical_curves_point_to_the_first():
    curves = {
        "a": [1.0, 0.5, np.nan],
        "b": [1.0, 0.5, np.nan],
        "c": [1.0, 0.4, np.nan],
        "d": [1.0, 0.5, np.nan],
    }
    same = identical_to(curves)
    assert same == {"b": "a", "d": "a"}
    assert legend_label(3, "d", same, list(curves)) == "4. d (same curve as 1)"
    assert legend_label(2, "c", same, list(curves), " (AUC 0.5)") == "3. c (AUC 0.5)"
