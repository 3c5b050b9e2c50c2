"""A stratified random sample of responses for human labelling (the PPI subset).

PPI (:mod:`.ppi`) is valid when the human-labelled responses are a random sample of their
group's, and the report estimates per method and per setting, so every stratum needs its own
random labels. A fixed rule such as "every k-th sample id" is not random with respect to the
design: the sample ids are ordered by setting and method, so a stride can land on one method
only (the other then gets no label, and its PPI lean is ``n/a``).

Strata are ``(model, setting, method)`` cells of the run (``setting`` = ``topic-intent-stance``).
Eligible responses are those PPI uses: the ensemble's outcome is a scale label ``1``..``5``.
With ``S`` strata holding eligible responses and ``n`` labels asked for, each stratum gets
``floor(n / S)`` and the remaining ``n mod S`` go to strata drawn at random (seeded); a stratum
with fewer eligible responses than its share gives all it has (the shortfall is not moved to
other strata, so the sample stays balanced and says so). Within a stratum the responses are
drawn without replacement by ``numpy.random.default_rng(seed)``. Warnings (one line each):
a stratum of the run with no eligible response (it can get no label), a stratum given fewer
than 2 labels (PPI needs at least 2 per group), and a shortfall.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from inspect_stance.construction.labels import is_scale_label
from inspect_stance.construction.records import Record

#: columns of the exported file: the human-label file's own (``model``, ``id``, ``label``) plus
#: the stratum, so the filled file goes straight back to ``--human-labels``
COLUMNS: tuple[str, ...] = ("model", "id", "setting", "method", "label")
#: PPI needs at least this many labels in a group
MIN_PER_STRATUM = 2

Stratum = tuple[str, str, str]  # (model, setting key, method)


@dataclass
class LabelSample:
    """The drawn rows (``COLUMNS``, ``label`` empty) and what the draw could not do."""

    rows: list[dict[str, str]]
    n_strata: int
    warnings: list[str] = field(default_factory=list)


def _strata(records: Sequence[Record]) -> tuple[dict[Stratum, list[Record]], list[Stratum]]:
    """Eligible records by stratum (sorted), and the strata of the run with none."""
    everything: dict[Stratum, list[Record]] = defaultdict(list)
    for r in records:
        model = str(r.extra.get("target_model") or r.model)
        everything[(model, r.setting.key, r.method)].append(r)
    eligible = {
        k: sorted((r for r in v if is_scale_label(r.outcome)), key=lambda r: r.sample_id)
        for k, v in sorted(everything.items())
    }
    empty = [k for k, v in eligible.items() if not v]
    return {k: v for k, v in eligible.items() if v}, empty


def label_sample(records: Sequence[Record], n: int, seed: int = 0) -> LabelSample:
    """Draw ``n`` responses for human labelling, stratified by (model, setting, method) (see
    the module docstring); ``ValueError`` for ``n < 1`` or no eligible response."""
    if n < 1:
        raise ValueError(f"--n {n}: ask for at least 1 response to label")
    strata, empty = _strata(records)
    if not strata:
        raise ValueError(
            "no response has a scale label (1-5) from the judges, so none can enter PPI"
        )
    rng = np.random.default_rng(seed)
    keys = list(strata)
    quota = dict.fromkeys(keys, n // len(keys))
    for k in rng.choice(len(keys), size=n % len(keys), replace=False):
        quota[keys[int(k)]] += 1
    out = LabelSample(rows=[], n_strata=len(keys))
    out.warnings += [
        f"stratum {_name(k)}: no response with a scale label, so it gets no human label and "
        "no PPI estimate"
        for k in empty
    ]
    short = 0
    for k in keys:
        pool, want = strata[k], quota[k]
        take = min(want, len(pool))
        short += want - take
        for i in sorted(rng.choice(len(pool), size=take, replace=False)):
            r = pool[int(i)]
            out.rows.append(dict(zip(COLUMNS, (k[0], r.sample_id, k[1], k[2], ""), strict=True)))
    few = [k for k in keys if min(quota[k], len(strata[k])) < MIN_PER_STRATUM]
    if few:
        out.warnings.append(
            f"{len(few)} of {len(keys)} strata get fewer than {MIN_PER_STRATUM} labels (PPI "
            f"needs {MIN_PER_STRATUM} per group), e.g. {_name(few[0])}; ask for --n "
            f"{MIN_PER_STRATUM * len(keys)} or more"
        )
    if short:
        out.warnings.append(
            f"{short} fewer rows than asked: some strata have fewer eligible responses than "
            "their share (all of them were taken)"
        )
    return out


def _name(k: Stratum) -> str:
    model, setting, method = k
    return f"{model} / {setting} / {method}"


def write_label_sample(sample: LabelSample, path: str) -> None:
    """Write the rows as CSV (``COLUMNS``); fill ``label`` (1-5 or ``refusal``) for every row
    and pass the file to ``construction-report --human-labels``."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(sample.rows)
