"""Figures the pages embed: nothing drawn is cut at the image's edge, however long the names."""

from __future__ import annotations

import numpy as np
from PIL import Image

from inspect_stance.cli.compare_render import forest_plot
from inspect_stance.stats.family import CompareResult, Comparison

LONG_A = "stance_sim/respondent / default [transition=default, trials=10, seed=1234567]"
LONG_B = "stance_sim/respondent / default [transition=identity, trials=10, seed=7654321]"


def _result(pairs: list[tuple[str, str]]) -> CompareResult:
    comps = [
        Comparison(f"pattern_moderation_to_neutral_{i}", a, b, 0.2, 0.5, 0.3 - 0.1 * i,
                   (0.1 - 0.1 * i, 0.5 - 0.1 * i), 0.01, "t", 8, p_adjusted=0.04 * i)
        for i, (a, b) in enumerate(pairs)
    ]  # fmt: skip
    return CompareResult("stance_drift", [], comps, {}, "holm", 0.05, 0.95)


def _edge_is_blank(path) -> bool:
    """True when the outermost 3 pixels on every side are the white background."""
    img = np.asarray(Image.open(path).convert("L"), dtype=int)
    border = np.concatenate(
        [img[:3].ravel(), img[-3:].ravel(), img[:, :3].ravel(), img[:, -3:].ravel()]
    )
    return bool((border > 245).all())


def test_forest_plot_keeps_every_label_and_the_title_inside_the_image(tmp_path):
    for pairs in ([(LONG_A, LONG_B)] * 6, [(LONG_A, LONG_B), (LONG_B, LONG_A), ("x", LONG_A)]):
        path = tmp_path / "forest.png"
        forest_plot(_result(pairs), path)
        assert _edge_is_blank(path), pairs  # text running off the figure touches its edge


def test_forest_plot_with_long_names_emits_no_warning(tmp_path):
    """Long run names once made ``tight_layout`` warn ("Tight layout not applied") on the console
    of every ``compare --out`` / ``--html``."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        forest_plot(_result([(LONG_A, LONG_B)] * 4), tmp_path / "forest.png")
    assert [str(w.message) for w in caught] == []


def test_lean_plot_keeps_a_long_model_name_inside_the_image(tmp_path):
    """A panel title longer than its panel was cut at the image's right edge."""
    import warnings

    import pandas as pd

    from inspect_stance.construction.plots import plot_leans

    rows = [
        {"topic_id": 1, "topic": "t", "intent": "writing", "stance": s, "method": m,
         "lean": lean, "lean_se": 0.1, "filler_pole": "pole_a" if s == "neutral" else None}
        for s, lean in (("neutral", -1.0), ("pole_a", -2.0))
        for m in ("templated", "generated")
    ]  # fmt: skip
    table = pd.DataFrame(rows)
    path = tmp_path / "lean.png"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plot_leans({"a": {"settings": table}, LONG_A + LONG_B: {"settings": table}}, path)
    assert [str(w.message) for w in caught] == []
    assert _edge_is_blank(path)
