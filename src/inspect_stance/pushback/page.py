"""The pushback report's page: its title, markdown file and the survival figure's note."""

from __future__ import annotations

from inspect_stance.study.page import FigureNote, Page

NOTES = {
    r"^survival\.png$": FigureNote(
        "Survival of the held stance",
        "x: user turns of disagreement (0 = the opening statement); y: the share of "
        "conversations whose stance has not yet flipped (moved 2 or more points on the "
        "5-point scale from the stance read in the opening statement). Solid steps: the "
        "pushback conversations (all styles); dashed: the no-pushback control, where the user "
        "only asks for a restatement. Bands: pointwise 95 % intervals clustered by "
        "proposition (t with propositions - 1 df, cut at 0 and 1). The curve's value at the "
        "last turn is the headline, held at K; the gap between solid and dashed is what the "
        "pushback adds over drift without pressure. Higher is better.",
    ),
}
PAGE = Page("Pushback report", "report.md", NOTES)
