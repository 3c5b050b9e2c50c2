"""People's pair labels (``-T human_labels=FILE``): which response helps its side more.

A CSV / TSV file with columns ``id`` (or ``sample_id``: the pair's sample id, ``{topic}-{index}``)
and ``label`` (``A``: prompt_a's response better, ``B``: prompt_b's, ``C``: even-handed; case
and surrounding space ignored), or JSON Lines with the same keys. A label other than A/B/C is
an error naming its row; an id given twice with two labels is an error.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from inspect_stance.errors import InputError
from inspect_stance.tables import read_text_file

ID_COLUMNS: tuple[str, ...] = ("id", "sample_id")


def _rows(p: Path) -> list[dict[str, str]]:

    text = read_text_file(p, "human labels")  # one-line errors: not UTF-8 (e.g. Latin-1), ...
    if p.suffix == ".jsonl":
        try:
            rows = [json.loads(x) for x in text.splitlines() if x.strip()]
        except json.JSONDecodeError as ex:
            raise InputError(f"human labels file {p}: not JSON Lines ({ex.msg})") from ex
        bad = next((n for n, r in enumerate(rows, start=1) if not isinstance(r, dict)), None)
        if bad is not None:
            raise InputError(f"human labels file {p}, line {bad}: not a JSON object; write one "
                             '{"id": ..., "label": ...} per line')  # fmt: skip
        return rows
    delimiter = "\t" if p.suffix == ".tsv" else ","
    return list(csv.DictReader(text.splitlines(), delimiter=delimiter))


def load_pair_labels(path: str | Path) -> dict[str, str]:
    """``{sample id: "A" | "B" | "C"}`` from ``path`` (module docstring)."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"human labels file {p}: no such file; give a CSV with id,label")
    out: dict[str, str] = {}
    for n, row in enumerate(_rows(p), start=2):
        sid = next((str(row[c]).strip() for c in ID_COLUMNS if row.get(c)), "")
        label = str(row.get("label") or "").strip().upper()
        if not sid:
            raise InputError(f"human labels file {p}, row {n}: no id; give columns id,label")
        if label not in ("A", "B", "C"):
            raise InputError(f"human labels file {p}, row {n}: label {row.get('label')!r} is "
                             "not A, B or C (A: prompt_a's side helped more, C: even-handed)")  # fmt: skip
        if out.get(sid, label) != label:
            raise InputError(f"human labels file {p}: id {sid!r} has two labels")
        out[sid] = label
    if not out:
        raise InputError(f"human labels file {p}: no labels")
    return out
