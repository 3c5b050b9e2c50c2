"""The PReSS page of ``press-report --html FILE``, and its section of
``report --html``: its title, its markdown report, and what each figure shows and how to read it.

Each caption is written against the figure's axes and the plot code that draws it;
``tests/html/test_page.py`` checks the claims a reader would act on.
"""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

NOTES = {
    r"^heatmap\.png$": FigureNote(
        "PReSS label per statement and argument set",
        "One row per statement ([L] / [R]: the side that agrees with it), one stripe per "
        "argument set, one column per model; the colour is the set's label: stable (dark) or "
        "unstable (light), left (blue) or right (red); grey = no stance to hold, black = a "
        "classification failed.",
    ),
    r"^stability\.png$": FigureNote(
        "Topic stability S_t per statement",
        "Topic stability S_t per statement: the share of argument sets whose label is stable "
        "(S^L or S^R). 1 = the model held its stance under every supporting and counter "
        "argument; low values mean the stance flips under pressure. A 0 is marked at the axis.",
    ),
    r"^scree\.png$": FigureNote(
        "Scree plot of the statements' stance correlations (factor analysis)",
        "Eigenvalues of the statements' stance correlation matrix in decreasing order; factors "
        "above 1 (Kaiser) or before the elbow are kept. With fewer draws than statements the "
        "eigenvalues are unstable.",
    ),
}
PAGE = Page("PReSS report", "report.md", NOTES)
