"""Card entries per target: each method's headline, 95 % interval, reading, breakdowns, settings,
calls and tokens (the files and their keys: :mod:`inspect_stance.card.core`)."""

from __future__ import annotations

import json
import math
from typing import Any

from inspect_stance.card.breakdowns import card_breakdown, task_args_of
from inspect_stance.card.names import escape_name
from inspect_stance.card.ranks import rank_rows
from inspect_stance.runs import measured_model
from inspect_stance.study.registry import subject_role, task_headline


def _finite(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def better(method: str) -> str:
    """``higher`` or ``lower``: the better direction of task ``method``'s declared headline
    (:class:`~inspect_stance.study.protocol.TaskHeadline`; ``higher`` when none is declared)."""

    spec = task_headline(method)
    return spec.better if spec is not None else "higher"


def _count(n: int | None, noun: str) -> str:
    return "" if n is None else f"{n:,} {noun if n == 1 else noun + 's'}"


def method_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A card's entry for one run (module docstring); the breakdown is added by the caller.
    The value, standard error, interval, ``n_items`` and ``n_clusters`` are the ``runs_df``
    row's, i.e. the headline the run's scorer wrote (or, for a set of shards, the headline of
    its method's run with the shards merged), the interval as the rule clipped it."""

    method = str(row.get("method")).rsplit("/", 1)[-1]
    spec = task_headline(method)
    value = _finite(row.get("headline_value"))
    lo, hi = _finite(row.get("ci_lo")), _finite(row.get("ci_hi"))
    n_items = int(n) if (n := _finite(row.get("n_items"))) is not None else None
    n_clusters = int(n) if (n := _finite(row.get("n_clusters"))) is not None else None
    item, cluster = (spec.item, spec.cluster) if spec is not None else ("item", "item")
    counted = _count(n_items, item)
    if n_clusters is not None and n_clusters != n_items:
        counted += f" over {_count(n_clusters, cluster)}"
    args = row.get("task_args")
    settings = json.loads(args) if isinstance(args, str) and args.startswith("{") else {}
    return {
        "metric": row.get("headline_metric"),
        "value": value,
        "ci": [lo, hi] if lo is not None and hi is not None else [None, None],
        "stderr": _finite(row.get("headline_stderr")),
        "n_items": n_items,
        "n_clusters": n_clusters,
        "item": item,
        "cluster": cluster,
        "counted": counted,
        "range": list(spec.range) if spec is not None else None,
        "format": spec.format if spec is not None else "number",
        "settings": settings,
        "log": str(row.get("log", "")).removeprefix("file://"),
        "better": better(method),
        "model": model_of(row),
        "tokens": int(_finite(row.get("total_tokens")) or 0),
        "calls": int(_finite(row.get("model_calls")) or 0),
    }


def value_texts(entry: dict[str, Any]) -> tuple[str, str]:
    """The entry's value and interval as text: ``percent`` format as whole percents
    (``57 %``, ``[55, 59]``), ``number`` to three decimals; an absent interval as ``""``."""
    v, (lo, hi) = entry["value"], entry["ci"]
    if v is None:
        return "", ""
    if entry.get("format") == "percent":
        ci = "" if lo is None or hi is None else f"[{100 * lo:.0f}, {100 * hi:.0f}]"
        return f"{100 * v:.0f} %", ci
    return f"{v:.3f}", "" if lo is None or hi is None else f"[{lo:.3f}, {hi:.3f}]"


class _Settings(dict[str, Any]):
    """A run's task arguments for a reading sentence: a name the run does not record reads as
    itself in capitals (``{turns}`` -> ``TURNS``)."""

    def __missing__(self, key: str) -> str:
        return key.upper()


def reading(method: str, entry: dict[str, Any]) -> str:
    """One line reading the headline with the sentence its method declares
    (:attr:`~inspect_stance.study.protocol.TaskHeadline.reading`), e.g. ``keeps the stance
    ... in 57 % of cases [55, 59] (25 trials over 5 propositions; higher is better)``."""

    spec = task_headline(method)
    if entry["value"] is None:
        return f"{method}: no headline value"
    text, ci = value_texts(entry)
    template = spec.reading if spec is not None else "{v} {ci}"
    settings = _Settings(entry.get("settings") or {})
    line = template.format_map(settings | {"v": text, "ci": ci or "(no interval)"})
    counted = f"{entry['counted']}; " if entry.get("counted") else ""
    return line + f" ({counted}{entry['better']} is better)"


def target_of(row: dict[str, Any]) -> str:
    """The study target a run belongs to (its eval metadata, else ``runs_df``'s ``target``: a
    Flow run's ``stance_target=`` tag), else its model."""
    meta = row.get("metadata")
    if isinstance(meta, str) and meta.startswith("{"):
        target = json.loads(meta).get("stance_target")
        if target:
            return escape_name(str(target))
    if isinstance(row.get("target"), str) and row["target"]:
        return escape_name(row["target"])
    return model_of(row)


def model_of(row: dict[str, Any]) -> str:
    """The model a run measured, escaped (:func:`inspect_stance.runs.measured_model`: for a run
    that called no target model, the models of the role its task declares it measures)."""
    role = subject_role(str(row.get("method")))
    return escape_name(measured_model(str(row.get("model")), row.get("model_roles"), role))


def _shard_fields(entry: dict[str, Any], row: dict[str, Any]) -> bool:
    """Add ``shards`` (``"2 of 2"``, None for a whole run), ``partial``, ``logs`` and ``notes``
    (an incomplete set of shards, a task whose method declares no run, the
    provenance notes:
    :mod:`inspect_stance.analysis.pooled`) to ``entry``; whether it pools shards."""
    shards = row.get("shards") if isinstance(row.get("shards"), str) else None
    entry["shards"] = shards
    entry["partial"] = bool(row.get("partial")) if shards else False
    logs = row.get("logs")
    entry["logs"] = [str(x) for x in logs] if isinstance(logs, list) else [entry["log"]]
    notes = (
        list(row.get("provenance_notes") or [])
        if isinstance(row.get("provenance_notes"), list)
        else []
    )
    if entry["partial"]:
        notes.insert(0, f"{shards} shards of one study: the headline covers the shards given "
                     "only; pass every shard's log")  # fmt: skip
    if shards and isinstance(row.get("pool_note"), str):
        notes.insert(0, row["pool_note"])
    entry["notes"] = [escape_name(n) for n in notes]
    return shards is not None


def build_cards(runs: Any) -> dict[str, dict[str, Any]]:
    """Per target: its card dict (the latest run of each method). ``runs``: a ``runs_df``."""

    cards: dict[str, dict[str, Any]] = {}
    for row in runs.sort_values("created").to_dict("records"):
        name = target_of(row)
        card = cards.setdefault(name, {"target": name, "model": name, "models": {},
                                       "methods": {}, "samples": 0, "tokens": 0, "calls": 0})  # fmt: skip
        method = str(row["method"]).rsplit("/", 1)[-1]
        entry = method_entry({**row, "method": method})
        _shard_fields(entry, row)
        if not entry["settings"] and entry["log"]:
            entry["settings"] = task_args_of(entry["log"])
        entry["breakdown"] = card_breakdown(method, entry["logs"])
        entry["reading"] = reading(method, entry)
        if entry["shards"]:
            entry["reading"] += (
                f" ({entry['shards']} shards{', partial' if entry['partial'] else ''})"
            )
        entry["eval_id"] = row.get("eval_id")
        entry["eval_ids"] = [str(x) for x in row.get("eval_ids") or [row.get("eval_id")]]
        card["methods"][method] = entry
        card["models"][method] = entry["model"]
        card["tokens"] += entry["tokens"]
        card["calls"] += entry["calls"]
        card["samples"] += int(_finite(row.get("completed_samples")) or 0)
    return cards


def leaderboard(cards: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per method: the targets sorted by the headline, best first, each with its ``rank``
    (equal values share a rank: :func:`inspect_stance.card.ranks.rank_rows`)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for card in cards.values():
        for method, e in card["methods"].items():
            if e["value"] is not None:
                out.setdefault(method, []).append(
                    {"model": card["model"], "value": e["value"], "ci": e["ci"]}
                )

    for method, rows in out.items():
        rank_rows(rows, better(method) == "higher")
    return out
