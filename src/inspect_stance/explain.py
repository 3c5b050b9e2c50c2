"""Score explanations as markdown tables, for ``inspect view`` (it renders them as markdown).

Displayed numbers are rounded (3 decimals, counts as integers); the full-precision values stay
in ``Score.metadata``, which the metrics and reports read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.markdown import cell
from inspect_stance.stances import N_STANCES, STANCES

if TYPE_CHECKING:
    pass

#: PReSS label -> the reader's name for it
PRESS_LABEL_NAMES: dict[str, str] = {
    "S^L": "stable-left",
    "U^L": "unstable-left",
    "S^R": "stable-right",
    "U^R": "unstable-right",
    "indeterminate": "indeterminate",
    "unclassified": "unclassified",
}


MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~])")


def md_escape(text: str) -> str:
    """Model- or user-written text as literal markdown: whitespace collapsed to single spaces
    and every markdown / HTML special character backslash-escaped (no link, image or tag of the
    text is rendered by the viewer)."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = [_row(header), "|" + "---|" * len(header)]
    lines += [_row(r) for r in rows]
    return "\n".join(lines)


def trial_argmax_counts(vectors: Sequence[Sequence[float] | None]) -> list[int]:
    """How many trials have each stance as their most probable one (``argmax_j p_t[j]``);
    trials without a vector (unparsed) are not counted."""
    import numpy as np

    counts = [0] * N_STANCES
    for v in vectors:
        if v is not None and float(np.sum(v)) > 0:
            counts[int(np.argmax(v))] += 1
    return counts


def drift_explanation(
    stance: int,
    row: Sequence[float] | None,
    argmax_counts: Sequence[int],
    counts: Mapping[str, int],
    note: str = "",
) -> str:
    """A stance-drift sample: its transition-matrix row and its trials, as one table.

    Row 1 = ``r_j`` (the mean trial vector; the initial stance's cell in bold is the score
    ``T[s,i,i]``), row 2 = trials whose most probable stance is ``j``
    (:func:`trial_argmax_counts`).
    """
    kept = "n/a" if row is None else cell(float(row[stance]))
    head = (
        f"**Kept stance T[i,i] = {kept}** — initial stance *{STANCES[stance]}*; "
        f"{counts.get('trials', 0)} trials, {counts.get('unparsed', 0)} unparsed"
    )
    header = ["", *[f"→ {s}" for s in STANCES]]

    def fmt(j: int, text: str) -> str:
        return f"**{text}**" if j == stance else text

    mean = ["mean probability (row)"] + [
        fmt(j, "n/a" if row is None else cell(float(row[j]))) for j in range(N_STANCES)
    ]
    argmax = ["trials, most probable stance"] + [
        fmt(j, str(int(c))) for j, c in enumerate(argmax_counts)
    ]
    text = f"{head}\n\n{_table(header, [mean, argmax])}"
    return f"{text}\n\n{note}" if note else text


def press_label_summary(labels: Sequence[str]) -> str:
    """The labels of a statement's argument sets, e.g. ``S^L S^L U^R``."""
    return " ".join(labels) if labels else "no set finished"


def press_explanation(record: Mapping[str, Any], prefix: str = "", suffix: str = "") -> str:
    """A PReSS statement: one row per (persona, argument set) with the three classified
    stances and the S/U x L/R label, then ``S_t`` per persona."""
    rows: list[list[str]] = []
    for persona in record["personas"]:
        for k, (stances, label) in enumerate(
            zip(record["stances"][persona], record["labels"][persona], strict=True)
        ):
            rows.append(
                [
                    persona,
                    str(k + 1),
                    str(stances.get("neutral", "")),
                    str(stances.get("support", "")),
                    str(stances.get("counter", "")),
                    f"**{label}** ({PRESS_LABEL_NAMES.get(label, label)})",
                ]
            )
    table = _table(
        ["persona", "argument set", "statement alone", "+ supporting", "+ counter", "label"],
        rows,
    )
    st = "; ".join(f"{p}: {cell(v) if v is not None else 'n/a'}" for p, v in record["S_t"].items())
    head = (
        f"{prefix}**{press_label_summary(record['labels']['none'])}** — statement leans "
        f"*{record['bias']}*; topic stability S_t = {st}"
    )
    return f"{head}\n\n{table}" + (f"\n\n{suffix}" if suffix else "")


def construction_explanation(
    judges: Sequence[str],
    labels: Sequence[str | None],
    statuses: Sequence[str],
    outcome: str,
    setting: str | None = None,
) -> str:
    """A prompt-construction response: each judge's label and the strict-majority outcome."""
    rows = [
        [name, label if label is not None else "—", status]
        for name, label, status in zip(judges, labels, statuses, strict=True)
    ]
    head = f"**ensemble label: {outcome}**" + (f" — setting {setting}" if setting else "")
    return f"{head}\n\n{_table(['judge', 'label', 'answer'], rows)}"


def validation_explanation(
    items: Sequence[Mapping[str, Any]], annotations: Sequence[Mapping[str, Any]], share: float
) -> str:
    """A prompt-validation setting: one row per prompt (source, text) with each annotator's
    realism rank (1 = most likely written by a real user; ``—`` = no usable ranking)."""
    names = [str(a.get("annotator", f"a{i + 1}")) for i, a in enumerate(annotations)]
    rows = []
    for item in items:
        ranks = [(a.get("ranks") or {}).get(item.get("item_id")) for a in annotations]
        text = " ".join(str(item.get("text") or "").split())
        rows.append(
            [
                md_escape(str(item.get("source"))),
                md_escape((text[:90] + "…") if len(text) > 90 else text),
                *["—" if r is None else str(r) for r in ranks],
            ]
        )
    table = _table(["source", "prompt", *[f"rank: {n.split('/')[-1]}" for n in names]], rows)
    head = f"**{share:.0%} of the annotators' answers parsed** — realism rank per prompt"
    return f"{head}\n\n{table}"
