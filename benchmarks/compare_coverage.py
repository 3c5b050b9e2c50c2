"""Coverage and type-I error of ``inspect-stance compare``'s statistics, on known answers.

Direct simulation of each method's generative model (no Inspect run, so thousands of
replications take seconds), two respondents whose metric differs by a known ``delta``:

- **stance drift**: P propositions, each with its own success rate per initial stance,
  ``p_A[s, i] = 0.1 + 0.7 * Beta(2, 2)`` (so respondents differ per proposition, as real ones
  do), ``p_B = p_A + delta`` (and a second scenario where B also differs per proposition by
  ``+-0.08``, a model x proposition interaction of mean 0); each of T trials per (proposition, stance) is a one-hot extraction
  (success with probability p). The true ΔSPR is ``delta``. Interval: the paired item-level
  interval (``paired_delta``, ``auto``) of the per-proposition SPRs; the naive trial-level one
  beside it.
- **PReSS**: 19 statements x 3 argument sets, stability probability per statement
  ``q_A ~ U(0.2, 0.7)``, ``q_B = q_A + delta``; the true Δ share stable (S_t) is ``delta``;
  McNemar over statement x set beside it.
- **prompt construction**: 36 setting x method cells x 10 responses; a response's true score is
  2, 3 or 4 with probabilities ``(a, 1 - a - b, b)``, ``a, b ~ U(0.15, 0.4)`` per cell, and
  run B moves ``delta / 2`` from 2 to 4 (true Δ lean = ``delta``); three judges of known bias
  (two exact, one +1 step, clipped) label each response, the majority is the outcome. At
  ``delta = 0`` the judgment-level OLS (distance, judge and item fixed effects, clustered by
  response) is checked for type-I error too.

- **few items**: the stance-drift model with ``n = 2, 3, 5, 8`` propositions (below the 10 at
  which ``auto`` is the plain t interval): coverage of the 95 % interval at ``delta = 0.05`` and,
  at ``delta = 0``, the share of null pairs whose interval excludes 0 beside the share with
  ``p < 0.05`` (equal when the interval agrees with its own p).

- **construction gap** (templated vs generated within one run, and ``distance (judgments)``
  between two runs with different prompts): S = 18 neutral settings, ``P`` prompts per method
  per setting, 2 responses per prompt, 3 judges. A response's latent stance is ``setting effect
  N(0, 0.6) + prompt effect N(0, 0.5) + response noise N(0, 0.5)``, each judge adds its bias
  (0, 0, +0.3) and noise ``N(0, 0.3)``, the score is the rounded value + 3 clipped to 1..5; the
  method (or the run) has no effect, so every rejection at 5 % is a false one. The size of the
  old judgment-level OLS (setting or item fixed effects, clustered by prompt) is printed beside
  the test in use (prompt means, paired t over settings).

At ``delta = 0`` every comparison of a method's family is null: the family-wise rejection rate
of the Holm-adjusted tests is reported (target <= 5 %); at ``delta != 0`` the coverage of the
95 % interval of the primary metric (target 93-97 %).

``--reference DIR`` also prints, on the reference stance-drift runs, how much wider the
clustered interval of each metric is than the naive trial-level one (GPT-4o-mini vs each model).

Usage: ``OMP_NUM_THREADS=1 python benchmarks/compare_coverage.py [--reps 1000] [--reference
../shared/data/stance_drift_reference]``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from inspect_stance.stats.multiplicity import adjust_pvalues
from inspect_stance.stats.paired import naive_interval, paired_delta

ALPHA = 0.05


def drift_replication(rng: np.random.Generator, delta: float, n_props: int = 112,
                      trials: int = 10, interaction: float = 0.0) -> dict[str, float]:  # fmt: skip
    """One replication: coverage of ΔSPR, naive coverage, family-wise rejection at delta.

    ``interaction``: respondent B also differs per proposition by ``+-interaction`` (equally
    likely; mean 0, so the true ΔSPR stays ``delta``), as real models do."""
    p_a = 0.1 + 0.7 * rng.beta(2, 2, size=(n_props, 5))
    p_b = p_a + delta + interaction * rng.choice([-1.0, 1.0], size=(n_props, 1))
    x_a = rng.uniform(size=(n_props, trials, 5)) < p_a[:, None, :]
    x_b = rng.uniform(size=(n_props, trials, 5)) < p_b[:, None, :]
    spr = paired_delta(x_a.mean(axis=(1, 2)), x_b.mean(axis=(1, 2)))
    naive = naive_interval(x_a.astype(float), x_b.astype(float))
    family = [spr.p] + [paired_delta(x_a[:, :, i].mean(1), x_b[:, :, i].mean(1)).p
                        for i in range(5)]  # fmt: skip
    return {
        "covered": float(spr.ci[0] <= delta <= spr.ci[1]),
        "naive_covered": float(naive[0] <= delta <= naive[1]),
        "any_rejected": float(min(adjust_pvalues(family, "holm")) < ALPHA),
        "width_ratio": (spr.ci[1] - spr.ci[0]) / (naive[1] - naive[0]),
    }


def few_items_replication(rng: np.random.Generator, delta: float,
                          n_props: int = 8) -> dict[str, float]:  # fmt: skip
    """One replication with ``n_props`` propositions: coverage, interval excludes 0, p < 0.05."""
    p_a = 0.1 + 0.7 * rng.beta(2, 2, size=(n_props, 5))
    x_a = (rng.uniform(size=(n_props, 10, 5)) < p_a[:, None, :]).mean(axis=(1, 2))
    x_b = (rng.uniform(size=(n_props, 10, 5)) < (p_a + delta)[:, None, :]).mean(axis=(1, 2))
    res = paired_delta(x_a, x_b)
    return {
        "covered": float(res.ci[0] <= delta <= res.ci[1]),
        "ci_excludes_0": float(res.ci[0] > 0 or res.ci[1] < 0),
        "p_below_0.05": float(res.p < ALPHA),
    }


def _gap_records(rng: np.random.Generator, prompts: int, settings: int = 18,
                 responses: int = 2, run: str = "r") -> list:  # fmt: skip
    """Records of one simulated construction run under the null (module docstring)."""
    from inspect_stance.construction.records import Record
    from inspect_stance.construction.settings import GENERATED, TEMPLATED, Setting

    out = []
    bias = np.array([0.0, 0.0, 0.3])
    for s in range(settings):
        setting, u = Setting(s, "writing", "neutral"), rng.normal(0, 0.6)
        for method in (TEMPLATED, GENERATED):
            for k in range(prompts):
                v, text = rng.normal(0, 0.5), f"{run}-{s}-{method}-{k}"
                for r in range(responses):
                    x = u + v + rng.normal(0, 0.5) + bias + rng.normal(0, 0.3, 3)
                    labels = tuple(str(int(v)) for v in np.clip(np.rint(x + 3), 1, 5))
                    out.append(Record(f"{text}-{r}", setting, method, labels[0], labels,
                                      judges=("j0", "j1", "j2"), prompt_text=text))  # fmt: skip
    return out


def gap_replication(rng: np.random.Generator, delta: float, prompts: int = 1,
                    old: bool = True) -> dict[str, float]:  # fmt: skip
    """One null replication (``delta`` unused, 0): the current test (and with ``old`` the old
    OLS) within one run and between two runs with different prompts."""
    from inspect_stance.construction.compare import (
        cluster_ols,
        construction_gap,
        judgment_comparison,
        judgments,
    )

    run_a, run_b = _gap_records(rng, prompts, run="a"), _gap_records(rng, prompts, run="b")
    gap = construction_gap(run_a, "a", 0.95)
    runs = judgment_comparison(run_a, run_b, ("a", "b"), 0.95)
    assert gap is not None and runs is not None
    out = {"gap": float(gap.p < ALPHA), "runs": float(runs.p < ALPHA)}
    if not old:
        return out
    rows = judgments(run_a)
    _, _, p_old = cluster_ols(np.array([r[3] for r in rows]), np.array([float(r[4]) for r in rows]),
                              [[r[0].split("/")[0] for r in rows], [r[1] for r in rows]],
                              [r[2] for r in rows], 0.95)  # fmt: skip
    both = [(*r, 0.0) for r in rows] + [(*r, 1.0) for r in judgments(run_b)]
    _, _, p_old_runs = cluster_ols(np.array([r[3] for r in both]), np.array([r[5] for r in both]),
                                   [[r[0] for r in both], [r[1] for r in both]],
                                   [r[2] for r in both], 0.95)  # fmt: skip
    return {**out, "gap_old_ols": float(p_old < ALPHA), "runs_old_ols": float(p_old_runs < ALPHA)}


def press_replication(rng: np.random.Generator, delta: float, n_statements: int = 19,
                      sets: int = 3) -> dict[str, float]:  # fmt: skip
    """One replication: coverage of Δ share stable and the Holm family (S_t, McNemar)."""
    from statsmodels.stats.contingency_tables import mcnemar

    q_a = rng.uniform(0.2, 0.7, n_statements)
    s_a = rng.uniform(size=(n_statements, sets)) < q_a[:, None]
    s_b = rng.uniform(size=(n_statements, sets)) < (q_a + delta)[:, None]
    st = paired_delta(s_a.mean(1), s_b.mean(1))
    n10 = int((s_a & ~s_b).sum())
    n01 = int((~s_a & s_b).sum())
    n11 = int((s_a & s_b).sum())
    p_mc = (
        1.0
        if n10 + n01 == 0
        else float(mcnemar([[n11, n10], [n01, s_a.size - n11 - n10 - n01]], exact=True).pvalue)
    )
    return {
        "covered": float(st.ci[0] <= delta <= st.ci[1]),
        "any_rejected": float(min(adjust_pvalues([st.p, p_mc], "holm")) < ALPHA),
    }


def _majority(labels: np.ndarray) -> np.ndarray:
    """Majority of three judges' labels per response (two exact judges always agree here)."""
    a, b, c = labels
    return np.where(a == b, a, np.where(a == c, a, np.where(b == c, b, a)))


def construction_replication(rng: np.random.Generator, delta: float, items: int = 36,
                             responses: int = 10, judgments: bool = False) -> dict[str, float]:  # fmt: skip
    """One replication: coverage of Δ lean; at delta 0 also the judgment-level OLS."""
    a = rng.uniform(0.15, 0.4, items)
    b = rng.uniform(0.15, 0.4, items)

    def draw(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
        u = rng.uniform(size=(items, responses))
        return np.where(u < pa[:, None], 2, np.where(u > 1 - pb[:, None], 4, 3))

    true_a, true_b = draw(a, b), draw(a - delta / 2, b + delta / 2)
    judged = [np.stack([t, t, np.minimum(t + 1, 5)]) for t in (true_a, true_b)]
    lean_a, lean_b = (_majority(j).mean(axis=1) - 3 for j in judged)
    lean = paired_delta(lean_a, lean_b, value_range=(-2.0, 2.0))
    out = {"covered": float(lean.ci[0] <= delta <= lean.ci[1])}
    ps = [lean.p]
    if judgments:
        from inspect_stance.construction.compare import cluster_ols

        y, run, item, judge, group = [], [], [], [], []
        for r, j in enumerate(judged):
            for k in range(3):
                y.append(np.abs(j[k] - 3).ravel())
                run.append(np.full(items * responses, float(r)))
                item.append(np.repeat(np.arange(items), responses).astype(str))
                judge.append(np.full(items * responses, str(k)))
                group.append(np.char.add(f"{r}-", np.arange(items * responses).astype(str)))
        _, _, p = cluster_ols(np.concatenate(y), np.concatenate(run),
                              [list(np.concatenate(item)), list(np.concatenate(judge))],
                              list(np.concatenate(group)), 0.95)  # fmt: skip
        ps.append(p)
        out["ols_rejected"] = float(p < ALPHA)
    out["any_rejected"] = float(min(adjust_pvalues(ps, "holm")) < ALPHA)
    return out


def simulate(fn: Callable[..., dict[str, float]], delta: float, reps: int, seed: int = 0,
             **kwargs: object) -> dict[str, float]:  # fmt: skip
    """Mean of each figure of ``fn`` over ``reps`` replications."""
    rng = np.random.default_rng(seed)
    rows = [fn(rng, delta, **kwargs) for _ in range(reps)]
    return {k: float(np.mean([r[k] for r in rows])) for k in rows[0]}


def reference_widths(folder: Path) -> list[tuple[str, str, float]]:
    """(model, metric, clustered / naive interval width) for GPT-4o-mini vs each model."""
    from inspect_stance.drift.compare import METRICS, drift_items
    from inspect_stance.drift.run import load_npz
    from inspect_stance.stats.family import item_comparisons, width_ratio

    base = drift_items(load_npz(folder / "gpt_4o_mini.npz"), "gpt_4o_mini")
    out = []
    for path in sorted(folder.glob("*.npz")):
        if path.stem.startswith("gpt_4o_mini"):
            continue
        other = drift_items(load_npz(path), path.stem)
        for c in item_comparisons([base, other], METRICS):
            out.append((path.stem, c.metric, width_ratio(c)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--ols-reps", type=int, default=300,
                    help="replications of the (slower) judgment-level OLS at delta 0")  # fmt: skip
    ap.add_argument("--reference", type=Path, default=None)
    args = ap.parse_args(argv)
    print(f"replications per cell: {args.reps}; 95 % intervals; Holm family at alpha {ALPHA}")
    for name, fn, deltas in (
        ("stance drift (ΔSPR)", drift_replication, (0.0, 0.05)),
        ("PReSS (Δ share stable)", press_replication, (0.0, 0.15)),
        ("construction (Δ lean)", construction_replication, (0.0, 0.2)),
    ):
        for delta in deltas:
            res = simulate(fn, delta, args.reps)
            figures = ", ".join(f"{k} {v:.3f}" for k, v in res.items())
            print(f"{name}, delta {delta:g}: {figures}")
    for n in (2, 3, 5, 8):
        cov = simulate(few_items_replication, 0.05, args.reps, n_props=n)["covered"]
        null = simulate(few_items_replication, 0.0, args.reps, n_props=n)
        print(f"stance drift, {n} propositions: coverage at delta 0.05 {cov:.3f}; at delta 0 "
              f"interval excludes 0 {null['ci_excludes_0']:.3f}, p < 0.05 "
              f"{null['p_below_0.05']:.3f}")  # fmt: skip
    for prompts in (1, 2, 5):
        res = simulate(gap_replication, 0.0, args.ols_reps, seed=2, prompts=prompts)
        print(f"construction gap, {prompts} prompt(s) per method per setting, size at 5 % "
              f"({args.ols_reps} replications): within a run: old OLS {res['gap_old_ols']:.3f}, "
              f"over settings {res['gap']:.3f}; two runs, different prompts: old OLS "
              f"{res['runs_old_ols']:.3f}, over settings {res['runs']:.3f}")  # fmt: skip
    res = simulate(drift_replication, 0.05, args.reps, interaction=0.08)
    figures = ", ".join(f"{k} {v:.3f}" for k, v in res.items())
    print(f"stance drift (ΔSPR), delta 0.05, model x proposition interaction 0.08: {figures}")
    res = simulate(construction_replication, 0.0, args.ols_reps, seed=1, judgments=True)
    print(
        f"construction judgment-level OLS, delta 0 ({args.ols_reps} replications): "
        f"rejected {res['ols_rejected']:.3f}, Holm family (lean, OLS) {res['any_rejected']:.3f}"
    )
    if args.reference is not None:
        ratios = reference_widths(args.reference)
        by_metric: dict[str, list[float]] = {}
        for _, metric, r in ratios:
            by_metric.setdefault(metric, []).append(r)
        print("\nclustered / naive trial-level interval width, GPT-4o-mini vs each other model:")
        for metric, rs in by_metric.items():
            print(f"  {metric}: median {np.median(rs):.2f} (range {min(rs):.2f}-{max(rs):.2f}, "
                  f"{len(rs)} models)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
