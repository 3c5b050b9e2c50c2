"""The prompt-validation page of ``validation-report --html FILE``, and its section of
``report --html``: its title, its markdown report, and what each figure shows and how to read it.

Each caption is written against the figure's axes and the plot code that draws it.
"""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

NOTES = {
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
PAGE = Page("Prompt validation report", "validation_report.md", NOTES)
