"""The one report writer (:mod:`inspect_stance.report_doc`): which files it writes, that each
CSV holds its table, that the markdown shows each table as ``md_table`` does, that a figure's
``draw`` gets the path in the folder (a real matplotlib figure), and the JSON convention."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from inspect_stance.markdown import md_table
from inspect_stance.report_doc import (
    Figure,
    FigureRow,
    Heading,
    Report,
    Table,
    Text,
    write_report,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"model": ["a|b", "c"], "share": [0.25, float("nan")], "n": [3, 10]})


def _indexed() -> pd.DataFrame:
    frame = pd.DataFrame({"llm": [0.5, 1e-5], "human": [2.0, 0.125]}, index=["kappa", "p"])
    frame.index.name = "figure"
    return frame


class Drawer:
    """A draw function that saves a real one-line matplotlib figure and records its paths."""

    def __init__(self) -> None:
        self.paths: list[Path] = []

    def __call__(self, path: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        self.paths.append(path)
        fig, ax = plt.subplots(figsize=(1, 1))
        ax.plot([0, 1], [0, 1])
        fig.savefig(path, dpi=20)
        plt.close(fig)


def test_writes_markdown_json_csvs_and_figures(tmp_path: Path) -> None:
    draw = Drawer()
    doc = Report(
        "Title",
        [
            Heading("Section"),
            Text("A paragraph."),
            Table(_frame(), csv="t.csv"),
            Table(_indexed(), csv="s.csv", index="figure", shown=False),
            Figure("plots/f.png", "the figure", draw),
        ],
        payload={"x": float("nan"), "y": np.float64(0.5), "z": np.int64(3), "w": (1, math.inf)},
    )
    out = tmp_path / "rep"
    written = write_report(doc, out)
    names = ["report.md", "report.json", "t.csv", "s.csv", "plots/f.png"]
    assert written == [out / n for n in names]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(
        names
    )
    # the figure's draw got its path in the folder (sub-folder made) and wrote a PNG there
    assert draw.paths == [out / "plots" / "f.png"]
    assert (out / "plots" / "f.png").read_bytes().startswith(PNG_MAGIC)
    # JSON: NaN and infinity as null, numpy scalars as numbers, indent 2
    text = (out / "report.json").read_text(encoding="utf-8")
    assert json.loads(text) == {"x": None, "y": 0.5, "z": 3, "w": [1, None]}
    assert text.startswith('{\n  "x": null,')


def test_markdown_is_the_blocks_in_order_each_table_as_md_table(tmp_path: Path) -> None:
    doc = Report(
        "Title",
        [
            Heading("Section"),
            Text("line one\nline two"),
            Table(_frame(), csv="t.csv"),
            Table(_indexed(), index="figure"),
            Table(_indexed(), csv="hidden.csv", index="figure", shown=False),
            Heading("Sub", 3),
            Figure("f.png", "alt text", Drawer()),
            FigureRow((Figure("g.png", "g", Drawer()), Figure("h.png", "h", Drawer()))),
        ],
    )
    write_report(doc, tmp_path)
    expected = (
        "# Title\n\n## Section\n\nline one\nline two\n\n"
        "| model | share | n |\n|---|---|---|\n| a\\|b | 0.250 | 3 |\n| c | n/a | 10 |\n\n"
        + "| figure | llm | human |\n|---|---|---|\n| kappa | 0.500 | 2 |\n| p | 1e-05 | 0.125 |"
        + "\n\n### Sub\n\n![alt text](f.png)\n\n![g](g.png)\n![h](h.png)\n"
    )
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert text == expected
    assert md_table(_frame()) in text and md_table(_indexed(), index="figure") in text
    assert not (tmp_path / "report.json").exists()  # no payload, no JSON file
    assert {p.name for p in tmp_path.iterdir()} == {
        "report.md", "t.csv", "hidden.csv", "f.png", "g.png", "h.png"
    }  # fmt: skip


def test_csv_holds_the_table(tmp_path: Path) -> None:
    frame, indexed = _frame(), _indexed()
    write_report(
        Report(None, [Table(frame, csv="t.csv"), Table(indexed, csv="s.csv", index="figure")]),
        tmp_path,
    )
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "t.csv"), frame)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "s.csv", index_col="figure"), indexed)
    # one convention: no index column unless the table names it
    assert (tmp_path / "t.csv").read_text().splitlines()[0] == "model,share,n"
    assert (tmp_path / "s.csv").read_text().splitlines()[0] == "figure,llm,human"


def test_custom_file_names_and_no_title(tmp_path: Path) -> None:
    doc = Report(None, [Text("x")], {"a": 1}, "other.md", "other.json")
    assert write_report(doc, tmp_path) == [tmp_path / "other.md", tmp_path / "other.json"]
    assert (tmp_path / "other.md").read_text() == "x\n"


def test_a_figure_shown_twice_is_drawn_once(tmp_path: Path) -> None:
    draw = Drawer()
    figure = Figure("f.png", "f", draw)
    write_report(Report("T", [Heading("a"), figure, Heading("b"), figure]), tmp_path)
    assert draw.paths == [tmp_path / "f.png"]
    assert (tmp_path / "report.md").read_text().count("![f](f.png)") == 2


@pytest.mark.parametrize(
    "blocks",
    [
        [
            Table(pd.DataFrame({"a": [1]}), csv="x.csv"),
            Table(pd.DataFrame({"b": [2]}), csv="x.csv"),
        ],
        [Figure("report.md", "clash", Drawer())],
    ],
)
def test_two_blocks_naming_one_file_are_refused(tmp_path: Path, blocks) -> None:
    with pytest.raises(ValueError, match="named twice"):
        write_report(Report("T", blocks), tmp_path)
    assert not any(tmp_path.iterdir())  # refused before anything is written
