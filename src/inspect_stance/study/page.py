"""A method's HTML page, as its registration declares it
(:attr:`inspect_stance.study.protocol.Method.page`).

``--html FILE`` builds a page out of what the method's report command wrote to its output
folder (:mod:`inspect_stance.html`): the markdown report named here (its tables), every PNG
figure titled and captioned by the first :class:`FigureNote` whose regular expression matches
its file name, and one row per log of the page's tasks. ``report PATH... --html FILE`` over runs
of several methods puts each method's page in one section of one file, in registry order. A new
method declares its page in its own ``method.py``; nothing in ``html/`` or ``cli/`` names it.

Plain data only (no import beyond the standard library): the registrations import it at start-up.
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
class Page:
    """A report's page: its ``title``, the ``markdown`` file of the report folder whose tables it
    shows, the ``notes`` of its figures (file-name regular expression -> :class:`FigureNote`,
    the first match wins), the ``tasks`` whose logs its run table lists (empty: the method's
    tasks; a page of no method, such as ``compare``'s, lists every log given) and
    ``task_titles``: the title of a page whose runs are all of one of those tasks (e.g.
    ``construction-report`` over ``judge_validation`` logs alone, which hold no prompt
    construction)."""

    title: str
    markdown: str = "report.md"
    notes: Mapping[str, FigureNote] = field(default_factory=dict)
    tasks: tuple[str, ...] = ()
    task_titles: Mapping[str, str] = field(default_factory=dict)
