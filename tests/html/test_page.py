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
    from inspect_stance.cli.html import STUDIES
    from inspect_stance.construction.plots import LEAN_AXIS_LABEL

    caption = STUDIES["construction-report"].notes["lean"]
    left = caption.split("left of 0", 1)[1].split(",", 1)[0]
    assert "pole A" in left and "pro" in left and "con" not in left
    assert "< 0: pole A / pro" in LEAN_AXIS_LABEL
    docs = (Path(__file__).parents[2] / "docs" / "prompt_construction.md").read_text()
    assert "negative: toward pole A / `topic_pro`" in docs
