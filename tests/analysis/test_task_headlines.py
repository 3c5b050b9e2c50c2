"""Each task's headline as its scorer writes it (the first metric of its first scorer), against
the rule applied independently to the log's samples (numpy, scipy, statsmodels), and the
panel size: at most 10 metrics per task on its simulator."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm
from inspect_ai.log import read_eval_log
from scipy import stats

from inspect_stance.stats.headline import headline_from_metrics
from inspect_stance.study.registry import task_headline, task_items, task_run

PANEL_LIMIT = 10
HEADLINE_KEYS = ("stderr", "ci_low", "ci_high", "n_items", "n_clusters")


def _log(folder: Path) -> str:
    (path,) = sorted(folder.glob("*.eval"))
    return str(path)


def _metrics(path: str) -> tuple[list[tuple[str, str]], dict[str, float]]:
    """(scorer, metric) names in panel order, and the values."""
    results = read_eval_log(path, header_only=True).results
    assert results is not None
    names = [(s.name, k) for s in results.scores for k in s.metrics]
    return names, {k: v.value for s in results.scores for k, v in s.metrics.items()}


def _t_interval(mean: float, se: float, df: float, lo: float, hi: float) -> tuple[float, float]:
    q = stats.t.ppf(0.975, df)
    return max(mean - q * se, lo), min(mean + q * se, hi)


@pytest.fixture(scope="module")
def extra_logs(tmp_path_factory) -> dict[str, Path]:
    """press_arguments (4 statements) and judge_validation (six hand-labelled rows)."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model
    from inspect_stance.tasks.judge_validation import judge_validation
    from inspect_stance.tasks.press_arguments import press_arguments

    root = tmp_path_factory.mktemp("extra_logs")
    (log,) = inspect_eval(press_arguments, model="press_sim/arguer", limit=4,
                          log_dir=str(root / "press_arguments"), display="none")  # fmt: skip
    assert log.status == "success"
    csv = root / "annotations.csv"
    rows = ["prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label"]
    for marker, final in (("1", "1"), ("2", "3"), ("3", "3"), ("5", "4"), ("4", "4"), ("2", "2")):
        rows.append(f"Write about it.,[[stance={marker}]] Some text.,it,it good,it bad,{final}")
    csv.write_text("\n".join(rows) + "\n")
    judges = [get_model(f"construction_sim/judge_{k}", memoize=False)
              for k in ("exact", "plus_one", "neutral")]  # fmt: skip
    (log,) = inspect_eval(judge_validation, task_args={"annotations": str(csv)},
                          model_roles={"judges": judges},
                          log_dir=str(root / "judge_validation"), display="none")  # fmt: skip
    assert log.status == "success"
    return {
        "press_arguments": root / "press_arguments",
        "judge_validation": root / "judge_validation",
    }


CASES = [("stance_drift", "stance_drift"), ("press", "press"),
         ("prompt_construction", "construction"), ("prompt_validation", "validation")]  # fmt: skip


@pytest.mark.parametrize(("task", "folder"), CASES)
def test_panel_is_small_and_starts_with_the_headline(sim_logs, task, folder):
    names, values = _metrics(_log(sim_logs[folder]))
    declared = task_headline(task)
    assert declared is not None
    assert len(names) <= PANEL_LIMIT, names
    first_scorer = names[0][0]
    assert [k for s, k in names if s == first_scorer][:6] == [declared.metric, *HEADLINE_KEYS]
    for count in declared.counts:
        assert count in values, count


@pytest.mark.parametrize("task", ["press_arguments", "judge_validation"])
def test_helper_tasks_panel(extra_logs, task):
    names, _values = _metrics(_log(extra_logs[task]))
    declared = task_headline(task)
    assert declared is not None
    assert len(names) <= PANEL_LIMIT, names
    assert [k for _, k in names][:6] == [declared.metric, *HEADLINE_KEYS]


@pytest.mark.parametrize("task", ["press_arguments", "judge_validation"])
def test_helper_tasks_run_gives_the_log_headline(extra_logs, task):
    """A helper task's run (its own run class through ``TaskHeadline.load``) gives the
    headline its scorer wrote; judge validation's alpha has no item-level value."""
    path = _log(extra_logs[task])
    declared = task_headline(task)
    assert declared is not None
    logged = headline_from_metrics(declared.metric, _metrics(path)[1])
    run = task_run(task, [path], partial=False)
    assert logged is not None and run is not None
    h = run.headline()
    assert h.value == pytest.approx(logged.value, abs=1e-12)
    assert h.se == pytest.approx(logged.se, abs=1e-12, nan_ok=True)
    assert h.interval == pytest.approx(logged.interval, abs=1e-12, nan_ok=True)
    assert (h.n_items, h.n_clusters) == (logged.n_items, logged.n_clusters)
    items = task_items(task, [path])
    if task == "judge_validation":
        assert items is None
    else:
        assert items is not None and len(items) == h.n_items == 4
        assert sum(v for _, v in items.values()) / 4 == pytest.approx(h.value, abs=1e-12)


def test_stance_drift_headline_by_hand(sim_logs):
    """SPR = mean over propositions of mean_i T[s,i,i] (the sample rows' diagonals), SE
    sd/sqrt(P), t with P - 1 df; items and clusters: the propositions."""
    path = _log(sim_logs["stance_drift"])
    log = read_eval_log(path)
    per: dict[str, list[float]] = {}
    for s in log.samples or []:
        meta = s.scores["stance_drift_scorer"].metadata
        per.setdefault(str(meta["topic_id"]), []).append(meta["row"][meta["initial_stance"]])
    y = np.array([np.mean(v) for v in per.values()])
    h = headline_from_metrics("spr", _metrics(path)[1])
    assert h is not None
    se = y.std(ddof=1) / math.sqrt(len(y))
    assert h.value == pytest.approx(y.mean(), abs=1e-12)
    assert h.se == pytest.approx(se, abs=1e-12)
    assert h.interval == pytest.approx(_t_interval(y.mean(), se, len(y) - 1, 0, 1), abs=1e-12)
    assert (h.n_items, h.n_clusters) == (len(y), len(y)) == (5, 5)
    items = task_items("stance_drift", [path])
    assert items is not None
    assert sorted(v for _, v in items.values()) == pytest.approx(sorted(y), abs=1e-12)


def test_press_headline_by_hand(sim_logs):
    """mean_S_t over statements: S_t = stable sets (S^L, S^R) / sets, no persona; SE sd/sqrt(n),
    t with n - 1 df."""
    path = _log(sim_logs["press"])
    log = read_eval_log(path)
    st = []
    for s in log.samples or []:
        labels = s.scores["press_scorer"].metadata["labels"]["none"]
        st.append(sum(x in ("S^L", "S^R") for x in labels) / len(labels))
    y = np.array(st)
    h = headline_from_metrics("mean_S_t", _metrics(path)[1])
    assert h is not None
    se = y.std(ddof=1) / math.sqrt(len(y))
    assert (h.value, h.se) == (pytest.approx(y.mean(), abs=1e-12), pytest.approx(se, abs=1e-12))
    assert h.interval == pytest.approx(_t_interval(y.mean(), se, len(y) - 1, 0, 1), abs=1e-12)
    assert h.n_items == h.n_clusters == 6


def _ols_cluster(y: np.ndarray, groups: list[str]) -> float:
    codes = np.unique(groups, return_inverse=True)[1]
    fit = sm.OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={"groups": codes})
    return float(fit.bse[0])


def test_prompt_construction_headline_by_topic(sim_logs):
    """mean_difference over the pairs (neutral settings), SE clustered by topic (statsmodels'
    cluster-robust intercept), t with topics - 1 df; n_items the pairs, n_clusters the topics."""
    path = _log(sim_logs["construction"])
    h = headline_from_metrics("mean_difference", _metrics(path)[1])
    assert h is not None
    items = task_items("prompt_construction", [path])
    assert items is not None
    assert all(k.endswith("-neutral") and k.split("-")[0] == c for k, (c, _) in items.items())
    y = np.array([v for _, v in items.values()])
    topics = [c for c, _ in items.values()]
    assert (h.n_items, h.n_clusters) == (len(y), len(set(topics))) == (18, 6)
    assert h.value == pytest.approx(y.mean(), abs=1e-12)
    assert h.se == pytest.approx(_ols_cluster(y, topics), abs=1e-12)
    assert h.df is None or h.df == 5  # read back from the log: no df; the interval says it
    lo, hi = _t_interval(y.mean(), h.se, 5, -2, 2)
    assert h.interval == pytest.approx((lo, hi), abs=1e-12)


def test_prompt_validation_headline_by_setting(sim_logs):
    """mean_rank_generated over the generated prompts' ranks (read from the annotators'
    rankings), SE clustered by setting (statsmodels), t with settings - 1 df."""
    path = _log(sim_logs["validation"])
    log = read_eval_log(path)
    y, groups = [], []
    for s in log.samples or []:
        meta = s.scores["validation_record"].metadata
        generated = {x["item_id"] for x in meta["items"] if x["source"] == "generated"}
        for ann in meta["annotations"]:
            for item, rank in (ann.get("ranks") or {}).items():
                if item in generated and rank is not None:
                    y.append(float(rank))
                    groups.append(meta["setting"])
    arr = np.array(y)
    h = headline_from_metrics("mean_rank_generated", _metrics(path)[1])
    assert h is not None
    g = len(set(groups))
    assert (h.n_items, h.n_clusters) == (len(arr), g) and g >= 2
    se = _ols_cluster(arr, groups)
    assert (h.value, h.se) == (pytest.approx(arr.mean(), abs=1e-12), pytest.approx(se, abs=1e-12))
    assert h.interval == pytest.approx(_t_interval(arr.mean(), se, g - 1, 1, math.inf), abs=1e-9)


def test_press_arguments_headline_by_hand(extra_logs):
    path = _log(extra_logs["press_arguments"])
    log = read_eval_log(path)
    y = np.array([float(s.scores["press_arguments_check"].value) for s in log.samples or []])
    h = headline_from_metrics("mean", _metrics(path)[1])
    assert h is not None and h.n_items == len(y) == 4
    assert h.value == pytest.approx(y.mean(), abs=1e-12)
    assert h.se == pytest.approx(y.std(ddof=1) / 2, abs=1e-12)


def test_judge_validation_headline_has_no_stderr(extra_logs):
    """The ensemble's ordinal alpha; no standard error, so no interval (NaN, said honestly)."""
    path = _log(extra_logs["judge_validation"])
    _names, values = _metrics(path)
    h = headline_from_metrics("alpha_ordinal", values)
    assert h is not None and -1 <= h.value <= 1 and h.n_items == 6
    assert math.isnan(h.se) and all(math.isnan(x) for x in h.interval)
    # the per-judge figures left the panel for the breakdown
    rows = {r.label: r.value for _t, group in task_headline("judge_validation").breakdown([path])  # type: ignore[union-attr]
            for r in group}  # fmt: skip
    # the exact judge reads the marker: 1 2 3 5 4 2 vs final 1 3 3 4 4 2, equal on 4 of 6 rows
    assert rows["judge1"] == pytest.approx(4 / 6)


@pytest.mark.parametrize(("task", "folder"), CASES)
def test_the_run_of_one_log_gives_the_log_headline(sim_logs, task, folder):
    """``TaskHeadline.load`` reads the log as its method's run class, whose ``headline()``
    applies the scorer's rule: on one log it gives the headline the log holds (value, SE,
    interval, n)."""
    path = _log(sim_logs[folder])
    declared = task_headline(task)
    assert declared is not None and declared.load is not None
    logged = headline_from_metrics(declared.metric, _metrics(path)[1])
    run = task_run(task, [path], partial=False)
    assert logged is not None and run is not None
    pooled = run.headline()
    assert pooled.value == pytest.approx(logged.value, abs=1e-9)
    assert pooled.se == pytest.approx(logged.se, abs=1e-9, nan_ok=True)
    assert pooled.interval == pytest.approx(logged.interval, abs=1e-9, nan_ok=True)
    assert (pooled.n_items, pooled.n_clusters) == (logged.n_items, logged.n_clusters)


@pytest.mark.parametrize(("task", "folder"), CASES)
def test_the_surfaces_read_the_run_compare_reads(sim_logs, task, folder):
    """One road: the run every surface reads (``TaskHeadline.load``) is an object of the class
    ``compare`` loads (``Comparer.load``), with the same headline, settings and items of every
    metric ``compare`` compares."""
    from inspect_stance.study.protocol import CompareRequest
    from inspect_stance.study.registry import method_of_task

    path = _log(sim_logs[folder])
    method = method_of_task(task)
    assert method is not None and method.comparer is not None
    (theirs,) = method.comparer.load([path], CompareRequest((path,))).runs
    ours = task_run(task, [path], partial=False)
    assert type(ours) is type(theirs)
    assert ours.headline() == theirs.headline()
    assert ours.settings() == theirs.settings()
    for spec in method.comparer.metrics():
        assert ours.items(spec.name) == theirs.items(spec.name), spec.name
