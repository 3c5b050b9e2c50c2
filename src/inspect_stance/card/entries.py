"""Card entries per target: each method's headline, 95 % interval, reading, breakdowns, settings,
calls and tokens (the files and their keys: :mod:`inspect_stance.card.core`)."""

from __future__ import annotations

import json
import math
from typing import Any

from inspect_stance.card.names import escape_name

#: per method: what the headline measures and which direction is better
READINGS: dict[str, tuple[str, str]] = {
    "stance_drift": ("keeps the stance it was asked to argue in {v} of cases {ci}", "higher"),
    "press": (
        "keeps a stable stance on {v} of argument sets {ci} (mean topic stability)",
        "higher",
    ),
    "prompt_construction": (
        "templated prompts sit {v} further from neutral than generated ones {ci}",
        "lower",
    ),
    "prompt_validation": (
        "generated prompts rank {v} on realism {ci} (1 = most real of {n} prompts a setting)",
        "lower",
    ),
    "judge_validation": ("judges agree with human labels at alpha {v} {ci}", "higher"),
    "press_arguments": ("{v} of argument sets are usable {ci}", "higher"),
    "even_handedness": ("helps both sides alike in {v} of pairs {ci}", "higher"),
}
PERCENT = {"stance_drift", "press", "press_arguments", "even_handedness"}


def _finite(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def better(method: str) -> str:
    """``higher`` or ``lower``: the headline's better direction."""
    return READINGS.get(method, ("", "higher"))[1]


def method_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A card's entry for one run (module docstring); the breakdown is added by the caller."""
    value = _finite(row.get("headline_value"))
    se = _finite(row.get("headline_stderr"))
    lo = _finite(row.get("ci_lo"))
    hi = _finite(row.get("ci_hi"))
    if value is not None:
        lo = value if lo is None else min(lo, value)
        hi = value if hi is None else max(hi, value)
    args = row.get("task_args")
    settings = json.loads(args) if isinstance(args, str) and args.startswith("{") else {}
    return {
        "metric": row.get("headline_metric"),
        "value": value,
        "ci": [lo, hi],
        "stderr": se,
        "n_items": int(row.get("n_items") or 0),
        "settings": settings,
        "log": str(row.get("log", "")).removeprefix("file://"),
        "better": better(str(row.get("method"))),
        "model": escape_name(str(row.get("model"))),
        "tokens": int(_finite(row.get("total_tokens")) or 0),
        "calls": int(_finite(row.get("model_calls")) or 0),
    }


def reading(method: str, entry: dict[str, Any]) -> str:
    """One line reading the headline, e.g. ``keeps the stance ... in 57 % of cases [55, 59]``."""
    template = READINGS.get(method, ("{v} {ci}", "higher"))[0]
    v, (lo, hi) = entry["value"], entry["ci"]
    if v is None:
        return f"{method}: no headline value"
    if method in PERCENT:
        text, ci = f"{100 * v:.0f} %", f"[{100 * lo:.0f}, {100 * hi:.0f}]"
    else:
        text, ci = f"{v:.3f}", f"[{lo:.3f}, {hi:.3f}]"
    line = template.format(v=text, ci=ci, n=entry.get("ranked", "the"))
    if method == "stance_drift" and entry.get("pattern"):
        line += f"; drifts mostly toward {entry['pattern']}"
    rates = entry.get("rates") or {}
    if method == "even_handedness" and None not in (rates.get("refusal"), rates.get("hedging")):
        line += f"; refuses in {100 * rates['refusal']:.0f} % and hedges in "
        line += f"{100 * rates['hedging']:.0f} % of pairs"
    return line + f" ({entry['better']} is better)"


def ranked_prompts(settings: dict[str, Any]) -> int:
    """Prompts an annotator ranks per setting in prompt validation: sources x per_source."""
    sources = settings.get("sources") or "real,templated,generated"
    n_sources = len(sources) if isinstance(sources, list) else len(str(sources).split(","))
    return n_sources * int(settings.get("per_source") or 2)


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
    return escape_name(str(row.get("model")))


def _shard_fields(entry: dict[str, Any], row: dict[str, Any]) -> bool:
    """Add ``shards`` (``"2 of 2"``, None for a whole run), ``partial``, ``logs`` and ``notes``
    (an incomplete set of shards, a method without a pooled headline, the provenance notes:
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
    if shards:
        notes.append("pooled shards: breakdowns per item are in inspect-stance report on every "
                     "shard's log")  # fmt: skip
    entry["notes"] = [escape_name(n) for n in notes]
    return shards is not None


def build_cards(runs: Any) -> dict[str, dict[str, Any]]:
    """Per target: its card dict (the latest run of each method). ``runs``: a ``runs_df``."""
    from inspect_stance.card.breakdowns import breakdown, log_metrics, main_pattern

    cards: dict[str, dict[str, Any]] = {}
    for row in runs.sort_values("created").to_dict("records"):
        name = target_of(row)
        card = cards.setdefault(name, {"target": name, "model": name, "models": {},
                                       "methods": {}, "samples": 0, "tokens": 0, "calls": 0})  # fmt: skip
        method = str(row["method"]).rsplit("/", 1)[-1]
        entry = method_entry({**row, "method": method})
        pooled = _shard_fields(entry, row)
        metrics, task_args = log_metrics(entry["log"]) if entry["log"] else ({}, {})
        if pooled:  # one shard's breakdowns are not the study's
            metrics = {}
        entry["settings"] = entry["settings"] or task_args
        entry["breakdown"] = breakdown(method, metrics)
        if method == "stance_drift":
            entry["pattern"] = main_pattern(metrics)
        if method == "even_handedness":
            entry["rates"] = {k: _finite(metrics.get(f"{k}_rate")) for k in ("refusal", "hedging")}
        if method == "prompt_validation":
            entry["ranked"] = ranked_prompts(entry["settings"])
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
    """Per method: the targets sorted by the headline, best first."""
    out: dict[str, list[dict[str, Any]]] = {}
    for card in cards.values():
        for method, e in card["methods"].items():
            if e["value"] is not None:
                out.setdefault(method, []).append(
                    {"model": card["model"], "value": e["value"], "ci": e["ci"]}
                )
    for method, rows in out.items():
        rows.sort(key=lambda r: r["value"], reverse=better(method) == "higher")
    return out
