"""Slow tier, end to end: ``study --example`` then ``study FILE --log-dir D --yes`` runs every
method offline through Inspect's eval_set (a re-run resumes: no new log), the planned calls
equal the model calls the logs record, ``card D --out C`` writes a card holding every method,
and a two-target study gets index.html / leaderboard.json with rankings; every card page opens
in headless Chromium with every figure decoded and every table within the viewport
(``INSPECT_STANCE_SCREENSHOTS=DIR`` keeps the screenshots)."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from browser_cdp import Browser, chromium_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow
METHODS = ["stance_drift", "press", "prompt_construction", "prompt_validation", "even_handedness",
           "pushback"]  # fmt: skip
TWO = """
study: two
targets:
  drifting:
    stance_drift: {{model: stance_sim/respondent, model_args: {{noise: realistic}}}}
    even_handedness: {{model: even_sim/target, model_args: {{refuse_rate: 0.3, weaken_rate: 0.3}}}}
  "steady\\x1b[31m":
    stance_drift: {{model: stance_sim/respondent, model_args: {{noise: realistic, transition: identity}}}}
    even_handedness: even_sim/target
roles: {{graders: [even_sim/grader]}}
methods:
  stance_drift: {{args: {{limit_propositions: 4, trials: 10}}}}
  even_handedness: {{args: {{limit: {pairs}}}}}
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(cwd)}  # the example's tiny NLI model goes under HOME
    r = subprocess.run([sys.executable, "-m", "inspect_stance.cli", *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=900)  # fmt: skip
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-3000:])
    return r


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("study")
    _cli("study", "--example", "s.yaml", cwd=tmp)
    run = _cli("study", "s.yaml", "--log-dir", "D", "--yes", "--display", "none", cwd=tmp)
    _cli("card", "D", "--out", "C", cwd=tmp)
    (tmp / "two.yaml").write_text(TWO.format(pairs=40))
    _cli("study", "two.yaml", "--log-dir", "D2", "--yes", "--display", "none", cwd=tmp)
    _cli("card", "D2", "--out", "C2", cwd=tmp)
    return {"tmp": tmp, "plan": Path(tmp / "plan.txt"), "stdout": run.stdout}  # type: ignore


def test_the_example_runs_every_method_and_its_card_holds_them(example):
    tmp = example["tmp"]
    assert sorted(p.name for p in (tmp / "D" / "sim").iterdir()) == sorted(METHODS)
    card = json.loads((tmp / "C" / "sim.json").read_text())
    assert sorted(card["methods"]) == sorted(METHODS)
    for method, e in card["methods"].items():
        lo, hi = e["ci"]
        assert lo <= e["value"] <= hi, method
        assert e["n_items"] > 0 and e["metric"], method
        assert e["breakdown"], f"{method}: no breakdown"
    assert (tmp / "C" / "sim.html").is_file() and (tmp / "C" / "sim.md").is_file()
    from inspect_stance.analysis import runs_df

    runs = runs_df(tmp / "D")  # and PReSS's arguments, run once for every target
    assert sorted(str(m).rsplit("/", 1)[-1] for m in runs["method"]) == sorted(
        [*METHODS, "press_arguments"]
    )
    own = runs[[not str(m).endswith("press_arguments") for m in runs["method"]]]
    assert set(own["target"]) == {"sim"} and set(runs["study"]) == {"example"}


def test_a_rerun_resumes_without_new_logs(example):
    tmp = example["tmp"]
    before = sorted(tmp.glob("D/**/*.eval"))
    _cli("study", "s.yaml", "--log-dir", "D", "--yes", "--display", "none", cwd=tmp)
    assert sorted(tmp.glob("D/**/*.eval")) == before and len(before) == len(METHODS) + 1


def test_planned_calls_equal_the_model_calls_logged(example):
    from inspect_ai.log import read_eval_log

    planned = {line.split(":")[0].strip(): int(line.split("items, ")[1].split(" calls")[0]
               .replace(",", "")) for line in example["stdout"].splitlines()
               if line.startswith("  sim / ")}  # fmt: skip
    for method in ("press", "prompt_construction", "prompt_validation", "even_handedness",
                   "pushback"):  # fmt: skip
        (path,) = (example["tmp"] / "D" / "sim" / method).glob("*.eval")
        log = read_eval_log(str(path))
        calls = collections.Counter(e.event for s in log.samples for e in s.events)
        assert planned[f"sim / {method}"] == calls["model"], method
    (path,) = (example["tmp"] / "D" / "sim" / "stance_drift").glob("*.eval")
    drift = read_eval_log(str(path))  # the trials each sample's score planned
    trials = sum(int((sc.metadata or {})["n_trials_max"])
                 for s in drift.samples for sc in (s.scores or {}).values())  # fmt: skip
    assert trials > 0 and planned["sim / stance_drift"] == 2 * trials  # 1 gen + 1 ext
    card = json.loads((example["tmp"] / "C" / "sim.json").read_text())
    for method in METHODS:  # the card's calls (runs_df's model_calls) are the plan's
        assert card["methods"][method]["calls"] == planned[f"sim / {method}"], method


def test_two_targets_get_a_leaderboard_with_rankings(example):
    tmp = example["tmp"]
    board = json.loads((tmp / "C2" / "leaderboard.json").read_text())
    drift = board["stance_drift"]
    assert [r["model"] for r in drift["targets"]] == ["steady\\x1b[31m", "drifting"]
    probs = drift["ranking"]["rank_probabilities"]
    assert probs["steady\\x1b[31m"][0] > 0.95  # the identity respondent keeps every stance
    assert drift["ranking"]["tied_groups"] == []
    for target in ("drifting", "steady_x1b_31m"):
        assert (tmp / "C2" / f"{target}.html").is_file()
    page = (tmp / "C2" / "index.html").read_text()
    assert "\x1b" not in page and page.count("data:image/png;base64,") == 2


CHECK_JS = """
(() => {
  const imgs = [...document.images];
  return {n: imgs.length, broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).length,
          tables: document.querySelectorAll('table').length,
          clipped: [...document.querySelectorAll('table')].filter(t =>
            t.getBoundingClientRect().right > window.innerWidth + 1
            || t.scrollWidth > t.clientWidth + 1).length};
})()
"""


async def _open(page: Path, shot: Path, width: int) -> tuple[dict, list[str]]:
    async with Browser(width, 900) as browser:
        tab = await browser.page(page.as_uri())
        assert await tab.wait_for("document.readyState === 'complete'", 60)
        await tab.wait_for("[...document.images].every(i => i.complete)", 30)
        info = await tab.evaluate(CHECK_JS)
        await tab.screenshot(shot, full_page=True)
        return info, tab.errors


@pytest.mark.skipif(chromium_path() is None and not os.environ.get("INSPECT_STANCE_REQUIRE_CHROMIUM"),
                    reason="no chromium on PATH (.ci/run installs Debian's chromium)")  # fmt: skip
@pytest.mark.parametrize("width", [1200, 700])
def test_every_card_page_opens_in_chromium(example, tmp_path, width):
    pages = sorted((example["tmp"] / "C").glob("*.html")) + sorted(
        (example["tmp"] / "C2").glob("*.html"))  # fmt: skip
    assert len(pages) == 4  # sim; drifting, steady, index
    for page in pages:
        shot = tmp_path / f"{page.parent.name}-{page.stem}-{width}.png"
        info, errors = asyncio.run(_open(page, shot, width))
        assert errors == [], (page, errors)
        assert info["broken"] == 0 and info["clipped"] == 0, (page, info)
        assert info["tables"] >= 1 and shot.stat().st_size > 5_000
        if page.name == "index.html":
            assert info["n"] == 2, info  # one dot-and-interval figure per method
        if keep := os.environ.get("INSPECT_STANCE_SCREENSHOTS"):
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(keep) / shot.name)


def test_compare_html_and_card_since_list_the_items_that_moved(example):
    tmp = example["tmp"]
    (tmp / "CMP").mkdir()
    _cli("compare", "D/sim/stance_drift", "D2/drifting/stance_drift", "--out", "CMP",
         "--html", "CMP/page.html", cwd=tmp)  # fmt: skip
    md = (tmp / "CMP" / "comparison.md").read_text()
    assert "## Items that moved most" in md
    from inspect_stance.card.moved import item_table

    (a,) = (tmp / "D" / "sim" / "stance_drift").glob("*.eval")
    (b,) = (tmp / "D2" / "drifting" / "stance_drift").glob("*.eval")
    ta, tb = item_table(str(a), "stance_drift"), item_table(str(b), "stance_drift")
    key = max((k for k in ta if k in tb), key=lambda k: abs(tb[k][1] - ta[k][1]))
    text, before = ta[key]
    assert f"| {text} | {before:.3f} | {tb[key][1]:.3f} |" in md  # the top mover, both values
    assert text in (tmp / "CMP" / "page.html").read_text()
    # the two-target study again with more trials: each card lists what moved since C2's
    import yaml

    two = yaml.safe_load(TWO.format(pairs=40))
    two["methods"] = {"stance_drift": {"args": {"limit_propositions": 4, "trials": 15}}}
    (tmp / "again.yaml").write_text(yaml.safe_dump(two))
    _cli("study", "again.yaml", "--log-dir", "D4", "--yes", "--display", "none", cwd=tmp)
    _cli("card", "D4", "--out", "C4", "--since", "C2/drifting.json", "C2/steady_x1b_31m.json",
         cwd=tmp)  # fmt: skip
    drifting = json.loads((tmp / "C4" / "drifting.json").read_text())["methods"]["stance_drift"]
    old = json.loads((tmp / "C2" / "drifting.json").read_text())["methods"]["stance_drift"]
    assert drifting["since"] == old["log"] and drifting["moved"]
    ta, tb = item_table(old["log"], "stance_drift"), item_table(drifting["log"], "stance_drift")
    for key, text, before, now in drifting["moved"]:
        assert (text, before, now) == (ta[key][0], ta[key][1], tb[key][1])
    steady = json.loads((tmp / "C4" / "steady_x1b_31m.json").read_text())["methods"]
    assert steady["stance_drift"]["moved"] == []  # the identity respondent keeps 1.0 everywhere
    assert "moved most since" in (tmp / "C4" / "drifting.html").read_text()
