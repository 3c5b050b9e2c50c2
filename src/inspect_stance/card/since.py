"""A card beside an earlier one: per method, the items that moved most since the earlier run of
the same target (:mod:`.moved`). The earlier run is named by an earlier card's ``.json`` (its
``methods.*.log``) or by logs (files or folders; the latest run per target and method)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_stance.card.entries import target_of
from inspect_stance.card.moved import has_items, item_table, moved_items


def earlier_runs(paths: list[str]) -> dict[tuple[str, str], str]:
    """``(target, method) -> log path`` of the earlier runs (module docstring)."""

    out: dict[tuple[str, str], str] = {}
    logs: list[str] = []
    for raw in paths:
        if raw.endswith(".json") and "methods" in (card := _card(raw)):
            for method, e in card["methods"].items():
                if isinstance(e, dict) and e.get("log"):
                    out[(str(card.get("target", card.get("model"))), method)] = str(e["log"])
        else:
            logs.append(raw)
    if logs:
        from inspect_stance.analysis import runs_df
        from inspect_stance.errors import InputError

        df = runs_df(logs)
        if df.empty or "created" not in df.columns:
            raise InputError(f"--since {' '.join(logs)}: no readable Inspect logs; pass an "
                             "earlier card's .json or the earlier run's logs")  # fmt: skip
        for row in df.sort_values("created").to_dict("records"):
            method = str(row["method"]).rsplit("/", 1)[-1]
            out[(target_of(row), method)] = str(row["log"]).removeprefix("file://")
    return out


def _card(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def add_moved(cards: dict[str, dict[str, Any]], earlier: dict[tuple[str, str], str],
              top: int = 10) -> None:  # fmt: skip
    """Add ``moved`` (and ``since``: the earlier log) to every method entry with an earlier run
    of its target: the ``top`` items that moved most, ``[item, text, before, now]``."""
    for target, card in cards.items():
        for method, entry in card["methods"].items():
            before = earlier.get((target, method))
            if before is None or not has_items(method) or before == entry["log"]:
                continue
            moved = moved_items(item_table(before, method), item_table(entry["log"], method), top)
            entry["since"] = before
            entry["moved"] = [[m.item, m.text, m.a, m.b] for m in moved]
