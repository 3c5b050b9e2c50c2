"""One report document and one writer for every report folder.

A report is built as a :class:`Report`: a title, ordered blocks (:class:`Heading`,
:class:`Text`, :class:`Table`, :class:`Figure`, :class:`FigureRow`) and a JSON payload. :func:`write_report` is the
only place a report's files are written:

- the markdown file (``report.md`` unless named otherwise): ``# title``, then each shown block,
  blocks separated by one blank line, the file ending in one newline. A heading is ``#`` times
  its level and its text; text is written as given; a table is
  :func:`inspect_stance.markdown.md_table` of its frame; a figure is ``![alt](file)``, a row
  of figures their lines one under the other (one paragraph: side by side);
- each table's CSV (``Table.csv``), in one convention: ``DataFrame.to_csv`` with the index
  written only when the table names it (``Table.index``), under that name;
- each figure, drawn by its ``draw(path)`` into the folder;
- the JSON payload (``report.json`` unless named otherwise; none when the payload is None):
  ``json.dumps(indent=2)`` of the payload with NaN and infinities as ``null`` and numpy
  scalars as numbers; a value JSON does not know is written as its ``str``.

Blocks name files relative to the folder; a file in a sub-folder (``heatmaps/a.png``) gets its
folder made. One block may appear more than once (a figure shown in each section): its file is
written once; two blocks naming one file are an error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.markdown import md_table
from inspect_stance.stats.family import json_safe

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Heading:
    """A markdown heading: ``level`` ``#`` then ``text`` (markdown, written as given)."""

    text: str
    level: int = 2

    def markdown(self) -> str:
        """``#`` * level, a space, the text."""
        return "#" * self.level + " " + self.text


@dataclass(frozen=True)
class Text:
    """Markdown written as given (a paragraph, a list, a table laid out by hand)."""

    markdown_text: str

    def markdown(self) -> str:
        """The text itself."""
        return self.markdown_text


@dataclass(frozen=True)
class Table:
    """A table: shown in the markdown as :func:`~inspect_stance.markdown.md_table` of ``frame``
    (unless ``shown`` is False) and written to ``csv`` (a file name) when one is given.
    ``index``: the frame's row index is a column of that name, in both; ``digits``: the
    markdown's decimals."""

    frame: pd.DataFrame
    csv: str | None = None
    index: str | None = None
    shown: bool = True
    digits: int = 3

    def markdown(self) -> str:
        """``md_table(frame, index, digits)``."""
        return md_table(self.frame, index=self.index, digits=self.digits)

    def write_csv(self, path: Path) -> None:
        """The frame as CSV: the index only when named (as ``index``)."""
        if self.index is None:
            self.frame.to_csv(path, index=False)
        else:
            self.frame.to_csv(path, index=True, index_label=self.index)


@dataclass(frozen=True)
class Figure:
    """A figure: ``draw(path)`` writes the image to ``path`` (``file`` in the folder); shown
    in the markdown as ``![alt](file)`` unless ``shown`` is False."""

    file: str
    alt: str
    draw: Callable[[Path], object]
    shown: bool = True

    def markdown(self) -> str:
        """``![alt](file)``."""
        return f"![{self.alt}]({self.file})"


@dataclass(frozen=True)
class FigureRow:
    """Figures shown side by side: their ``![alt](file)`` lines in one paragraph."""

    figures: tuple[Figure, ...]

    def markdown(self) -> str:
        """One ``![alt](file)`` line per shown figure."""
        return "\n".join(f.markdown() for f in self.figures if f.shown)


Block = Heading | Text | Table | Figure | FigureRow


@dataclass
class Report:
    """A report folder's content: ``title`` (the ``#`` heading; None: none), ``blocks`` in
    order, ``payload`` (the JSON; None: no JSON file), the file names of the markdown and
    the JSON."""

    title: str | None
    blocks: list[Block] = field(default_factory=list)
    payload: Any = None
    markdown_file: str = "report.md"
    json_file: str = "report.json"

    def add(self, *blocks: Block) -> Report:
        """Append ``blocks``; returns the report."""
        self.blocks.extend(blocks)
        return self

    def markdown(self) -> str:
        """The markdown file's text (module docstring)."""
        parts = [] if self.title is None else [Heading(self.title, 1).markdown()]
        parts += [b.markdown() for b in self.blocks if getattr(b, "shown", True)]
        return "\n\n".join(parts) + "\n"


def _json_default(value: Any) -> Any:
    return str(value)


def payload_json(payload: Any) -> str:
    """The JSON file's text (module docstring)."""

    return json.dumps(json_safe(payload), indent=2, allow_nan=False, default=_json_default)


def write_report(report: Report, folder: str | Path) -> list[Path]:
    """Write ``report`` into ``folder`` (made if missing): the markdown, the JSON, the tables'
    CSVs, the figures (module docstring); returns the paths written, in that order."""
    out = Path(folder)
    files = _files(report)  # a file named twice is refused before anything is written
    out.mkdir(parents=True, exist_ok=True)
    md = out / report.markdown_file
    md.write_text(report.markdown(), encoding="utf-8")
    written = [md]
    if report.payload is not None:
        written.append(out / report.json_file)
        written[-1].write_text(payload_json(report.payload), encoding="utf-8")
    for name, block in files.items():
        written.append(_place(out, name))
        if isinstance(block, Table):
            block.write_csv(written[-1])
        else:
            block.draw(written[-1])
    return written


def _place(out: Path, name: str) -> Path:
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _files(report: Report) -> dict[str, Table | Figure]:
    """File name -> the block that writes it, tables first, each in the order given; one block
    shown twice writes its file once, two blocks naming one file raise."""
    files: dict[str, Table | Figure] = {}
    tables: list[Table | Figure] = [
        b for b in report.blocks if isinstance(b, Table) and b.csv is not None
    ]
    figures: list[Table | Figure] = []
    for b in report.blocks:
        figures += (
            [b] if isinstance(b, Figure) else list(b.figures) if isinstance(b, FigureRow) else []
        )
    for block in tables + figures:
        name = block.file if isinstance(block, Figure) else str(block.csv)
        if name in (report.markdown_file, report.json_file) or files.get(name, block) is not block:
            raise ValueError(
                f"report file {name!r} is named twice; give each table and figure its own file"
            )
        files[name] = block
    return files
