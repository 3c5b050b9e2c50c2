"""The HTML study page from an output folder: figures embedded byte for byte, markdown tables as
HTML tables, a note per figure, model text escaped, and no reference to anything outside."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from inspect_stance.html import png_size, write_study_page  # noqa: E402


def _png(path: Path, w_in: float, h_in: float) -> bytes:
    fig, ax = plt.subplots(figsize=(w_in, h_in), dpi=50)
    ax.plot([0, 1], [0, 1])
    fig.savefig(path)
    plt.close(fig)
    return path.read_bytes()


def test_page_embeds_every_figure_and_renders_the_tables(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    a = _png(out / "pass_curve.png", 4, 3)
    b = _png(out / "zz_extra.png", 2, 2)  # written but not referenced by the markdown
    (out / "report.md").write_text(
        "# Report\n\n| run | SPR |\n|---|---|\n| m <script>alert(1)</script> | 0.570 |\n\n"
        "## Figures\n\n### run a\n\n![curve](pass_curve.png)\n",
        encoding="utf-8",
    )
    page = write_study_page(
        tmp_path / "page.html", "Stance drift report", out, [], {r"^pass": "Read me."}
    ).read_text(encoding="utf-8")
    uris = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert [base64.b64decode(u) for u in uris] == [a, b]  # referenced first, then the rest
    assert png_size(a) == (200, 150)  # 4 x 3 inches at 50 dpi
    assert 'width="200" height="150"' in page
    assert "<table>" in page and "<td>0.570</td>" in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert "How to read this.</strong> Read me." in page
    assert "<h2>Figures</h2>" not in page and "<h3>run a</h3>" not in page  # emptied by the move
    assert not re.search(r'(src|href)="(https?:)?//', page), "the page fetches nothing"


def test_construction_lean_caption_names_the_same_pole_as_the_axis_and_the_docs():
    """Negative lean = pole A / topic_pro (construction/lean.py, docs/prompt_construction.md)."""
    from inspect_stance.construction.page import NOTES
    from inspect_stance.construction.plots import LEAN_AXIS_LABEL

    caption = NOTES[r"^lean_by_setting\.png$"].how_to_read
    left = caption.split("left of 0", 1)[1].split(",", 1)[0]
    assert "pole A" in left and "pro" in left and "con" not in left
    assert "< 0: pole A / pro" in LEAN_AXIS_LABEL
    docs = (Path(__file__).parents[2] / "docs" / "prompt_construction.md").read_text()
    assert "negative: toward pole A / `topic_pro`" in docs


def _drift_like_folder(tmp_path: Path) -> Path:
    """A report folder as ``report`` writes it for two runs whose names hold brackets."""
    out = tmp_path / "out"
    out.mkdir()
    for stem in ("heatmap_m_seed_1", "heatmap_m_seed_1_argmax", "pass_rate_curve"):
        _png(out / f"{stem}.png", 3, 2)
    wide = "| run | " + " | ".join(f"col_{i}" for i in range(12)) + " |"
    (out / "report.md").write_text(
        "# Stance-drift report\n\n- runs: two\n\n## Runs\n\n| run | trials |\n|---|---|\n"
        "| m [seed=1] | 10 |\n\n## Wide\n\n"
        + wide
        + "\n|"
        + "---|" * 13
        + "\n| m |"
        + " 0.5 |" * 12
        + "\n\n## Figures\n\n### m [seed=1]\n\n"
        "![m [seed=1]](heatmap_m_seed_1.png)\n![m [seed=1]](heatmap_m_seed_1_argmax.png)\n\n"
        "### Pass rate against threshold (Fig. S6A)\n\n![Pass rate](pass_rate_curve.png)\n",
        encoding="utf-8",
    )
    return out


def test_figures_are_titled_by_what_they_show_and_which_run_not_by_file_name(tmp_path):
    from inspect_stance.drift.page import PAGE as study

    out = _drift_like_folder(tmp_path)
    page = write_study_page(tmp_path / "p.html", study.title, out, [], study.notes).read_text()
    titles = re.findall(r"<figure[^>]*>\s*<h3>(.*?)</h3>", page)
    assert titles == [
        "Transition matrix — m [seed=1]",
        "Transition matrix, argmax (temperature-0) re-analysis — m [seed=1]",
        "Pass rate against the success-rate threshold (Fig. S6A)",
    ]
    for stem in ("heatmap m seed 1", "heatmap m seed 1 argmax", "pass rate curve"):
        assert f">{stem}<" not in page  # the old headings were the file names
    # every figure has its caption (the pass-rate note once matched no file)
    assert page.count("How to read this.") == 3


def test_each_panel_and_heading_once_and_no_image_left_in_the_report(tmp_path):
    from inspect_stance.drift.page import PAGE as study

    out = _drift_like_folder(tmp_path)
    page = write_study_page(tmp_path / "p.html", study.title, out, [], study.notes).read_text()
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), ids
    assert page.count("<h1>") == 1  # the report's own "# title" is not a second page title
    assert len(re.findall(r"<h2[^>]*>Runs", page)) == 1  # the page's run table and the report's
    report = page.split('id="report"', 1)[1]
    assert "<img" not in report  # bracketed image text once left broken images in the tables
    assert len(re.findall(r"<img ", page)) == 3


def test_a_wide_one_row_table_is_shown_as_column_value_rows(tmp_path):
    out = _drift_like_folder(tmp_path)
    page = write_study_page(tmp_path / "p.html", "T", out, [], {}).read_text()
    assert '<table class="transposed">' in page
    assert page.count("<td>0.5</td>") == 12
    assert "share_<wbr>" not in page and "col_<wbr>0" in page  # headers break after "_"


def test_the_heatmap_boxes_the_diagonal_its_caption_calls_boxed():
    """The page's caption says the diagonal is "(boxed)": the drawn panel must have the boxes."""
    import numpy as np
    from matplotlib.patches import Rectangle

    from inspect_stance.drift.page import HEATMAP
    from inspect_stance.drift.report import heatmap

    assert "(boxed)" in HEATMAP
    fig, ax = plt.subplots()
    heatmap._panel(ax, np.full((5, 5), 0.2), None, "t")
    boxes = {
        (round(p.get_x(), 6), round(p.get_y(), 6), p.get_width(), p.get_height())
        for p in ax.patches
        if isinstance(p, Rectangle) and not p.get_fill()
    }
    plt.close(fig)
    assert boxes == {(i - 0.5, i - 0.5, 1.0, 1.0) for i in range(5)}


def test_captions_say_what_the_figures_draw():
    """Claims a reader acts on, checked against the code that draws or computes them."""
    import numpy as np

    from inspect_stance.construction.page import NOTES as construction
    from inspect_stance.drift.metrics.pass_rate import pass_rate
    from inspect_stance.drift.page import NOTES as notes
    from inspect_stance.html.studies import COMPARE

    curve = next(n for p, n in notes.items() if "pass_rate" in p).how_to_read
    assert "exceeds" in curve and "reaches" not in curve
    assert float(pass_rate(np.array([1.0]), 1.0)) == 0.0  # strictly exceeds: 1.0 does not pass
    hops = next(n for p, n in notes.items() if "spr_vs_hops" in p).how_to_read
    assert "measured" in hops and "projection" in hops and "not data" in hops
    lean = construction[r"^lean_by_setting\.png$"].how_to_read
    assert "bar" not in lean  # the lean plot draws dots, not bars
    forest = COMPARE.notes[r"^forest\.png$"].how_to_read
    assert "not adjusted" in forest  # per-comparison intervals beside adjusted shading


def test_settings_every_run_shares_are_listed_once_and_rows_show_what_differs():
    from inspect_stance.html import RunRow, render_page

    def row(name: str, trials: str) -> RunRow:
        settings = {"trials": trials, "seed": "0", "shard": "None", "words_limit": "100"}
        return RunRow(name, "stance_drift", "m", "f.eval", "file:///f.eval", "", settings=settings)

    page = render_page("T", "", [row("a", "10"), row("b", "20")], [], "")
    assert (
        page.count("<code>seed=0</code>") == 1 and page.count("<code>words_limit=100</code>") == 1
    )
    assert "Not set: shard." in page and "shard=None" not in page
    assert "<th>settings that differ</th>" in page
    assert "<code>trials=10</code>" in page and "<code>trials=20</code>" in page
    one = render_page("T", "", [row("a", "10")], [], "")
    assert "settings that differ" not in one and "Settings of the run:" in one
