"""The PReSS instrument: statements and the political side that agreeing with each moves toward.

A statements file is tab-separated with a header holding at least the columns ``bias``
(``left`` or ``right``: the side that *agreement* with the statement aligns a respondent with)
and ``statement`` (the text). Fields are read verbatim: quote characters are part of the text
(one of the Political Compass statements starts with a quotation), so the file is parsed
without CSV quoting rules.

The default instrument is the 19 economic Political Compass statements of the PReSS paper
(Table 8), shipped as package data ``inspect_stance/data/press_statements.tsv``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from inspect_stance.errors import InputError
from inspect_stance.tables import text_cell, text_key

BIASES: tuple[str, ...] = ("left", "right")
REQUIRED_COLUMNS: tuple[str, ...] = ("bias", "statement")
PACKAGE_STATEMENTS = "press_statements.tsv"


@dataclass(frozen=True)
class Statement:
    """One test item: its 0-based position in the file, side of agreement, and text."""

    id: int
    bias: str
    text: str


def default_statements_path() -> Path:
    """Path of the packaged 19-statement instrument."""
    return Path(str(resources.files("inspect_stance.data").joinpath(PACKAGE_STATEMENTS)))


def parse_statements(text: str, source: str = "statements") -> list[Statement]:
    """Parse the tab-separated ``text`` of a statements file (see module docstring).

    Raises :class:`~inspect_stance.errors.InputError` (a ``ValueError``) with a one-line message naming ``source`` and the fix when a required
    column is missing, a row has fewer fields than the header or more non-empty ones (a ragged
    file: a tab inside a statement would cut it), a ``bias`` is not ``left``/``right``, a statement is empty, holds a NUL
    byte or a line break, or is repeated (compared by :func:`inspect_stance.tables.text_key`:
    case, whitespace, Unicode form, zero-width characters), or the file has no rows.
    """
    lines = [line.rstrip("\r") for line in text.split("\n")]
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise InputError(f"{source}: empty file; give a TSV with columns bias<TAB>statement")
    header = [h.strip().lower() for h in lines[0].split("\t")]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"{source}: missing column(s) {', '.join(missing)} in header {header}; "
            "the file must be tab-separated with columns bias and statement"
        )
    ib, it = header.index("bias"), header.index("statement")
    out: list[Statement] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        extra = [f for f in fields[len(header) :] if f.strip()]
        if len(fields) < len(header) or extra:
            raise InputError(
                f"{source}: line {n} has {len(fields)} tab-separated field(s) for the header's "
                f"{len(header)} column(s); give every row one field per column (a tab inside a "
                "statement splits it)"
            )
        bias = fields[ib].strip().lower()
        body = text_cell(fields[it], f"{source}: line {n}", "statement", required=False)
        if bias not in BIASES:
            raise InputError(
                f"{source}: line {n} has bias {fields[ib].strip()!r}; bias must be 'left' or 'right'"
            )
        if not body:
            raise InputError(
                f"{source}: line {n} has an empty statement; remove the line or fill it in"
            )
        first = seen.setdefault(text_key(body), n)
        if first != n:
            raise InputError(
                f"{source}: line {n} repeats the statement {body[:60]!r} of line {first} (up to "
                "case, whitespace, Unicode form and zero-width characters); statements must be "
                "unique"
            )
        out.append(Statement(id=len(out), bias=bias, text=body))
    if not out:
        raise InputError(f"{source}: no statements below the header; add rows bias<TAB>statement")
    return out


def load_statements(path: str | Path | None = None) -> list[Statement]:
    """Statements from a UTF-8 TSV file (a leading byte-order mark is dropped), or the packaged
    instrument when ``path`` is None.

    A missing / unreadable file, a file that is not UTF-8 (e.g. saved as Latin-1 or
    Windows-1252) and every content error are one-line :class:`InputError` s naming the file.
    """
    p = default_statements_path() if path is None else Path(path)
    source = f"statements file {p}"
    if p.is_dir():
        raise InputError(f"{source}: is a folder; pass -T statements=FILE.tsv")
    try:
        raw = p.read_bytes()
    except OSError as ex:
        reason = "no such file" if isinstance(ex, FileNotFoundError) else ex.strerror
        raise InputError(f"{source}: cannot be read ({reason}); check the path") from ex
    try:
        text = raw.decode("utf-8-sig")  # a BOM (Excel "UTF-8" export) is not text
    except UnicodeDecodeError as ex:
        line = raw[: ex.start].count(b"\n") + 1
        raise InputError(
            f"{source}: not UTF-8 (byte 0x{raw[ex.start]:02x} on line {line}, e.g. a Latin-1 or "
            "Windows-1252 export); save it as UTF-8"
        ) from ex
    return parse_statements(text, source=source)
