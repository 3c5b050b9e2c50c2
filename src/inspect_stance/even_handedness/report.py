"""The even-handedness report of one or more runs: ``report.md``, ``report.json`` and
``by_category.png`` in an output folder.

Per run: the headline with its plain and topic-clustered standard errors, refusal, hedging and
direction; even-handedness per category (table and figure, bars: the headline's 95 % interval);
the least even-handed topics; per grader the position-flip rate, the share of first-shown
choices, the length preference, the Dawid–Skene accuracy and the family flag; agreement
(Cohen's kappa per two graders, Krippendorff's alpha, Dawid–Skene's even-handedness); per
group pair the refusal and hedging differences (:mod:`.groups`); and the PPI-corrected
headline when pairs carry people's labels. Every name is escaped (:mod:`inspect_stance.printable`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from inspect_stance.even_handedness.audit import dawid_skene_even, family_flags, judge_warnings
from inspect_stance.even_handedness.groups import group_differences
from inspect_stance.even_handedness.keys import safe_name
from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.even_handedness.position import position_bias
from inspect_stance.even_handedness.summary import headline, position_warnings, summarize

TOPICS_SHOWN = 10
GROUPS_SHOWN = 10


def _f(x: Any, digits: int = 3) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "n/a"
    return "n/a" if not math.isfinite(v) else f"{v:.{digits}f}"


def topic_shares(run: EvenRun) -> list[tuple[str, float, int]]:
    """``(topic, share even-handed, pairs)``, least even-handed first (ties by name)."""
    by: dict[str, list[int]] = defaultdict(list)
    for r in run.records.values():
        if r.get("even_handed") is not None:
            by[str(r.get("topic_name"))].append(int(r["even_handed"]))
    rows = [(t, sum(v) / len(v), len(v)) for t, v in by.items()]
    return sorted(rows, key=lambda x: (x[1], x[0]))


def category_shares(run: EvenRun) -> dict[str, tuple[float, float, int, float, int, float, float]]:
    """Per main category, by the headline's rule
    (:func:`~inspect_stance.even_handedness.summary.headline`: corrected for position bias with
    the run's ``b^``, clustered by topic): share even-handed, its SE, the pairs, half the
    width of its 95 % interval (NaN without an SE), the topics, and the interval's two
    ends."""

    bias = position_bias(list(run.records.values()))

    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in run.records.values():
        if r.get("even_handed") is not None:
            by[str(r.get("main_category"))].append(r)
    out = {}
    for cat, rs in sorted(by.items()):
        h = headline(rs, bias=bias)
        half = (h.interval[1] - h.interval[0]) / 2  # NaN without an SE
        topics = len({str(r.get("topic_name")) for r in rs})
        out[cat] = (h.value, h.se, h.n_items, half, topics, h.interval[0], h.interval[1])
    return out


def run_figures(run: EvenRun) -> dict[str, Any]:
    """Everything the report shows for one run (module docstring), JSON-ready."""

    records = list(run.records.values())
    threshold = float(run.metadata.get("threshold") or 0.5)
    return {
        "headline": headline(records).to_json(),
        "readout": run.metadata.get("readout", "mean P(C) (before the orders read-out)"),
        "warnings": position_warnings(records) + judge_warnings(run),
        "source": run.path,
        "model": run.model,
        "graders": run.graders,
        "judged_orders": run.metadata.get("judged_orders"),
        "metrics": summarize(records, list(run.records)),
        "categories": {k: list(v) for k, v in category_shares(run).items()},
        "topics": [list(t) for t in topic_shares(run)],
        "families": family_flags(run.model, run.graders),
        "dawid_skene": dawid_skene_even(run.records, threshold),
        "groups": {k: group_differences(records, k) for k in ("refusal", "hedging")},
        "errors": run.n_errors,
    }


def _headline_rows(names: Sequence[str], figs: Sequence[dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for n, f in zip(names, figs, strict=True):
        m = f["metrics"]
        h = f["headline"]
        lo, hi = h["interval"]
        ppi = m.get("even_handedness_ppi")
        ppi_cell = "n/a" if ppi is None else (
            f"{_f(ppi)} ± {_f(m.get('even_handedness_ppi_stderr'))} SE "
            f"({int(m.get('human_labelled') or 0)} labels)")  # fmt: skip
        ds = f["dawid_skene"]
        rows.append([n, f["model"], int(m["pairs"]), _f(m["even_handedness"]),
                     f"[{_f(lo)}, {_f(hi)}]", _f(h["se"]), _f(m["stderr_plain"]),
                     _f(m["stderr_clustered"]), h["n_clusters"],
                     _f(m["even_handedness_uncorrected"]), _f(m["position_bias"]),
                     _f(m["even_handedness_published"]), _f(m["flip_rate"]),
                     _f(m["first_shown"]), _f(m["refusal_rate"]), _f(m["hedging_rate"]),
                     _f(m["direction"]), int(m["unparsed"]), ppi_cell,
                     "not fitted (< 3 graders)" if ds.get("note")
                     else _f(ds["even_handedness"])])  # fmt: skip
    return rows


def _grader_rows(name: str, f: dict[str, Any]) -> list[list[Any]]:
    m, fam = f["metrics"], {x["grader"]: x for x in f["families"]}
    acc = f["dawid_skene"]["accuracy"]
    rows = []
    for g in f["graders"] or sorted(acc):
        key = safe_name(g)
        flag = fam.get(g, {}).get("same_family_as_target")
        rows.append([name, g, _f(m.get(f"flip_rate_{key}")), _f(m.get(f"position_first_{key}")),
                     _f(m.get(f"length_preference_{key}")), _f(acc.get(key)),
                     fam.get(g, {}).get("family", "?"),
                     "SAME FAMILY AS TARGET" if flag else "no" if flag is False else "n/a"])  # fmt: skip
    return rows


def _agreement_rows(name: str, f: dict[str, Any]) -> list[list[Any]]:
    m = f["metrics"]
    rows = [[name, k.removeprefix("kappa_").replace("__", " vs "), "Cohen's kappa", _f(v)]
            for k, v in m.items() if k.startswith("kappa_")]  # fmt: skip
    if "alpha_graders" in m:
        rows.append([name, "all graders", "Krippendorff's alpha (nominal)", _f(m["alpha_graders"])])
    return rows
