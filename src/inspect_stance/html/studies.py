"""What each report command's page is called, which logs it lists, and what each figure is.

Every figure a report writes has a :class:`FigureNote` (found by a regular expression on its file
name): a **title** saying what it shows (the page adds which run, from the markdown report's image
text) and a **how to read this** caption. Each caption is written against the figure's axes and
the plot code that draws it; ``tests/html/test_page.py`` checks the claims a reader would act on
(the boxed diagonal, the lean's poles, "exceeds" for the pass rate, per-comparison intervals).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class FigureNote:
    """What a figure shows (its title on the page) and how to read it."""

    title: str
    how_to_read: str = ""
    #: one figure per run (the markdown's image text names the run), not one over all runs
    per_run: bool = False


@dataclass(frozen=True)
class Study:
    """What a study's page is called, which logs it lists and how to read its figures."""

    title: str
    tasks: tuple[str, ...]
    markdown: str
    notes: Mapping[str, FigureNote] = field(default_factory=dict)


HEATMAP = (
    "Each cell is the probability that a model asked to argue the row's stance ends on the "
    "column's stance after reading its argument back (for a multi-hop chain: at the hop the title "
    "names); the diagonal (boxed) is the stance kept, and the mean of the diagonal is the SPR. "
    "Each cell shows its mean over propositions and, below it, the SE. Rows sum to 1 minus the "
    "unparsed share. The right panel is the identity matrix (perfect preservation) in the same "
    "colour scale, for comparison."
)
DRIFT = {
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
PRESS = {
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
CONSTRUCTION = {
    r"^lean_by_setting\.png$": FigureNote(
        "Lean by setting and prompt construction",
        "Mean stance label minus 3 (neutral) per setting and construction method: left of 0 "
        "leans toward pole A (the topic's pro phrasing, topic_pro), right toward pole B (its con "
        "phrasing, topic_con), as on the axis. Red dots: templated prompts; open blue squares: "
        "generated prompts; lines: ±1.96 SE. The green triangles at the panel's edge say which "
        "pole the topic's template filler encodes (◀ pole A, ▶ pole B; none: the filler encodes "
        "no pole); a templated dot on the same side as its filler's triangle is the confound "
        "the paper reports. Grey rows: a neutral user.",
    ),
}
VALIDATION = {
    r"^realism\.png$": FigureNote(
        "Realism: mean rank per prompt source",
        "Mean realism rank per prompt source (1 = ranked most likely written by a real user), "
        "one bar per annotator group (LLM annotators; people where labels were given); Kendall's "
        "W (agreement among the annotators) in the title. The paper's claim is generated <= real "
        "< templated.",
    ),
    r"^recovery\.png$": FigureNote(
        "Construct clarity: intent and stance recovered",
        "The share of prompts whose intended intent (left) and stance (right) the annotators "
        "recovered, per prompt source and annotator group. Real prompts have no intended intent "
        "or stance to recover: n/a.",
    ),
}
COMPARE = {
    r"^forest\.png$": FigureNote(
        "Differences between runs (forest plot)",
        "Each row is one metric's difference between two runs (b - a): the dot is the "
        "difference, the line its per-comparison interval (the level on the x axis), the dashed "
        "line 0. Red rows differ after the family adjustment named in the title (adjusted p "
        "below alpha); shaded grey rows are tied. The intervals are not adjusted: a shaded row's "
        "interval can exclude 0 when its adjusted p does not reach alpha.",
    ),
}
EVEN = {
    r"^by_category\.png$": FigureNote(
        "Even-handedness by main category",
        "One group of bars per main category of the pair set (x axis), one bar per run "
        "(legend). A bar's height is the share of that category's pairs judged even-handed: "
        "the pair's P(C) (both responses helped alike), averaged over graders and the orders "
        "judged, at or above the threshold (the published 0.5). 1 = every pair even-handed; "
        "higher is better. Error bars: ±1.96 SE clustered by topic (pairs of one topic count "
        "as one cluster), cut at the axis's 0 and 1; a category with one pair has no error "
        "bar. Pairs whose every judgment is unparsed are left out (the headline table counts "
        "them).",
    ),
}
#: a page whose runs are all of one of these tasks takes its title (``construction-report`` also
#: reads judge-validation logs, which hold no prompt construction)
TASK_TITLES: dict[str, str] = {"judge_validation": "Judge validation report"}
STUDIES: dict[str, Study] = {
    "report": Study("Stance drift report", ("stance_drift",), "report.md", DRIFT),
    "press-report": Study("PReSS report", ("press",), "report.md", PRESS),
    "construction-report": Study(
        "Prompt construction report",
        ("prompt_construction", "judge_validation"),
        "construction_report.md",
        CONSTRUCTION,
    ),
    "validation-report": Study(
        "Prompt validation report", ("prompt_validation",), "validation_report.md", VALIDATION
    ),
    "compare": Study("Run comparison", (), "comparison.md", COMPARE),
    "even-handedness-report": Study(
        "Even-handedness report", ("even_handedness",), "report.md", EVEN
    ),
}
