"""Slow tier: every report command's ``--html`` page, from real runs on the simulated models,
opened in headless Chromium (DevTools protocol): every figure decoded (``naturalWidth > 0``), no
script error or failed resource, and a screenshot saved (``INSPECT_STANCE_SCREENSHOTS=DIR`` keeps
them; otherwise they stay in pytest's tmp folder)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from browser_cdp import Browser, chromium_path  # noqa: E402

from inspect_stance.study import methods  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

if chromium_path() is None:
    if os.environ.get("INSPECT_STANCE_REQUIRE_CHROMIUM"):
        raise RuntimeError("INSPECT_STANCE_REQUIRE_CHROMIUM is set but no chromium is on PATH")
    pytestmark = [
        pytest.mark.slow,
        pytest.mark.skip(reason="no chromium on PATH (.ci/run installs Debian's chromium)"),
    ]

JUDGES = "construction_sim/judge_exact,construction_sim/judge_noisy,construction_sim/judge_framed"
RUNS = [
    ["tasks/stance_drift.py", "--model", "stance_sim/respondent"]
    + ["-T", "limit_propositions=3", "-T", "trials=10"],
    ["tasks/press.py", "--model", "press_sim/target", "-T", "nli_model={nli}"],
    ["tasks/prompt_construction.py", "--model", "construction_sim/target"]
    + ["--model-role", f"judges={JUDGES}", "--model-role", "prompter=construction_sim/prompter"]
    + ["-T", "templates_per_setting=1", "-T", "prompts_per_setting=1"],
    ["tasks/prompt_validation.py", "--model-role", "prompter=construction_sim/prompter"]
    + ["--model-role", "annotators=annotator_sim/lexical,annotator_sim/contrarian"]
    + ["-T", "topics=1003", "-T", "intents=opinion"],
    ["tasks/even_handedness.py", "--model", "even_sim/target", "--model-role"]
    + ["graders=even_sim/grader", "-T", "template_categories=humor", "-T", "limit=8"],
    ["tasks/pushback.py", "--model", "pushback_sim/target", "-T", "limit_propositions=3"]
    + ["-T", "styles=plain", "-T", "turns=2"],
]
#: page -> the command writing it and its input (under the logs folder): ``report`` over the
#: stance-drift run alone (its own page), each method's report over the whole folder (other
#: tasks' logs skipped), and ``report`` over the whole folder (one page, a section per method)
PAGES = {
    "report": ["report", "stance_drift"],
    "press-report": ["press-report", "."],
    "construction-report": ["construction-report", "."],
    "validation-report": ["validation-report", "."],
    "even-handedness-report": ["even-handedness-report", "."],
    "pushback-report": ["pushback-report", "."],
    "report-all-methods": ["report", "."],
}
REPORTS = list(PAGES)

CHECK_JS = """
(() => {
  const imgs = [...document.images];
  return {n: imgs.length, broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length,
          tables: document.querySelectorAll('table').length,
          // tables that run past the viewport, or that sit in (or are) a box that scrolls
          // sideways: a reader sees part of them either way
          clipped: [...document.querySelectorAll('table')].filter(t => {
            if (t.getBoundingClientRect().right > window.innerWidth + 1) return true;
            for (let box = t; box; box = box.parentElement) {
              if (box.scrollWidth > box.clientWidth + 1) return true;
            }
            return false;
          }).map(t => (t.querySelector('th') || {}).textContent),
          title: document.title,
          sections: [...document.querySelectorAll('section.study')].map(s => s.id),
          section_figures: [...document.querySelectorAll('section.study')].map(
            s => [...s.querySelectorAll('img')].filter(i => i.naturalWidth > 0).length),
          runs: (document.querySelector('table.runs') || {}).textContent || ''};
})()
"""


def _run(args: list[str], cwd: Path) -> None:
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, (args, r.stderr[-3000:])


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("html")
    nli = tmp / "tiny-nli"
    _run(
        [sys.executable, "-m", "inspect_stance.providers.tiny_nli", str(nli)] + ["--mode", "keyed"],
        ROOT,
    )
    logs = tmp / "logs"
    for args in RUNS:
        args = [a.replace("{nli}", str(nli)) for a in args]
        folder = logs / Path(args[0]).stem  # tasks/press.py -> logs/press/
        _run(
            [sys.executable, "-m", "inspect_ai._cli.main", "eval", *args, "--log-dir", str(folder)]
            + ["--display", "none"],
            ROOT,
        )
    out: dict[str, Path] = {}
    for name, (command, inputs) in PAGES.items():
        page = tmp / f"{name}.html"
        _run(
            [sys.executable, "-m", "inspect_stance.cli", command, str(logs / inputs)]
            + ["--out", str(tmp / name), "--html", str(page)],
            ROOT,
        )
        out[name] = page
    return out


async def _open(page: Path, shot: Path) -> tuple[dict, list[str]]:
    async with Browser(1200, 900) as browser:
        tab = await browser.page(page.as_uri())
        assert await tab.wait_for("document.readyState === 'complete'", 60)
        await tab.wait_for("[...document.images].every(i => i.complete)", 30)
        info = await tab.evaluate(CHECK_JS)
        await tab.screenshot(shot, full_page=True)
        return info, tab.errors


@pytest.mark.parametrize("command", REPORTS)
def test_page_opens_with_every_figure_and_no_error(pages, command, tmp_path):
    shot = tmp_path / f"{command}.png"
    info, errors = asyncio.run(_open(pages[command], shot))
    assert errors == []
    assert info["broken"] == 0, info
    assert info["n"] >= 1, f"{command}: the page has no figure"
    assert info["tables"] >= 2, info  # the run table and at least one report table
    assert shot.stat().st_size > 10_000
    assert "none/none" not in info["runs"]  # a task without a target model names its task
    assert len(info["runs"]) > 0
    if command == "report-all-methods":  # a section per method, each with its figures
        assert info["sections"] == [m.name for m in methods()], info["sections"]
        assert all(n >= 1 for n in info["section_figures"]), info
    keep = os.environ.get("INSPECT_STANCE_SCREENSHOTS")
    _keep_shot(shot, keep)


@pytest.mark.parametrize("command", REPORTS)
def test_every_table_fits_the_viewport(pages, command, tmp_path):
    """At 1,200 px every table is whole on the page: none past the right edge, none behind a
    sideways scroll (the list names each offender by its first header cell)."""
    info, _ = asyncio.run(_open(pages[command], tmp_path / f"{command}.png"))
    assert info["clipped"] == [], f"{command}: tables run past the viewport: {info['clipped']}"


def _keep_shot(shot: Path, keep: str | None) -> None:
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
