"""What changed between two runs, item by item: the items whose value moved most, with their
text and both values, so that a regression can be read and not only detected.

An item's value is its headline quantity, the mean over its samples:

- ``stance_drift``: per proposition, the kept probability (the proposition's SPR);
- ``press``: per statement, the topic stability ``stable / K``;
- ``prompt_construction``: per setting x construction method, the mean ensemble label
  (1..5; 3 = neutral), the responses' lean;
- ``even_handedness``: per prompt pair, even-handedness (0 or 1).

:func:`moved_items` takes two runs' ``item -> (text, value)`` tables (:class:`ItemTable`) and
returns the items of both, sorted by ``|b - a|`` (largest first, ties by item key).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: item -> (text shown, value)
ItemTable = Mapping[str, tuple[str, float]]
NOUNS = {"stance_drift": "proposition", "press": "statement",
         "prompt_construction": "setting", "even_handedness": "prompt pair"}  # fmt: skip


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


def _sample_value(method: str, sample: Any) -> tuple[str, str, float] | None:
    """(item key, text, value) of one sample, ``None`` when it has no score."""
    meta, scores = sample.metadata or {}, sample.scores or {}
    if not scores:
        return None
    value = next(iter(scores.values())).value
    if method == "stance_drift":
        return str(meta.get("proposition_key")), str(meta.get("proposition", "")), float(value)
    if method == "press":
        k = int(meta.get("argument_sets") or 3)
        return str(meta.get("statement_id")), str(meta.get("statement", "")), value["stable"] / k
    if method == "prompt_construction":
        key = f"{meta.get('setting')} {meta.get('method')}"
        return key, f"{meta.get('topic_neutral', '')} ({key})", _label(value)
    pair = f"{meta.get('prompt_a', '')} | {meta.get('prompt_b', '')}"
    return str(sample.id), pair, float(value)


def _label(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):  # a refusal or no majority: no lean
        return math.nan


def item_table(log_path: str, method: str) -> dict[str, tuple[str, float]]:
    """``item -> (text, value)`` of the run at ``log_path`` (module docstring)."""
    from inspect_ai.log import read_eval_log

    sums: dict[str, list[Any]] = {}
    for sample in read_eval_log(log_path).samples or []:
        got = _sample_value(method, sample)
        if got is None or not math.isfinite(got[2]):
            continue
        key, text, value = got
        entry = sums.setdefault(key, [text, 0.0, 0])
        entry[1] += value
        entry[2] += 1
    return {k: (t, s / n) for k, (t, s, n) in sums.items()}


def moved_markdown(name_a: str, name_b: str, method: str, moved: list[MovedItem]) -> str:
    """A Markdown section listing ``moved`` (names and texts escaped by the caller)."""
    noun = NOUNS.get(method, "item")
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


#: compare's method names -> the task whose items are read
COMPARE_METHODS = {"stance_drift": "stance_drift", "press": "press",
                   "construction": "prompt_construction"}  # fmt: skip


def moved_report(paths: list[str], method: str, names: list[str], top: int = 10) -> str:
    """Markdown: the first run of ``method`` among ``paths`` against each later one, the
    ``top`` items that moved most (runs named by ``names`` when there is one per log, else by
    file name; ``.npz`` runs have no item text and are left out)."""
    from inspect_stance.printable import printable
    from inspect_stance.study import sort_inputs

    task = COMPARE_METHODS.get(method)
    if task is None:
        return ""
    from inspect_stance.errors import InputError

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
