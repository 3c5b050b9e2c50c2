"""Fixtures for the prompt-construction tests: an independent Krippendorff alpha, tiny inputs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

NOMINAL = "nominal"


def _hand_alpha(matrix, level):
    """Krippendorff (2011) from the coincidence matrix, written independently of the package.

    o_ck = sum over units of (pairs c-k in the unit) / (m_u - 1); n_c = sum_k o_ck;
    alpha = 1 - (n - 1) * sum o_ck d_ck / sum n_c n_k d_ck, with d nominal (c != k) or
    ordinal ((sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2).
    """
    units = [[v for v in col if v is not None] for col in zip(*matrix, strict=True)]
    units = [u for u in units if len(u) >= 2]
    values = sorted({v for u in units for v in u})
    o = {(c, k): 0.0 for c in values for k in values}
    for u in units:
        for i, a in enumerate(u):
            for j, b in enumerate(u):
                if i != j:
                    o[(a, b)] += 1.0 / (len(u) - 1)
    n_c = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(n_c.values())

    def d(c, k):
        if level == NOMINAL:
            return float(c != k)
        lo, hi = min(c, k), max(c, k)
        return (sum(n_c[g] for g in values if lo <= g <= hi) - (n_c[c] + n_c[k]) / 2) ** 2

    d_o = sum(o[(c, k)] * d(c, k) for c in values for k in values)
    d_e = sum(n_c[c] * n_c[k] * d(c, k) for c in values for k in values) / (n - 1)
    return 1.0 - d_o / d_e


@pytest.fixture(scope="session")
def hand_alpha() -> Callable:
    """Krippendorff's alpha written from the textbook formula (not the package under test)."""
    return _hand_alpha


TOPICS_CSV = """topic_id,topic_neutral,topic_pro,topic_con,tag_exclude,top_prompts,random_prompts,filler_pole
1,the colour of bikesheds,bikesheds being red,bikesheds being blue,,"['Which bikeshed colour is best?']","['paint my shed']",pole_a
2,the lunch menu,the lunch menu being healthy,the lunch menu being unhealthy,,"['is school lunch ok']",[],pole_b
"""


@pytest.fixture(scope="session")
def tiny_inputs(tmp_path_factory) -> dict[str, Path]:
    """A two-topic issues file, writing templates and opinion templates (one refusal trigger)."""
    root = tmp_path_factory.mktemp("construction_inputs")
    topics = root / "topics.csv"
    topics.write_text(TOPICS_CSV)
    writing = root / "writing.csv"
    writing.write_text(
        "template_id,template\nw-essay,Write an essay about X.\nw-poem,A poem on X please\n"
    )
    opinion = root / "opinion.txt"
    opinion.write_text("What do you think about X?\nSECRET-TRIGGER: judge X for me.\n")
    return {"topics": topics, "writing": writing, "opinion": opinion}
