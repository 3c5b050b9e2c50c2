"""Stance cards: per model, each method's headline with its 95 % interval, one line reading it,
the settings and the samples / tokens spent; with several models, a leaderboard.

Read from :func:`inspect_stance.analysis.runs_df` (one row per run). Per model ``m``:
``<m>.json`` (``model``, ``methods``: method -> ``metric``, ``value``, ``ci`` ``[lo, hi]``
(``value -/+ 1.96 stderr``, clipped to contain the value), ``stderr``, ``n_items``,
``settings`` (the run's task arguments), ``log``; ``samples`` completed and ``tokens`` spent over its runs), ``<m>.md`` and
``<m>.html``. With two or more models: ``leaderboard.json`` (per method, the models sorted by
the headline in its better direction, each with value and interval) and ``index.html``. File
names and every shown name are escaped: control characters become ``\\xNN`` text.
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

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
    "prompt_validation": ("generated prompts rank {v} on realism {ci} (1 = most real)", "lower"),
    "judge_validation": ("judges agree with human labels at alpha {v} {ci}", "higher"),
    "press_arguments": ("{v} of argument sets are usable {ci}", "higher"),
}
PERCENT = {"stance_drift", "press", "press_arguments"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escape_name(name: str) -> str:
    """``name`` with control characters written as ``\\xNN`` (safe in text, HTML, JSON)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(name))


def file_stem(name: str) -> str:
    """A file name for model ``name``: escaped, ``/`` and other unsafe characters as ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", escape_name(name)).strip("._") or "model"


def _finite(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def method_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A card's entry for one run (module docstring)."""
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
        "log": str(row.get("log", "")),
        "better": READINGS.get(str(row.get("method")), ("", "higher"))[1],
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
    return template.format(v=text, ci=ci) + f" ({entry['better']} is better)"


def build_cards(runs: Any) -> dict[str, dict[str, Any]]:
    """Per model: its card dict (the latest run of each method). ``runs``: a ``runs_df``."""
    cards: dict[str, dict[str, Any]] = {}
    for row in runs.sort_values("created").to_dict("records"):
        model = escape_name(str(row.get("model")))
        card = cards.setdefault(model, {"model": model, "methods": {}, "samples": 0, "tokens": 0})
        card["methods"][str(row["method"])] = method_entry(row)
        card["tokens"] += int(_finite(row.get("total_tokens")) or 0)
        card["samples"] += int(_finite(row.get("completed_samples")) or 0)
    return cards


def leaderboard(cards: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per method: the models sorted by the headline, best first."""
    out: dict[str, list[dict[str, Any]]] = {}
    for card in cards.values():
        for method, e in card["methods"].items():
            if e["value"] is not None:
                out.setdefault(method, []).append(
                    {"model": card["model"], "value": e["value"], "ci": e["ci"]}
                )
    for method, rows in out.items():
        higher = READINGS.get(method, ("", "higher"))[1] == "higher"
        rows.sort(key=lambda r: r["value"], reverse=higher)
    return out


def _value_text(e: dict[str, Any]) -> str:
    return "" if e["value"] is None else f"{e['value']:.3f}"


def _ci_text(e: dict[str, Any]) -> str:
    lo, hi = e["ci"]
    return "" if lo is None or hi is None else f"[{lo:.3f}, {hi:.3f}]"


def card_markdown(card: dict[str, Any]) -> str:
    """The card as Markdown."""
    lines = [f"# Stance card: {card['model']}", ""]
    lines += ["| method | metric | value | 95 % interval | items |", "|---|---|---|---|---|"]
    for m, e in card["methods"].items():
        lines.append(f"| {m} | {e['metric']} | {_value_text(e)} | {_ci_text(e)} | {e['n_items']} |")
    lines += ["", *(f"- **{m}**: {reading(m, e)}" for m, e in card["methods"].items())]
    lines += ["", f"Samples completed: {card['samples']}; tokens: {card['tokens']}", ""]
    return "\n".join(lines)


def card_html(card: dict[str, Any]) -> str:
    """The card as a self-contained HTML page (the Markdown's content)."""
    esc = html.escape
    rows = "".join(
        f"<tr><td>{esc(m)}</td><td>{esc(str(e['metric']))}</td>"
        f"<td>{_value_text(e)}</td><td>{_ci_text(e)}</td>"
        f"<td>{e['n_items']}</td><td>{esc(reading(m, e))}</td></tr>"
        for m, e in card["methods"].items()
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(card['model'])}</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px}"
        "</style></head><body>"
        f"<h1>Stance card: {esc(card['model'])}</h1><table><tr><th>method</th><th>metric</th>"
        f"<th>value</th><th>95 % interval</th><th>items</th><th>reading</th></tr>{rows}</table>"
        f"<p>Samples completed: {card['samples']}; tokens: {card['tokens']}</p></body></html>"
    )


def write_cards(runs: Any, out: Path) -> list[Path]:
    """Write every card (and, with several models, the leaderboard); the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    cards = build_cards(runs)
    written: list[Path] = []
    for card in cards.values():
        stem = out / file_stem(card["model"])
        for suffix, text in (
            (".json", json.dumps(card, indent=2)),
            (".md", card_markdown(card)),
            (".html", card_html(card)),
        ):
            path = stem.with_suffix(suffix)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    if len(cards) > 1:
        board = leaderboard(cards)
        (out / "leaderboard.json").write_text(json.dumps(board, indent=2), encoding="utf-8")
        links = "".join(
            f"<li><a href='{html.escape(file_stem(m))}.html'>{html.escape(m)}</a></li>"
            for m in cards
        )
        tables = "".join(
            f"<h2>{html.escape(method)}</h2><ol>"
            + "".join(
                f"<li>{html.escape(r['model'])}: {_value_text(r)} {_ci_text(r)}</li>" for r in rows
            )
            + "</ol>"
            for method, rows in board.items()
        )
        page = (
            "<!doctype html><html><head><meta charset='utf-8'><title>Stance cards</title>"
            f"</head><body><h1>Stance cards</h1><ul>{links}</ul>{tables}</body></html>"
        )
        (out / "index.html").write_text(page, encoding="utf-8")
        written += [out / "leaderboard.json", out / "index.html"]
    return written
