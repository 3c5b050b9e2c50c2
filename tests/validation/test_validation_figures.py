"""validation-report figures from a hand-made summary table: both PNGs written, a source
without figures drawn as n/a instead of failing."""

from __future__ import annotations

import math

import pandas as pd

from inspect_stance.html import png_size
from inspect_stance.validation.plots import realism_figure, recovery_figure


def test_figures_are_written_from_the_summary(tmp_path):
    summary = pd.DataFrame(
        {
            "llm": {
                "mean_rank_real": 2.0,
                "mean_rank_templated": 4.5,
                "mean_rank_generated": 2.5,
                "kendall_w": 0.65,
                "intent_accuracy_templated": 0.8,
                "intent_accuracy_generated": 0.9,
                "stance_accuracy_templated": math.nan,
                "stance_accuracy_generated": 1.0,
            },
            "human": {"mean_rank_real": 2.4, "kendall_w": 0.21},
        }
    )
    for fn, name in ((realism_figure, "realism.png"), (recovery_figure, "recovery.png")):
        path = fn(summary, tmp_path / name)
        w, h = png_size(path.read_bytes())
        assert w > 500 and h > 300
