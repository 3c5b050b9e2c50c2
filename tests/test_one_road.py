"""One number, one road: every surface shows the headline the run's scorer wrote.

Each method's offline simulator runs through the real ``inspect eval`` command (two targets per
task: the model itself and a study target named in the eval metadata), and the headline's
value, interval and counts must agree to 1e-9 across the log's headline metric
(:func:`inspect_stance.stats.headline.metric_values`, the first metric of the first scorer),
Inspect's ``evals_df`` (``score_headline_value`` / ``score_headline_stderr``), ``runs_df``,
``report --json``, the card's JSON and ``leaderboard.json``, and to its printed precision in the
end-of-run line; every interval lies inside its metric's declared range.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOL = 1e-9

#: task -> the ``inspect eval`` arguments of a small offline run (the README's offline block)
RUNS: dict[str, list[str]] = {
    "stance_drift": ["tasks/stance_drift.py", "--model", "stance_sim/respondent",
                     "-T", "limit_propositions=3", "-T", "trials=5", "-T", "cache=false"],
    "press": ["tasks/press.py", "--model", "press_sim/target", "-T", "nli_model={nli}"],
    "prompt_construction": [
        "tasks/prompt_construction.py", "--model", "construction_sim/target", "--model-role",
        "judges=construction_sim/judge_exact,construction_sim/judge_noisy,"
        "construction_sim/judge_framed", "--model-role", "prompter=construction_sim/prompter",
        "-T", "templates_per_setting=2", "-T", "prompts_per_setting=2"],
    "prompt_validation": [
        "tasks/prompt_validation.py", "--model-role", "prompter=construction_sim/prompter",
        "--model-role", "annotators=annotator_sim/lexical,annotator_sim/contrarian,"
        "annotator_sim/filler_reader", "-T", "topics=1003", "-T", "intents=opinion"],
    "even_handedness": [
        "inspect_stance/even_handedness", "--model", "even_sim/target", "-M", "refuse_rate=0.2",
        "-M", "weaken_rate=0.25", "--model-role",
        "graders={model: even_sim/grader, model_args: {position_bias: 0.3}}", "-T", "limit=30"],
    "pushback": ["tasks/pushback.py", "--model", "pushback_sim/target", "-M", "hazard=0.3",
                 "-T", "limit_propositions=3"],
}  # fmt: skip
#: the study target of the second run of each task (the first run's target is its model)
TARGET_B = "target-b"

pytestmark = pytest.mark.slow


def _bin(name: str) -> str:
    return str(Path(sys.executable).with_name(name))


def _close(a: float | None, b: float | None, tol: float = TOL) -> bool:
    a = math.nan if a is None else float(a)
    b = math.nan if b is None else float(b)
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= tol


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Any]:
    """Per task, two logs (the model's, then ``target-b``'s) and the end-of-run line each
    printed; the card folder; every log."""
    from inspect_ai.log import list_eval_logs

    from inspect_stance.providers.tiny_nli import build_tiny_nli

    root = tmp_path_factory.mktemp("one_road")
    nli = root / "nli"
    build_tiny_nli(nli, "keyed")
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    out: dict[str, Any] = {"tasks": {}, "root": root}
    for task, args in RUNS.items():
        logs, lines = [], []
        for k, extra in enumerate(([], ["--metadata", f"stance_target={TARGET_B}"])):
            log_dir = root / f"{task}-{k}"
            argv = [_bin("inspect"), "eval", *(a.replace("{nli}", str(nli)) for a in args),
                    *extra, "--log-dir", str(log_dir), "--display", "plain"]  # fmt: skip
            done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=600, check=False)  # fmt: skip
            assert done.returncode == 0, done.stdout[-3000:]
            (info,) = list_eval_logs(str(log_dir))
            logs.append(info.name.removeprefix("file://"))
            printed = [x.strip() for x in done.stdout.splitlines() if x.strip()]
            lines.append(printed[-1] if printed else "")
        out["tasks"][task] = {"logs": logs, "lines": lines}
    all_logs = [p for t in out["tasks"].values() for p in t["logs"]]
    cards = root / "cards"
    done = subprocess.run([_bin("inspect-stance"), "card", *all_logs, "--out", str(cards)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    out["card_error"] = None if done.returncode == 0 else done.stderr[-2000:]
    out["cards"] = cards
    out["logs"] = all_logs
    return out


def _log_headline(path: str) -> tuple[Any, Any, dict[str, float]]:
    """The declared headline spec, the headline read from the log, and the first scorer's
    metrics in order."""
    from inspect_ai.log import read_eval_log

    from inspect_stance.study.registry import headline_of_metrics, task_headline

    log = read_eval_log(path, header_only=True)
    first = {k: m.value for k, m in log.results.scores[0].metrics.items()}
    spec = task_headline(log.eval.task)
    return spec, headline_of_metrics(log.eval.task, first), first


@pytest.mark.parametrize("task", list(RUNS))
def test_the_log_holds_the_headline_first_and_inside_its_range(runs, task):
    for path in runs["tasks"][task]["logs"]:
        spec, h, first = _log_headline(path)
        assert spec is not None, f"{task}: no TaskHeadline declared"
        keys = list(first)
        assert keys[0] == spec.metric, f"{task}: first metric {keys[0]}, headline {spec.metric}"
        for key in ("stderr", "ci_low", "ci_high", "n_items", "n_clusters"):
            assert key in first, f"{task}: the scorer does not write {key} (metric_values)"
        lo, hi = h.interval
        assert math.isfinite(lo) and math.isfinite(hi), f"{task}: no interval"
        assert spec.range[0] <= lo <= h.value <= hi <= spec.range[1], (task, h)
        assert h.n_items >= h.n_clusters >= 2, (task, h)


_NUMBER = r"(-?[\d.]+|nan)"


@pytest.mark.parametrize("task", list(RUNS))
def test_the_console_line_agrees_to_its_precision(runs, task):
    """The line is the last thing the run printed, names the declared metric, and its value,
    interval (3 decimals) and counts equal the log's."""
    for path, line in zip(runs["tasks"][task]["logs"], runs["tasks"][task]["lines"], strict=True):
        spec, h, _first = _log_headline(path)
        pattern = (rf"^{task}: {re.escape(spec.metric)} {_NUMBER} \[{_NUMBER}, {_NUMBER}\] "
                   r"\(95 % interval over ([\d,]+) [^,;]+?(?:, ([\d,]+) [^;]+)?; "
                   rf"{spec.better} is better\)")  # fmt: skip
        m = re.match(pattern, line)
        assert m, f"{task}: the last line printed is not the headline line: {line!r}"
        value, lo, hi = (float(m.group(k)) for k in (1, 2, 3))
        assert abs(value - h.value) <= 5e-4 + TOL
        assert abs(lo - h.interval[0]) <= 5e-4 + TOL and abs(hi - h.interval[1]) <= 5e-4 + TOL
        assert int(m.group(4).replace(",", "")) == h.n_clusters
        n_items = int(m.group(5).replace(",", "")) if m.group(5) else h.n_clusters
        assert n_items == h.n_items


def _same(where: str, h: Any, value: Any, lo: Any, hi: Any, n_items: Any = None,
          n_clusters: Any = None, se: Any = "skip") -> None:  # fmt: skip
    assert _close(value, h.value), f"{where}: value {value} != {h.value}"
    assert _close(lo, h.interval[0]) and _close(hi, h.interval[1]), (
        f"{where}: interval [{lo}, {hi}] != {list(h.interval)}"
    )
    if se != "skip":
        assert _close(se, h.se), f"{where}: stderr {se} != {h.se}"
    if n_items is not None:
        assert int(n_items) == h.n_items, f"{where}: n_items {n_items} != {h.n_items}"
    if n_clusters is not None:
        assert int(n_clusters) == h.n_clusters, f"{where}: n_clusters {n_clusters}"


@pytest.mark.parametrize("task", list(RUNS))
def test_evals_df_and_runs_df_agree(runs, task):
    from inspect_ai.analysis import evals_df

    from inspect_stance.analysis import runs_df

    logs = runs["tasks"][task]["logs"]
    inspect_rows = evals_df(logs, quiet=True).set_index("log")
    ours = runs_df(logs).set_index("eval_id")
    for path in logs:
        from inspect_ai.log import read_eval_log

        eval_id = read_eval_log(path, header_only=True).eval.eval_id
        _spec, h, _first = _log_headline(path)
        row = inspect_rows.loc[[i for i in inspect_rows.index if i.endswith(Path(path).name)][0]]
        assert row["score_headline_name"] == h.metric or row["score_headline_metric"] == h.metric
        assert _close(row["score_headline_value"], h.value), "evals_df value"
        assert _close(row["score_headline_stderr"], h.se), "evals_df stderr"
        r = ours.loc[eval_id]
        assert r["headline_metric"] == h.metric
        _same("runs_df", h, r["headline_value"], r["ci_lo"], r["ci_hi"], r["n_items"],
              r["n_clusters"], r["headline_stderr"])  # fmt: skip


@pytest.mark.parametrize("task", list(RUNS))
def test_report_json_agrees(runs, task):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    for path in runs["tasks"][task]["logs"]:
        _spec, h, _first = _log_headline(path)
        done = subprocess.run([_bin("inspect-stance"), "report", path, "--json"], cwd=ROOT,
                              env=env, capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        got = data["headline"] if "headline" in data else data["methods"][_method(task)]["headline"]
        assert got == h.to_json() | {"rule": got["rule"], "df": got["df"]}, task
        _same("report --json", h, got["value"], *got["interval"], got["n_items"],
              got["n_clusters"], got["se"])  # fmt: skip


def _method(task: str) -> str:
    from inspect_stance.study.registry import method_of_task

    method = method_of_task(task)
    assert method is not None
    return method.name


def _card_entries(runs: dict[str, Any], task: str) -> dict[str, dict[str, Any]]:
    """``log path -> card entry`` of ``task`` over every card written."""
    assert runs["card_error"] is None, runs["card_error"]
    out = {}
    for card_file in runs["cards"].glob("*.json"):
        card = json.loads(card_file.read_text())
        if card_file.name == "leaderboard.json" or "methods" not in card:
            continue
        entry = card["methods"].get(task)
        if entry is not None:
            out[entry["log"]] = {**entry, "target": card["target"]}
    return out


@pytest.mark.parametrize("task", list(RUNS))
def test_card_and_leaderboard_agree(runs, task):
    entries = _card_entries(runs, task)
    board = json.loads((runs["cards"] / "leaderboard.json").read_text())
    assert task in board, f"leaderboard.json has no {task}"
    rows = board[task]["targets"]
    for path in runs["tasks"][task]["logs"]:
        spec, h, _first = _log_headline(path)
        e = entries[path]
        _same("card", h, e["value"], *e["ci"], e["n_items"], e["n_clusters"], e["stderr"])
        lo, hi = e["ci"]
        assert spec.range[0] <= lo <= hi <= spec.range[1]
        if spec.format == "percent":  # whole percents inside [0, 100] in the reading
            shown = [int(x) for x in re.findall(r"(-?\d+) ?%|\[(-?\d+),", e["reading"])[0] if x]
            assert all(0 <= x <= 100 for x in shown), e["reading"]
        mine = [r for r in rows if _close(r["value"], h.value) and r.get("ci") is not None
                and _close(r["ci"][0], h.interval[0]) and _close(r["ci"][1], h.interval[1])]  # fmt: skip
        assert mine, f"leaderboard.json: no row with {task}'s value and interval {h}"


def test_every_registered_method_with_a_simulator_is_checked():
    """A method registered later with a headline is listed here, or this test says so."""
    from inspect_stance.study.registry import methods

    declared = {t for m in methods() for t in m.headlines if t in m.tasks}
    missing = declared - set(RUNS) - {"judge_validation", "pushback"}
    assert not missing, f"add an offline run of {sorted(missing)} to RUNS"
