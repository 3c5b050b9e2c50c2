"""The prompt-construction page of ``construction-report --html FILE``, and its section of
``report --html``: its title, its markdown report, and what each figure shows and how to read it.

Each caption is written against the figure's axes and the plot code that draws it;
``tests/html/test_page.py`` checks the claims a reader would act on.
"""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

NOTES = {
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
#: ``construction-report`` also reads judge-validation logs, which hold no prompt construction
PAGE = Page(
    "Prompt construction report",
    "construction_report.md",
    NOTES,
    task_titles={"judge_validation": "Judge validation report"},
)
