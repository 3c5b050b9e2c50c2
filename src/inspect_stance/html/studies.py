"""Which page each command writes with ``--html``: a report command's page is its method's
(:attr:`inspect_stance.study.protocol.Method.page`, declared in the method's own
``method.py``); ``compare`` has its own page here (a comparison of runs is no method's report).

Every figure a report writes has a :class:`~inspect_stance.study.page.FigureNote` (found by a
regular expression on its file name): a **title** saying what it shows (the page adds which run,
from the markdown report's image text) and a **how to read this** caption.
"""

from __future__ import annotations

from dataclasses import replace

from inspect_stance.errors import InputError
from inspect_stance.study.page import FigureNote, Page
from inspect_stance.study.protocol import Method
from inspect_stance.study.registry import methods

__all__ = ["COMPARE", "FigureNote", "Page", "method_page", "page_of_command"]

COMPARE = Page(
    "Run comparison",
    "comparison.md",
    {
        r"^forest\.png$": FigureNote(
            "Differences between runs (forest plot)",
            "Each row is one metric's difference between two runs (b - a): the dot is the "
            "difference, the line its per-comparison interval (the level on the x axis), the "
            "dashed line 0. Red rows differ after the family adjustment named in the title "
            "(adjusted p below alpha); shaded grey rows are tied. The intervals are not "
            "adjusted: a shaded row's interval can exclude 0 when its adjusted p does not "
            "reach alpha.",
        ),
    },
)


def method_page(method: Method) -> Page:
    """The method's page, its run table listing the method's tasks unless the page names its own;
    InputError when the method declares no page."""
    if method.page is None:
        raise InputError(f"method {method.name} has no HTML page; drop --html")
    return method.page if method.page.tasks else replace(method.page, tasks=method.tasks)


def page_of_command(command: str) -> Page:
    """The page ``command --html`` writes: ``compare``'s, or the page of the method whose report
    command ``command`` is (:func:`method_page`)."""
    if command == "compare":
        return COMPARE

    method = next((m for m in methods() if m.report_command == command), None)
    if method is None:
        raise InputError(f"{command}: no method reports with this command; drop --html")
    return method_page(method)
