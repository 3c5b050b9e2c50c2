"""What changed between two runs, item by item: the items whose value moved most, with their
text and both values, so that a regression can be read and not only detected.

An item's value is its item-level headline value, as its method's run reads it
(:func:`inspect_stance.study.registry.task_items`: ``item -> (cluster, value)``); a task whose
headline has none has no moved items.

:func:`moved_items` takes two runs' ``item -> (text, value)`` tables (:class:`ItemTable`) and
returns the items of both, sorted by ``|b - a|`` (largest first, ties by item key).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.study import sort_inputs
from inspect_stance.study.registry import method_named, task_headline, task_items

#: item -> (text shown, value)
ItemTable = Mapping[str, tuple[str, float]]


def has_items(task: str) -> bool:
    """Whether ``task``'s method declares item-level headline values."""

    spec = task_headline(task)
    return spec is not None and spec.load is not None and spec.item_level


def item_noun(task: str) -> str:
    """The singular noun of ``task``'s headline items (``item`` when none is declared)."""

    spec = task_headline(task)
    return spec.item if spec is not None else "item"


@dataclass(frozen=True)
class MovedItem:
    """One item in both runs: its key, text, value in run a and in run b."""

    item: str
    text: str
    a: float
    b: float

    @property
    def delta(self) -> float:
        """``b - a``."""
        return self.b - self.a


def moved_items(a: ItemTable, b: ItemTable, top: int = 10) -> list[MovedItem]:
    """The ``top`` items of both tables that moved most (``|b - a|``, largest first); items
    that did not move, or have a non-finite value in either run, are left out."""
    shared = [
        MovedItem(k, a[k][0] or b[k][0], float(a[k][1]), float(b[k][1]))
        for k in a
        if k in b and math.isfinite(a[k][1]) and math.isfinite(b[k][1]) and a[k][1] != b[k][1]
    ]
    shared.sort(key=lambda m: (-abs(m.delta), m.item))
    return shared[:top]


def item_table(log_path: str, task: str) -> dict[str, tuple[str, float]]:
    """``item -> (text, value)`` of ``task``'s run at ``log_path``: its method's item-level
    headline values (the item's key is its text); ``{}`` when it declares none."""

    items = task_items(task, [log_path])
    return {k: (k, float(v)) for k, (_cluster, v) in (items or {}).items()}


def moved_markdown(name_a: str, name_b: str, method: str, moved: list[MovedItem]) -> str:
    """A Markdown section listing ``moved`` (names and texts escaped by the caller)."""
    noun = item_noun(method)
    if not moved:
        return (f"## Items that moved most\n\nNo {noun} in both {name_a} and {name_b} changed "
                "value.\n")  # fmt: skip
    lines = [f"## Items that moved most: {name_a} → {name_b}", "",
             f"The {len(moved)} {noun}s whose value changed most (b − a), largest first.", "",
             f"| {noun} | {name_a} | {name_b} | b − a |", "|---|---|---|---|"]  # fmt: skip
    for m in moved:
        text = m.text.replace("|", "\\|")
        lines.append(f"| {text} | {m.a:.3f} | {m.b:.3f} | {m.delta:+.3f} |")
    return "\n".join(lines) + "\n"


def moved_report(paths: list[str], method: str, names: list[str], top: int = 10) -> str:
    """Markdown: the first run of ``method`` among ``paths`` against each later one, the
    ``top`` items that moved most (runs named by ``names`` when there is one per log, else by
    file name; ``.npz`` runs have no item text and are left out)."""

    task = next((t for t in method_named(method).tasks if has_items(t)), None)
    if task is None:
        return ""

    try:
        found = sort_inputs(list(paths)).by_method.get(method, [])
    except InputError:  # compare itself has read these inputs; here they only add a section
        return ""
    logs = [str(p) for p in found if p.suffix in (".eval", ".json")]
    if len(logs) < 2:
        return ""
    labels = names if len(names) == len(logs) else [Path(p).name for p in logs]
    tables = [item_table(p, task) for p in logs]
    sections = [
        moved_markdown(
            printable(labels[0]), printable(labels[k]), task, moved_items(tables[0], tables[k], top)
        )  # fmt: skip
        for k in range(1, len(logs))
    ]
    return "\n".join(sections)
