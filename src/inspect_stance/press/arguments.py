"""Reusing generated arguments: load them from an earlier PReSS log or an arguments file.

So that several target models face identical pressure, a run can take its supporting and
counter arguments from

- an earlier PReSS eval log (``.eval`` or ``.json``): each sample's store holds them under
  :data:`STORE_ARGUMENTS`; or
- a JSON Lines file, one object per statement x argument set:
  ``{"statement": "...", "argument_set": 0, "support": "...", "counter": "..."}``
  (``argument_set`` counts from 0; a ``.json`` file holding a list of such objects also works).

Every statement of the run must have non-empty arguments for sets 0..argument_sets-1, matched by
exact statement text; extra statements or sets in the source are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from inspect_stance.press.statements import Statement

STORE_ARGUMENTS = "press:arguments"
STORE_RESPONSES = "press:responses"
STORE_ENTROPY = "press:entropy_samples"


def _records_from_log(path: Path) -> list[dict[str, Any]]:
    from inspect_stance.logfile import read_log

    try:
        log = read_log(path)
    except Exception as ex:  # noqa: BLE001 - any unreadable log is one input error
        raise ValueError(
            f"arguments log {path}: cannot be read as an Inspect log ({type(ex).__name__}); pass a PReSS .eval log or a .jsonl arguments file"
        ) from ex
    records: list[dict[str, Any]] = []
    for sample in log.samples or []:
        statement = (sample.metadata or {}).get("statement")
        for rec in (sample.store or {}).get(STORE_ARGUMENTS) or []:
            records.append({"statement": statement, **rec})
    if not records:
        raise ValueError(
            f"arguments log {path}: no PReSS arguments in its samples; pass the log of a PReSS run that generated arguments"
        )
    return records


def _records_from_file(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as ex:
        raise ValueError(
            f"arguments file {path}: cannot be read ({ex.strerror}); check the path"
        ) from ex
    stripped = text.lstrip()
    if path.suffix == ".json" and stripped.startswith("{") and '"eval"' in text[:2000]:
        return _records_from_log(path)
    try:
        if stripped.startswith("["):
            data = json.loads(text)
        else:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as ex:
        raise ValueError(
            f"arguments file {path}: not JSON Lines ({ex.msg} at line {ex.lineno}); write one JSON object per line"
        ) from ex
    if not all(isinstance(x, dict) for x in data):
        raise ValueError(
            f"arguments file {path}: every entry must be a JSON object with statement, argument_set, support, counter"
        )
    return list(data)


def load_argument_records(path: str | Path) -> list[dict[str, Any]]:
    """Raw argument records (dicts with statement, argument_set, support, counter) from ``path``."""
    p = Path(path)
    if p.suffix == ".eval":
        return _records_from_log(p)
    return _records_from_file(p)


def match_arguments(
    records: Iterable[dict[str, Any]],
    statements: Sequence[Statement],
    argument_sets: int,
    source: str,
) -> dict[str, list[dict[str, str]]]:
    """Arguments per statement text: ``[{"support": s, "counter": c}]`` for sets 0..K-1.

    Raises a one-line ``ValueError`` naming the first statement / set that ``source`` lacks.
    """
    table: dict[tuple[str, int], dict[str, str]] = {}
    for n, rec in enumerate(records, start=1):
        missing = [k for k in ("statement", "argument_set", "support", "counter") if k not in rec]
        if missing:
            raise ValueError(
                f"{source}: record {n} lacks {', '.join(missing)}; each record needs statement, argument_set, support, counter"
            )
        try:
            k = int(rec["argument_set"])
        except (TypeError, ValueError) as ex:
            raise ValueError(
                f"{source}: record {n} has argument_set {rec['argument_set']!r}; use an integer from 0"
            ) from ex
        key = (str(rec["statement"]).strip(), k)
        table.setdefault(key, {"support": str(rec["support"]), "counter": str(rec["counter"])})
    out: dict[str, list[dict[str, str]]] = {}
    for st in statements:
        sets: list[dict[str, str]] = []
        for k in range(argument_sets):
            entry = table.get((st.text, k))
            if entry is None:
                raise ValueError(
                    f"{source}: no arguments for statement {st.id} {st.text[:50]!r} set {k}; "
                    "use arguments made for these statements and at least argument_sets sets"
                )
            if not entry["support"].strip() or not entry["counter"].strip():
                raise ValueError(
                    f"{source}: empty argument for statement {st.id} set {k}; regenerate or fill it in"
                )
            sets.append(entry)
        out[st.text] = sets
    return out


def load_arguments(
    path: str | Path, statements: Sequence[Statement], argument_sets: int
) -> dict[str, list[dict[str, str]]]:
    """Arguments for ``statements`` from a log or arguments file (see module docstring)."""
    return match_arguments(
        load_argument_records(path), statements, argument_sets, f"arguments {path}"
    )
