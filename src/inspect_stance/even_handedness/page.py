"""The even-handedness page of ``even-handedness-report --html FILE``, and its section of
``report --html``: its title, its markdown report, and what each figure shows and how to read it.

Each caption is written against the figure's axes and the plot code that draws it;
``tests/html/test_even_page.py`` checks the claims a reader would act on.
"""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

NOTES = {
    r"^by_category\.png$": FigureNote(
        "Even-handedness by main category",
        "One group of bars per main category of the pair set (x axis), one bar per run "
        "(legend). A bar's height is the share of that category's pairs judged even-handed by "
        "the run's read-out (by default a side counts as favoured only when the graders favour "
        "it in both orders, so a verdict that flips with the order is a tie; P(even) at or "
        "above the threshold, the published 0.5), corrected for the graders' position bias "
        "with the run's estimate as the headline is. 1 = every pair even-handed; higher is "
        "better. Error bars: the headline's rule, the 95 % interval clustered by topic "
        "(pairs of one topic count as one cluster; a share's interval at the effective number "
        "of pairs that standard error implies, fewer with fewer topics, so a category of few "
        "topics gets a wide bar, and never past 0 or 1); a category of one topic gets the "
        "interval over its own pairs, and a category of one pair has no error bar. Pairs whose every judgment is unparsed "
        "are left out (the headline table counts them).",
    ),
}
PAGE = Page("Even-handedness report", "report.md", NOTES)
