"""PReSS arguments: one set for every target, reused from a log or a file, and fingerprinted.

The paper generates its supporting and counter arguments once (one arguer, temperature 1,
three sets) and shows the same arguments to every model. Here:

- ``inspect eval tasks/press.py@press_arguments --model ARGUER`` (or ``--model-role
  arguer=ARGUER``) writes the sets into a log (each sample's store holds them under
  :data:`STORE_ARGUMENTS`);
- ``inspect eval tasks/press.py --model TARGET -T arguments=THAT.eval`` reuses them for every
  target; ``-T arguments=DIR`` reads the folder of one run, e.g. every shard's log of a
  ``press_arguments -T shard=K/N`` study (pooled; one shard's log alone is refused: it holds
  some statements only). A ``press`` log that generated its own arguments works too, as does
  a JSON Lines file, one object per statement x argument set:
  ``{"statement": "...", "argument_set": 0, "support": "...", "counter": "..."}``
  (``argument_set`` counts from 0; a ``.json`` file holding a list of such objects also works).

Every statement of the run must have non-empty arguments for sets 0..argument_sets-1, matched by
exact statement text; extra statements or sets in the source are ignored. A log run with
``inspect eval --epochs N`` drew N argument tables per statement: epoch 1's is the one used,
and the run says so in one line (:func:`epochs_note`; logged as a warning and kept in the task
metadata as ``arguments_note``).

Where the arguments came from is recorded as ``arguments_source``: ``arguer:<model>`` (an
``arguer`` role, or the model of a ``press_arguments`` run), ``target:<model>`` (no arguer role:
the model under test argued against itself) or ``log:<path>`` / ``file:<path>``; a log's own
source is carried along as ``arguments_origin``. ``arguments_fingerprint`` is
:func:`arguments_fingerprint` of the arguments actually used, so that two runs can be checked to
have faced identical arguments.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.fingerprint import digest
from inspect_stance.logfile import find_task_logs, read_task_log
from inspect_stance.press.statements import Statement
from inspect_stance.tables import text_cell

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

STORE_ARGUMENTS = "press:arguments"
STORE_RESPONSES = "press:responses"
STORE_ENTROPY = "press:entropy_samples"
STORE_FACTOR = "press:factor_samples"
ARGUMENT_TASKS: tuple[str, ...] = ("press", "press_arguments")

# statement text -> one {"support": ..., "counter": ...} per argument set, in set order
ArgumentTable = dict[str, list[dict[str, str]]]


def arguments_fingerprint(table: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """sha256 (hex) of the canonical JSON of statement -> set -> (supporting, counter) texts.

    Canonical JSON: ``{statement: [[support_0, counter_0], [support_1, counter_1], ...]}`` with
    keys sorted, ``ensure_ascii=False``, separators ``(",", ":")``, UTF-8 encoded. Equal
    fingerprints mean the same statements faced the same argument texts in the same sets.
    """
    canonical = {
        str(statement): [[str(s["support"]), str(s["counter"])] for s in sets]
        for statement, sets in table.items()
    }
    blob = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def table_from_samples(samples: Iterable[Any], epoch: int = 1) -> ArgumentTable:
    """Statement -> argument sets from a log's samples of ``epoch`` (metadata ``statement`` and
    the store's :data:`STORE_ARGUMENTS`, ordered by ``argument_set``; under ``inspect eval
    --epochs N`` each epoch drew its own); samples without arguments are left out."""
    table: ArgumentTable = {}
    for sample in samples:
        if _epoch(sample) != epoch:
            continue
        statement = (sample.metadata or {}).get("statement")
        records = (sample.store or {}).get(STORE_ARGUMENTS) or []
        if statement is None or not records:
            continue
        ordered = sorted(records, key=lambda r: int(r["argument_set"]))
        table[str(statement)] = [
            {"support": str(r["support"]), "counter": str(r["counter"])} for r in ordered
        ]
    return table


def _epoch(sample: Any) -> int:
    """A log sample's epoch (1 when not recorded)."""
    return int(getattr(sample, "epoch", None) or 1)


def log_arguments_fingerprint(log: EvalLog) -> str | None:
    """The arguments fingerprint of a PReSS (or ``press_arguments``) log: the task metadata's
    ``arguments_fingerprint`` when the run was given its arguments, otherwise computed from the
    arguments its samples generated (None when it has none): :func:`arguments_fingerprint` of
    the table, and under ``inspect eval --epochs N``, where each epoch drew its own, the digest
    of the N epochs' fingerprints in epoch order, so that it equals another run's only when
    every epoch faced the same arguments."""
    meta = (log.eval.metadata or {}) if log.eval else {}
    given = meta.get("arguments_fingerprint")
    if given:
        return str(given)
    samples = log.samples or []
    epochs = sorted({_epoch(s) for s in samples})
    tables = [table_from_samples(samples, e) for e in epochs]
    if not any(tables):
        return None
    if len(tables) == 1:
        return arguments_fingerprint(tables[0])
    return digest([arguments_fingerprint(t) for t in tables])


@dataclass(frozen=True)
class LoadedArguments:
    """Arguments for a run's statements and where they came from."""

    table: ArgumentTable
    source: str  # log:<path> or file:<path>
    origin: str | None  # the source log's own arguments_source, when it recorded one
    #: a log run with --epochs N: the line saying epoch 1's arguments are used (:func:`epochs_note`)
    note: str | None = None

    @property
    def fingerprint(self) -> str:
        """:func:`arguments_fingerprint` of :attr:`table`."""
        return arguments_fingerprint(self.table)


WHAT = "PReSS run or press_arguments run (-T arguments)"


def _log_records(log: EvalLog, path: Path) -> tuple[list[dict[str, Any]], str | None, int]:
    """The argument records of a log's epoch-1 samples, its ``arguments_source`` (None if
    none) and its number of epochs: under ``inspect eval --epochs N`` each epoch drew its own
    arguments, and the first epoch's are the run's one table (:func:`epochs_note`)."""
    records: list[dict[str, Any]] = []
    samples = log.samples or []
    for sample in samples:
        if _epoch(sample) != 1:
            continue
        statement = (sample.metadata or {}).get("statement")
        for rec in (sample.store or {}).get(STORE_ARGUMENTS) or []:
            records.append({"statement": statement, **rec})
    if not records:
        raise InputError(
            f"arguments log {path}: no PReSS arguments in its samples; pass the log of a "
            "press_arguments run or of a PReSS run that generated arguments"
        )
    meta = (log.eval.metadata or {}) if log.eval else {}
    origin = meta.get("arguments_source")
    return records, (str(origin) if origin else None), max(map(_epoch, samples), default=1)


def epochs_note(path: str | Path, epochs: int) -> str | None:
    """The line saying that only epoch 1's arguments of a log run with ``--epochs N`` are used
    (None for one epoch)."""
    if epochs <= 1:
        return None
    return (
        f"arguments {path}: a run with --epochs {epochs}, which drew {epochs} argument tables "
        "per statement; epoch 1's are used (for more argument sets, run press_arguments with "
        "-T argument_sets=K instead of --epochs)"
    )


def _records_from_log(path: Path) -> tuple[list[dict[str, Any]], str | None, int]:
    """A whole run's log; one shard's log (``-T shard=K/N`` or Inspect's shard layout) holds
    some statements only and is refused in one line naming the fix: the shards' folder."""
    from inspect_stance.shards.layout import log_shard

    log = read_task_log(path, ARGUMENT_TASKS, WHAT)
    shard = log_shard(path, log.eval)
    if shard is not None:
        raise InputError(
            f"arguments {path}: shard {shard.k}/{shard.n} of a study, which holds some "
            "statements only; pass the folder holding every shard's log (-T arguments=DIR)"
        )
    return _log_records(log, path)


def _records_from_folder(folder: Path) -> tuple[list[dict[str, Any]], str | None, int]:
    """The records of the one run a folder holds: one log, or the shards of one study pooled
    (:func:`inspect_stance.shards.layout.group_logs`: a shard's superseded attempts left out);
    one-line ``InputError`` for several runs, shards that do not pool or an incomplete set."""
    from inspect_stance.shards.layout import group_logs

    try:
        found = find_task_logs([folder], ARGUMENT_TASKS, WHAT)
    except InputError as ex:
        raise InputError(
            f"arguments {folder}: is a folder without a PReSS or press_arguments log; pass a "
            "log, a .jsonl file, or the folder of one press_arguments run's shards"
        ) from ex
    try:
        groups, partial = group_logs(found.paths, partial=True)
    except InputError as ex:
        raise InputError(f"arguments {folder}: {ex}") from ex
    if len(groups) != 1:
        raise InputError(
            f"arguments {folder}: holds {len(groups)} runs; give the folder of one "
            "press_arguments run's shards, or one log"
        )
    if partial:
        what = partial[groups[0][0]].strip(" ()")
        raise InputError(
            f"arguments {folder}: holds {what} of one study; add the missing shards' logs"
        )
    records: list[dict[str, Any]] = []
    origin, epochs = None, 1
    for path in groups[0]:
        recs, origin, n = _log_records(read_task_log(path, ARGUMENT_TASKS, WHAT), path)
        records.extend(recs)
        epochs = max(epochs, n)
    return records, origin, epochs


def _records_from_file(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as ex:
        reason = "no such file" if isinstance(ex, FileNotFoundError) else ex.strerror
        raise InputError(
            f"arguments file {path}: cannot be read ({reason}); check the path"
        ) from ex
    except UnicodeDecodeError as ex:
        raise InputError(f"arguments file {path}: not UTF-8; save it as UTF-8") from ex
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            data = json.loads(text)
        else:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as ex:
        raise InputError(
            f"arguments file {path}: not JSON Lines ({ex.msg} at line {ex.lineno}); write one "
            "JSON object per line"
        ) from ex
    if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
        raise InputError(
            f"arguments file {path}: every entry must be a JSON object with statement, "
            "argument_set, support, counter"
        )
    if not data:
        raise InputError(f"arguments file {path}: no records; write one JSON object per line")
    return list(data)


def _is_log(path: Path) -> bool:
    if path.suffix == ".eval":
        return True
    if path.suffix != ".json" or not path.is_file():
        return False
    with path.open("rb") as f:
        head = f.read(4000)
    return head.lstrip().startswith(b"{") and b'"eval"' in head


def load_argument_records(
    path: str | Path,
) -> tuple[list[dict[str, Any]], str, str | None, int]:
    """(raw argument records, source, origin, epochs) from ``path`` (see module docstring): a
    log, a folder holding one run's log or the shards of one study (the records of epoch 1 of
    a run with ``--epochs N``, ``epochs`` = N), or an arguments file (``epochs`` 1)."""
    p = Path(path)
    if p.is_dir():
        records, origin, epochs = _records_from_folder(p)
        return records, f"log:{p}", origin, epochs
    if not p.exists():
        raise InputError(
            f"arguments {p}: no such file; pass the .eval log of a press_arguments run or a "
            ".jsonl arguments file"
        )
    if _is_log(p):
        records, origin, epochs = _records_from_log(p)
        return records, f"log:{p}", origin, epochs
    return _records_from_file(p), f"file:{p}", None, 1


def folder_identity(folder: str | Path) -> str:
    """The digest of the arguments a folder given as ``-T arguments`` holds (each record's
    statement, set, supporting and counter texts, sorted), whatever its files' names or times,
    so that press shards given copies of one folder on several machines are one study."""

    records, _source, _origin, _epochs = load_argument_records(folder)
    keys = ("statement", "argument_set", "support", "counter")
    return digest(sorted([str(r.get(k)) for k in keys] for r in records))


def _check_bias(
    rec: Mapping[str, Any], statement: str, biases: Mapping[str, str], where: str
) -> None:
    """A record's own ``bias``, when it has one, must be its statement's in the run."""
    given = rec.get("bias")
    if given is None or statement not in biases:
        return
    if str(given).strip().lower() != biases[statement]:
        raise InputError(
            f"{where} has bias {given!r} for statement {statement[:50]!r}, which the statements "
            f"file gives bias {biases[statement]!r}; use arguments made for these statements"
        )


def _record_entry(
    rec: dict[str, Any], n: int, source: str
) -> tuple[tuple[str, int], dict[str, str]]:
    """Record ``n``'s key ``(statement text, argument set)`` and its two arguments, checked: a
    one-line :class:`InputError` for a missing field or an argument set that is not an integer
    from 0."""
    missing = [k for k in ("statement", "argument_set", "support", "counter") if k not in rec]
    if missing:
        raise InputError(
            f"{source}: record {n} lacks {', '.join(missing)}; each record needs statement, "
            "argument_set, support, counter"
        )
    k = rec["argument_set"]
    if isinstance(k, str) and k.strip().isdigit():
        k = int(k)
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise InputError(
            f"{source}: record {n} has argument_set {rec['argument_set']!r}; use an integer from 0"
        )
    where = f"{source}: record {n}"
    texts = {
        side: text_cell(rec[side], where, side, required=False, multiline=True)
        for side in ("support", "counter")
    }
    return (text_cell(rec["statement"], where, "statement"), k), texts


def match_arguments(
    records: Iterable[dict[str, Any]],
    statements: Sequence[Statement],
    argument_sets: int,
    source: str,
) -> ArgumentTable:
    """Arguments per statement text: ``[{"support": s, "counter": c}]`` for sets 0..K-1.

    Raises a one-line :class:`InputError` naming the first statement / set that ``source``
    lacks, a statement and set given twice with different arguments (which would be used is
    no choice to leave to record order), or a record whose own ``bias`` contradicts its
    statement's in the statements file.
    """
    table: dict[tuple[str, int], dict[str, str]] = {}
    biases = {st.text: st.bias for st in statements}
    for n, rec in enumerate(records, start=1):
        key, texts = _record_entry(rec, n, source)
        where = f"{source}: record {n}"
        first = table.setdefault(key, texts)
        if first != texts:
            raise InputError(
                f"{where} gives statement {key[0][:50]!r} set {key[1]} other arguments than an "
                "earlier record; keep one record per statement and argument set"
            )
        _check_bias(rec, key[0], biases, where)
    out: ArgumentTable = {}
    for st in statements:
        sets: list[dict[str, str]] = []
        for k in range(argument_sets):
            entry = table.get((st.text, k))
            if entry is None:
                raise InputError(
                    f"{source}: no arguments for statement {st.id} {st.text[:50]!r} set {k}; "
                    "use arguments made for these statements and at least argument_sets sets"
                )
            if not entry["support"].strip() or not entry["counter"].strip():
                raise InputError(
                    f"{source}: empty argument for statement {st.id} set {k}; regenerate or "
                    "fill it in"
                )
            sets.append(entry)
        out[st.text] = sets
    return out


def load_arguments(
    path: str | Path, statements: Sequence[Statement], argument_sets: int
) -> LoadedArguments:
    """Arguments for ``statements`` from a log or arguments file (see module docstring)."""
    records, source, origin, epochs = load_argument_records(path)
    table = match_arguments(records, statements, argument_sets, f"arguments {path}")
    return LoadedArguments(table=table, source=source, origin=origin,
                           note=epochs_note(path, epochs))  # fmt: skip
