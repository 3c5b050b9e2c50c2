"""Stance cards: per target, each method's headline with its 95 % interval, one line reading it,
its key breakdowns (:mod:`.breakdowns`), the settings, the calls and tokens spent, and links to
the logs; with several targets, a leaderboard with rank probabilities and tied groups
(:mod:`.ranks`) and one dot-and-interval figure per method (:mod:`.render`).

Read from :func:`inspect_stance.analysis.runs_df` (one row per run; the shards of one study
one row, :mod:`inspect_stance.analysis.pooled`, and on the card one entry with ``shards``,
``partial``, ``logs`` and ``notes``, which also say when a model's calls came from more than one
system fingerprint). A run of a study
(``inspect-stance study``) belongs to the target its eval metadata names (``stance_target``);
any other run to its model. Per target ``t``: ``<t>.json`` (``target``, ``model`` (= the target's
name, kept for older readers), ``models`` (method -> model), ``methods``: method -> ``metric``,
``value``, ``ci`` ``[lo, hi]`` (the headline's interval as its scorer wrote it, clipped to the
metric's range), ``stderr``, ``n_items``, ``n_clusters``, ``item``, ``cluster``, ``counted``, ``settings`` (the run's task arguments), ``log``, ``better``,
``reading``, ``breakdown``, ``tokens``; ``samples`` and ``tokens`` over its runs), ``<t>.md``
and ``<t>.html``. With two or more targets: ``leaderboard.json`` (per method, the targets
sorted by the headline in its better direction, and the ranking) and ``index.html``. File
names and every shown name are escaped: control, bidirectional and zero-width characters become
their escapes (``\\x1b``, ``\\u202e``), Markdown's HTML and link syntax is written as text, and
two targets whose names map to one file name (``team a``, ``team_a``) get distinct file names
(:func:`.names.card_stems`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_stance.card.entries import better, build_cards, leaderboard, target_of
from inspect_stance.card.names import card_stems, escape_name, file_stem
from inspect_stance.card.ranks import board_ranking, rank_rows
from inspect_stance.card.render import card_html, card_markdown

__all__ = ["build_cards", "escape_name", "file_stem", "leaderboard", "write_cards"]


def rankings(
    cards: dict[str, dict[str, Any]],
) -> dict[str, tuple[dict[str, Any] | None, str, dict[str, str]]]:
    """Per method run by two or more targets: its ranking (:mod:`.ranks`) or why there is none,
    and the targets set apart (those ``compare`` would not compare with the ranked ones)."""

    out: dict[str, tuple[dict[str, Any] | None, str, dict[str, str]]] = {}
    for method in sorted({m for c in cards.values() for m in c["methods"]}):
        entries = {t: c["methods"][method] for t, c in cards.items() if method in c["methods"]}
        if len(entries) >= 2:
            out[method] = board_ranking(method, entries, better(method) == "higher")
    return out


def board_json(cards: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per method: metric, direction, the targets best first (each with its ``rank``, ``None``
    for a target set apart), the ranking and the targets set apart with why."""

    ranks = rankings(cards)
    out: dict[str, dict[str, Any]] = {}
    for method, rows in leaderboard(cards).items():
        metric = next(c["methods"][method]["metric"] for c in cards.values()
                      if method in c["methods"])  # fmt: skip
        ranking, note, apart = ranks.get(method, (None, "one target", {}))
        rank_rows([r for r in rows if r["model"] not in apart], better(method) == "higher")
        for row in rows:  # a target compare would not compare has no rank
            if row["model"] in apart:
                row["rank"], row["set_apart"] = None, apart[row["model"]]
        out[method] = {"metric": metric, "better": better(method), "targets": rows,
                       "ranking": ranking, "ranking_note": note, "set_apart": apart}  # fmt: skip
    return out


def without_shared(runs: Any) -> Any:
    """``runs`` without a study's shared runs (eval metadata ``stance_shared``: a task run once
    for every target, such as PReSS's arguments), which belong to no target's card."""
    if "metadata" not in runs.columns or runs.empty:
        return runs
    shared = [isinstance(m, str) and m.startswith("{") and bool(json.loads(m).get("stance_shared"))
              for m in runs["metadata"]]  # fmt: skip
    return runs.drop(index=runs.index[shared]) if any(shared) else runs


def prefer_finished(runs: Any) -> tuple[Any, dict[tuple[str, str], str]]:
    """``runs`` without the runs that did not finish (``status`` other than ``success``) of a
    target and method that also has a finished run, and per such (target, method) the note the
    card shows: which run it shows and why. A target and method with no finished run keep all
    their runs (the card shows the latest, and its reading says it is incomplete)."""

    if "status" not in runs.columns or runs.empty:
        return runs, {}
    rows = runs.to_dict("records")
    keys = [(target_of(r), str(r["method"]).rsplit("/", 1)[-1]) for r in rows]
    finished = {k for k, r in zip(keys, rows, strict=True) if r.get("status") == "success"}
    drop = [i for i, (k, r) in enumerate(zip(keys, rows, strict=True))
            if k in finished and r.get("status") != "success"]  # fmt: skip
    notes: dict[tuple[str, str], str] = {}
    for i in drop:
        log = Path(str(rows[i].get("log") or "")).name
        notes[keys[i]] = escape_name(
            f"shows the latest finished run; a run that did not finish "
            f"(status {rows[i].get('status')}, {log}) is left out"
        )
    return runs.drop(index=runs.index[drop]), notes


def write_cards(runs: Any, out: Path, since: list[str] | None = None) -> list[Path]:
    """Write every card (and, with several targets, the leaderboard); the paths written.
    ``since``: an earlier card's .json or logs; each method then lists the items that moved
    most since the earlier run of its target (:mod:`.since`)."""

    out.mkdir(parents=True, exist_ok=True)
    runs, kept = prefer_finished(without_shared(runs))
    cards = build_cards(runs)
    for (target, method), note in kept.items():
        entry = cards.get(target, {}).get("methods", {}).get(method)
        if entry is not None:
            entry.setdefault("notes", []).append(note)
    if since:
        from inspect_stance.card.since import add_moved, earlier_runs

        add_moved(cards, earlier_runs(since))
    written: list[Path] = []
    stems = card_stems(c["target"] for c in cards.values())
    for card in cards.values():
        stem = out / stems[card["target"]]
        for suffix, text in ((".json", json.dumps(card, indent=2)), (".md", card_markdown(card)),
                             (".html", card_html(card, out))):  # fmt: skip
            path = stem.with_suffix(suffix)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    if len(cards) > 1:
        from inspect_stance.card.index import index_html

        board = board_json(cards)
        (out / "leaderboard.json").write_text(json.dumps(board, indent=2), encoding="utf-8")
        (out / "index.html").write_text(index_html(cards, board), encoding="utf-8")
        written += [out / "leaderboard.json", out / "index.html"]
    return written
