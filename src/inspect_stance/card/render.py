"""The card pages: a target's card as Markdown and HTML, and the index page of several targets
(a table of every headline with its interval, the rank probabilities and tied groups, and one
dot-and-interval figure per method). Every name is escaped (:func:`.core.escape_name` and HTML
escaping); tables wrap their text so they stay within the page."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from inspect_stance.card.breakdowns import value_text
from inspect_stance.card.entries import value_texts
from inspect_stance.printable import html_text, md_text

STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60em;margin:1.5em auto;padding:0 1em;"
    "line-height:1.4}table{border-collapse:collapse;width:100%;"
    "overflow-wrap:break-word;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:3px 6px;"
    "text-align:left;vertical-align:top}th{background:#f3f3f3}img{max-width:100%}"
    "code{overflow-wrap:anywhere}.muted{color:#555}"
)
esc = html_text


def _breakable(name: str) -> str:
    """``name`` escaped, with a line-break opportunity after each underscore (``<wbr>``), so a
    narrow page wraps ``prompt_construction`` at ``_`` rather than mid-word or off the page."""
    return esc(name).replace("_", "_<wbr>")


def _ci(e: dict[str, Any]) -> str:
    return value_texts(e)[1]


def _v(e: dict[str, Any]) -> str:
    return value_texts(e)[0]


def _n(e: dict[str, Any]) -> str:
    """``25 trials over 5 propositions`` (what the value averages and what its interval
    counts as independent)."""
    return str(e.get("counted") or "")


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<style>{STYLE}</style></head><body>{body}</body></html>")  # fmt: skip


def _link(path: str, out: Path) -> str:
    try:
        return os.path.relpath(path, out)
    except ValueError:  # another drive (Windows)
        return path


def _prose(text: str) -> str:
    """The card's own sentence (a reading: numbers and fixed words, its interval in brackets)
    for Markdown: escaped as :func:`~inspect_stance.printable.md_text` except the brackets,
    which open no link without a name in them."""
    return md_text(text).replace("\\[", "[").replace("\\]", "]")


def card_markdown(card: dict[str, Any]) -> str:
    """The card as Markdown; every name and label through :func:`~inspect_stance.printable.md_text`
    (no live HTML, link or image from a name)."""
    md = md_text
    lines = [f"# Stance card: {md(card['target'])}", ""]
    lines += ["| method | model | metric | value | 95 % interval | items |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for m, e in card["methods"].items():
        lines.append(f"| {md(m)} | {md(e['model'])} | {md(e['metric'])} | {_v(e)} | {_ci(e)} | "
                     f"{_n(e)} |")  # fmt: skip
    lines += ["", *(f"- **{md(m)}**: {_prose(e['reading'])}" for m, e in card["methods"].items())]
    lines += [
        f"- **{md(m)}**: note: {md(n)}"
        for m, e in card["methods"].items()
        for n in e.get("notes", [])
    ]
    for m, e in card["methods"].items():
        for group in e["breakdown"]:
            lines += ["", f"**{md(m)}: {md(group['title'])}**", ""]
            lines += [f"- {md(label)}: {value_text(v, c)}" for label, v, c in group["rows"]]
    for m, e in card["methods"].items():
        if e.get("moved"):
            lines += ["", f"**{md(m)}: moved most since {md(Path(e['since']).name)}**", "",
                      "| item | before | now | change |", "|---|---|---|---|"]  # fmt: skip
            lines += [f"| {md(t)} | {a:.3f} | {b:.3f} | {b - a:+.3f} |"
                      for _i, t, a, b in e["moved"]]  # fmt: skip
    lines += ["", f"Samples completed: {card['samples']:,}; model calls: {card['calls']:,}; "
              f"tokens: {card['tokens']:,}", ""]  # fmt: skip
    return "\n".join(lines)


def _breakdown_html(e: dict[str, Any]) -> str:
    parts = []
    for group in e["breakdown"]:
        rows = "".join(f"<tr><td>{esc(label)}</td><td>{value_text(v, c)}</td></tr>"
                       for label, v, c in group["rows"])  # fmt: skip
        parts.append(f"<table><tr><th>{esc(group['title'])}</th><th>value</th></tr>{rows}</table>")
    return "".join(parts)


def _moved_html(m: str, e: dict[str, Any]) -> str:
    if "moved" not in e:
        return ""
    if not e["moved"]:
        return f"<p>No item of {esc(m)} in both this run and the earlier one changed value.</p>"
    rows = "".join(f"<tr><td>{esc(text)}</td><td>{a:.3f}</td><td>{b:.3f}</td>"
                   f"<td>{b - a:+.3f}</td></tr>" for _item, text, a, b in e["moved"])  # fmt: skip
    return (f"<table><tr><th>moved most since {esc(Path(e['since']).name)}</th><th>before</th>"
            f"<th>now</th><th>change</th></tr>{rows}</table>")  # fmt: skip


def _method_html(m: str, e: dict[str, Any], out: Path) -> str:
    settings = json.dumps({k: v for k, v in e["settings"].items() if v is not None}, sort_keys=True)
    log = e["log"]
    notes = "".join(f"<p><b>Note:</b> {esc(n)}</p>" for n in e.get("notes", []))
    logs = " ".join(e.get("logs") or [log])
    return (
        f"<h2>{esc(m)}</h2><p><b>{esc(e['reading'])}</b></p>{notes}"
        f"<p class='muted'>model {esc(e['model'])}; headline {esc(str(e['metric']))} = "
        f"{' '.join(x for x in (_v(e), _ci(e)) if x)}, {esc(_n(e))}; {e['calls']:,} model calls, "
        f"{e['tokens']:,} tokens</p>{_breakdown_html(e)}"
        f"{_moved_html(m, e)}"
        f"<p class='muted'>settings: <code>{esc(settings)}</code><br>log: "
        f"<a href='{esc(_link(log, out))}'>{esc(Path(log).name)}</a>; full report: "
        f"<code>inspect-stance report {esc(logs)} --out report</code></p>"
    )


def card_html(card: dict[str, Any], out: Path) -> str:
    """The card as a self-contained HTML page; links to the logs are relative to ``out``."""
    rows = "".join(
        f"<tr><td>{_breakable(m)}</td><td>{_breakable(str(e['metric']))}</td><td>{_v(e)}</td>"
        f"<td>{_ci(e)}</td><td>{esc(_n(e))}</td><td>{esc(e['better'])}</td></tr>"
        for m, e in card["methods"].items()
    )
    body = (
        f"<h1>Stance card: {esc(card['target'])}</h1><table><tr><th>method</th><th>metric</th>"
        f"<th>value</th><th>95 % interval</th><th>items</th><th>better</th></tr>{rows}</table>"
        f"<p>Samples completed: {card['samples']:,}; model calls: {card['calls']:,}; tokens: "
        f"{card['tokens']:,}</p>"
        + "".join(_method_html(m, e, out) for m, e in card["methods"].items())
    )
    return _page(f"Stance card: {card['target']}", body)
