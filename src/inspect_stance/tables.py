"""One reader for the package's input tables (propositions, topics, statements), one wording.

:func:`read_table` reads a ``.csv`` / ``.tsv`` (header row, CSV quoting) or ``.jsonl`` (one JSON
object per line) file into ``(line number, row)`` pairs, header names stripped and lower-cased;
a UTF-8 byte-order mark is dropped. Every problem is a one-line
:class:`~inspect_stance.errors.InputError` of the form ``<what> file <path>[, line N]: <problem>;
<fix>``: a missing file, a folder, text that is not UTF-8, invalid CSV (a quote left open runs to
the end of the file), more fields than columns, a JSON line that is not an object.

:func:`text_cell` checks one cell that must be a single line of text: a JSON object, list,
number or boolean where text is expected, a NUL byte or a line break (often a stray quote that
swallowed the lines after it) is an error naming the line and column; whitespace runs are
collapsed. :func:`text_key` is what two texts are compared by for duplicates: Unicode NFKC
normal form, zero-width and other format characters (``U+200B``, ``U+200D``, ``U+FEFF``, soft
hyphens: category ``Cf``) removed, whitespace collapsed, case folded — ``café`` written with a
combining accent (NFD) and with ``é`` (NFC), or with a zero-width space inside, is one text.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError

BOM = "\ufeff"
TABLE_SUFFIXES: tuple[str, ...] = (".csv", ".tsv", ".jsonl")
#: characters that break a line (str.splitlines's set): a cell holding one is not one line
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")

Row = dict[str, Any]


def read_text_file(path: str | Path, what: str) -> str:
    """The UTF-8 text of ``path`` without a leading BOM; one-line errors for a missing file, a
    folder, an unreadable file and text that is not UTF-8 (naming the line of the bad byte)."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{what} file {path}: is a folder; pass a file")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(
            f"{what} file {path}: no such file; pass an existing file (relative to the "
            "directory you run from)"
        ) from None
    except OSError as ex:
        raise InputError(f"{what} file {path}: cannot be read ({ex.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as ex:
        line = raw[: ex.start].count(b"\n") + 1
        raise InputError(
            f"{what} file {path}, line {line}: not UTF-8 (byte 0x{raw[ex.start]:02x}, e.g. a "
            "Latin-1 or Windows-1252 export); save it as UTF-8"
        ) from None
    return text[1:] if text.startswith(BOM) else text


def _csv_rows(text: str, path: Path, what: str, sep: str) -> list[tuple[int, Row]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    rows: list[tuple[int, Row]] = []
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(f"{what} file {path}: is empty; add a header row and rows")
        names = [h.strip().lower() for h in header]
        start = reader.line_num + 1
        for values in reader:
            line, start = start, reader.line_num + 1
            if not any(v.strip() for v in values):
                continue
            if len(values) > len(names):
                raise InputError(
                    f"{what} file {path}, line {line}: {len(values)} fields for {len(names)} "
                    f"columns; quote fields that contain {sep!r}"
                )
            rows.append((line, dict(zip(names, values, strict=False))))
    except csv.Error as ex:
        raise InputError(
            f"{what} file {path}, line {start}: not valid CSV ({ex}); close or remove the stray "
            'quote (a quote inside a field is written "")'
        ) from None
    return rows


def _jsonl_rows(text: str, path: Path, what: str) -> list[tuple[int, Row]]:
    rows: list[tuple[int, Row]] = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as ex:
            raise InputError(
                f"{what} file {path}, line {n}: not JSON ({ex.msg}); write one JSON object per line"
            ) from None
        if not isinstance(obj, dict):
            raise InputError(
                f"{what} file {path}, line {n}: a JSON {type(obj).__name__}, not an object; "
                "write one JSON object per line"
            )
        rows.append((n, {str(k).strip().lower(): v for k, v in obj.items()}))
    return rows


def read_table(path: str | Path, what: str) -> list[tuple[int, Row]]:
    """``(line number, row)`` pairs of a ``.csv`` / ``.tsv`` / ``.jsonl`` file (see the module
    docstring); ``what`` names the file in errors (``"propositions"`` -> ``propositions file
    p.csv, line 3: ...``). CSV cells are strings; JSON values keep their type (check them with
    :func:`text_cell`). Blank lines are skipped; line numbers are the file's."""
    path = Path(path)
    suffix = path.suffix.lower()
    if path.is_dir():
        raise InputError(f"{what} file {path}: is a folder; pass a file")
    if suffix not in TABLE_SUFFIXES:
        raise InputError(
            f"{what} file {path}: unknown extension {suffix!r}; use {', '.join(TABLE_SUFFIXES)}"
        )
    text = read_text_file(path, what)
    if suffix == ".jsonl":
        return _jsonl_rows(text, path, what)
    return _csv_rows(text, path, what, "\t" if suffix == ".tsv" else ",")


def text_cell(
    value: Any, where: str, column: str, required: bool = True, multiline: bool = False
) -> str:
    """One cell that must be a line of text, whitespace runs collapsed to single spaces.

    ``None`` (a JSON null, an absent CSV cell) is ``""``; an empty result raises only when
    ``required``. A non-string JSON value, a NUL byte or a line break raises a one-line
    :class:`InputError` that starts with ``where`` (e.g. ``propositions file p.csv, line 2``).
    With ``multiline`` (a paragraph such as a generated argument) line breaks are allowed and
    the text is only stripped.
    """
    if value is None:
        value = ""
    if not isinstance(value, str):
        kind = {dict: "object", list: "list", bool: "boolean"}.get(type(value), "number")
        raise InputError(
            f"{where}: {column} is a JSON {kind} ({json.dumps(value)[:40]}), not text; write the "
            f'{column} as a string, e.g. {{"{column}": "We should ..."}}'
        )
    if "\x00" in value:
        raise InputError(f"{where}: {column} holds a NUL byte; remove it (a binary file?)")
    if multiline:
        text = value.strip()
        if required and not text:
            raise InputError(f"{where}: {column} is empty; fill it in or remove the row")
        return text
    if any(ch in _LINE_BREAKS for ch in value.strip()):
        raise InputError(
            f"{where}: {column} holds a line break ({value.strip()[:50]!r}...); a quote left open "
            "swallows the lines after it: close or remove it (one entry per line)"
        )
    text = " ".join(value.split())
    if required and not text:
        raise InputError(f"{where}: {column} is empty; fill it in or remove the row")
    return text


def text_key(text: str) -> str:
    """The key two texts are compared by for duplicates: NFKC, format characters (category
    ``Cf``: zero-width spaces and joiners, BOMs, soft hyphens) removed, whitespace collapsed,
    case folded."""
    normal = unicodedata.normalize("NFKC", text)
    visible = "".join(ch for ch in normal if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split()).casefold()
