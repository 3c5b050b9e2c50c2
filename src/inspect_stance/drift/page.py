"""The stance-drift page of ``report --html FILE``, and its section of
``report --html``: its title, its markdown report, and what each figure shows and how to read it.

Each caption is written against the figure's axes and the plot code that draws it;
``tests/html/test_page.py`` checks the claims a reader would act on.
"""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

HEATMAP = (
    "Each cell is the probability that a model asked to argue the row's stance ends on the "
    "column's stance after reading its argument back (for a multi-hop chain: at the hop the title "
    "names); the diagonal (boxed) is the stance kept, and the mean of the diagonal is the SPR. "
    "Each cell shows its mean over propositions and, below it, the SE. Rows sum to 1 minus the "
    "unparsed share. The right panel is the identity matrix (perfect preservation) in the same "
    "colour scale, for comparison."
)
NOTES = {
    r"^heatmap_.*_argmax\.png$": FigureNote(
        "Transition matrix, argmax (temperature-0) re-analysis",
        HEATMAP + " Argmax: each reading counts as its most probable letter only.",
        per_run=True,
    ),
    r"^heatmap_.*_hops\d+\.png$": FigureNote(
        "Transition matrix projected over hops (T^K)",
        HEATMAP + " This one is a projection, the matrix raised to the K-th power, not data.",
        per_run=True,
    ),
    r"^heatmap_": FigureNote("Transition matrix", HEATMAP, per_run=True),
    r"^spr_vs_hops\.png$": FigureNote(
        "SPR against hops",
        "SPR (the share of stances kept) after k hops, one colour per run. Markers joined by a "
        "solid line are measured hops (error bars: 1 SE over propositions); hop 0 is 1 by "
        "definition. The dotted line is a projection from the one-hop matrices (T^k), a Markov "
        "assumption, not data: on a one-hop run everything past hop 1 is projected.",
    ),
    r"^pass_rate_curve\.png$": FigureNote(
        "Pass rate against the success-rate threshold (Fig. S6A)",
        "The share of proposition x initial-stance pairs whose success rate exceeds each "
        "threshold (x); strictly exceeds, so nothing passes at 1.00 and a run that always keeps "
        "its stance has AUC 0.95. A curve further right and higher means a model keeps its "
        "stances on more propositions; the AUC in the legend summarises the curve.",
    ),
}
PAGE = Page("Stance drift report", "report.md", NOTES)
