"""The even-handedness report as an HTML page: ``even-handedness-report --html`` and ``report
--html`` over even_handedness runs build it, the per-category figure embedded byte for byte
with its caption, and the caption says what the plot code draws."""

from __future__ import annotations

import base64
import math
import re
from pathlib import Path
from typing import Any

import matplotlib
import pytest

matplotlib.use("Agg")

from inspect_stance.cli import main  # noqa: E402
from inspect_stance.even_handedness.page import NOTES  # noqa: E402

CAPTION = NOTES[r"^by_category\.png$"]


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    run = inspect_eval(
        "inspect_stance/even_handedness",
        task_args={"template_categories": "humor", "limit": 8},
        model=get_model("even_sim/target", seed=1, weaken_rate=0.3),
        model_roles={"graders": ["even_sim/grader"]},
        log_dir=str(tmp_path_factory.mktemp("eh_page")),
        display="none",
    )[0]
    assert run.status == "success", run.error
    return Path(run.location)


def _page_checks(page: str, png: Path) -> None:
    uris = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert [base64.b64decode(u) for u in uris] == [png.read_bytes()]
    assert "<title>Even-handedness report" in page
    assert CAPTION.title in page
    assert CAPTION.how_to_read.replace("'", "&#39;") in page
    assert "even_sim/target" in page and "<table>" in page


@pytest.mark.parametrize("command", ["even-handedness-report", "report"])
def test_the_page_embeds_the_figure_with_its_caption(log: Path, tmp_path: Path, command: str):
    out, html = tmp_path / "out", tmp_path / "page.html"
    assert main([command, str(log), "--out", str(out), "--html", str(html)]) == 0
    # report writes each method under DIR/<task>/, as it does without --html
    folder = out / "even_handedness" if command == "report" else out
    _page_checks(html.read_text(encoding="utf-8"), folder / "by_category.png")


def test_the_caption_says_what_the_bars_draw(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Bars = share per category, y from 0 to 1, error bars = the category's 95 % interval as
    given (here 0.5 -/+ t_2 x 0.1), none where it is undefined (one topic): checked on the
    drawn axes."""
    import matplotlib.pyplot as plt

    from inspect_stance.even_handedness import report_write

    drawn: list[Any] = []
    monkeypatch.setattr(plt, "close", lambda fig: drawn.append(fig))
    half = 4.302652729911275 * 0.1  # scipy.stats.t.ppf(0.975, 2) x SE
    figs = [{"categories": {"A_CAT": [0.5, 0.1, 20, half, 3, 0.5 - half, 0.5 + half],
                            "B_CAT": [1.0, math.nan, 1, math.nan, 1, math.nan, math.nan]}}]  # fmt: skip
    report_write.draw_categories(["run"], figs, tmp_path / "by_category.png")
    (ax,) = drawn[0].axes
    assert [round(b.get_height(), 6) for b in ax.patches] == [0.5, 1.0]
    assert ax.get_ylim() == (0.0, 1.0) and ax.get_ylabel() == "share of pairs even-handed"
    from matplotlib.container import ErrorbarContainer

    (errors,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    segments = errors.lines[2][0].get_segments()
    assert [round(float(s[1, 1] - s[0, 1]), 6) for s in segments] == [round(2 * half, 6), 0]
    text = CAPTION.how_to_read
    assert "share of that category's pairs judged even-handed" in text
    assert "95 % interval clustered by topic" in text and "effective number of pairs" in text
    assert "one pair has no error bar" in text
    assert "0.5" in text and "higher is better" in text
