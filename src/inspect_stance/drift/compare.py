"""Stance-drift runs compared: ΔSPR, Δ success rate per initial stance, Δ drift-pattern masses.

Items are propositions, matched by their text. For each run the item-level values are, per
proposition ``s`` (with ``T[s]`` its transition matrix, :mod:`.transition`):

- ``spr``: ``mean_i T[s, i, i]`` (:func:`~inspect_stance.drift.metrics.spr.per_proposition_spr`);
- ``success_<stance>``: ``T[s, i, i]`` for initial stance ``i``;
- ``pattern_<name>``: the pattern's mass ``(1/5) sum_{(i,j) in cells} T[s, i, j]``
  (:func:`~inspect_stance.drift.metrics.patterns.per_proposition_patterns`); lower is better.

The trial-level values behind the naive interval are the per-trial diagonal probabilities
``probs[s, t, i, i]`` (``spr``; ``success_<stance>`` for its stance) and per-trial row masses of
the pattern cells (patterns), every trial counted as independent.

Settings that must match (:func:`run_settings`): the prompt variant, the propositions source,
the unparsed policy and the estimator (``logprobs``, ``min_letter_mass``,
``extraction_temperature``), ``words_limit`` and the chain (``hops``: a chain run's matrix is the
one read after its last hop; ``relay_operation``, ``relay_language``); for an ``.npz``, one hop
and its ``letter_order`` when it records one (:func:`npz_settings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from inspect_stance.drift.command_options import EXCLUDE_UNPARSED
from inspect_stance.drift.expand import expand_inputs
from inspect_stance.drift.figures import spr_headline
from inspect_stance.drift.inputs import load_input
from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.metrics.confidence import diagonal_trials
from inspect_stance.drift.metrics.patterns import PATTERNS, pattern_mask, per_proposition_patterns
from inspect_stance.drift.metrics.spr import per_proposition_spr
from inspect_stance.drift.run import DriftRun
from inspect_stance.drift.shards import load_folder_run, pool_loaded
from inspect_stance.drift.transition import diagonal
from inspect_stance.runs import RunInfo, log_info, npz_info
from inspect_stance.shards import one_run
from inspect_stance.stances import STANCE_KEYS
from inspect_stance.stats.family import (
    CompareResult,
    MetricSpec,
    RunItems,
    adjust_family,
    item_comparisons,
    overlap_notes,
    rankings,
    select_specs,
)
from inspect_stance.stats.headline import Headline
from inspect_stance.stats.multiplicity import Adjust
from inspect_stance.stats.paired import Interval
from inspect_stance.study.protocol import CompareRequest, ItemValues, LoadedRuns, items_of

SETTING_ARGS: tuple[str, ...] = (
    "variant", "propositions", "unparsed", "logprobs", "min_letter_mass",
    "extraction_temperature", "words_limit", "hops", "relay_operation", "relay_language",
)  # fmt: skip

METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("spr"),
    *(MetricSpec(f"success_{k}") for k in STANCE_KEYS),
    *(MetricSpec(f"pattern_{p}", higher_is_better=False) for p in PATTERNS),
)


@dataclass
class LoadedDrift:
    """A stance-drift run with what the comparison layer knows of its source."""

    run: DriftRun
    info: RunInfo
    #: the ``-T unparsed`` policy it was read under (``failure`` or ``exclude``)
    unparsed: str = "failure"

    def settings(self) -> dict[str, Any]:
        """The settings that must match (module docstring)."""
        return self.info.settings

    def items(self, metric: str) -> ItemValues:
        """Proposition -> (proposition, value) of ``metric`` (``compare``'s items)."""
        found = drift_items(self.run, self.run.name, self.unparsed)
        return items_of(found.items.get(metric, {}), found.clusters)

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.figures.spr_headline`)."""
        return spr_headline(self.run.matrices(self.unparsed))

    @classmethod
    def merge(cls, shards: Sequence[LoadedDrift], partial: bool = False) -> LoadedDrift:
        """One study's shards pooled into one run (:func:`.shards.pool_loaded`)."""
        return one_run(pool_loaded(shards, partial))


def run_settings(info: RunInfo, log_metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settings of a logged run that must match (see the module docstring)."""
    out = {k: info.task_args.get(k) for k in SETTING_ARGS if k in info.task_args}
    source = (log_metadata or {}).get("propositions_source")
    if source is not None:
        out["propositions"] = source
    return out


def load_drift(path: str | Path, unparsed: str = "failure", partial: bool = False) -> LoadedDrift:
    """A log or ``.npz`` run with its identity and settings; a folder holding one run (the
    shards of one study pooled: :func:`inspect_stance.drift.shards.load_folder_run`) too."""
    if Path(path).is_dir():
        import dataclasses

        pooled, first = load_folder_run(path, unparsed, partial)
        loaded = load_drift(first, unparsed)
        shard = loaded.run.shard
        if shard is None:
            return loaded  # a folder of one whole run
        info = dataclasses.replace(
            loaded.info,
            run_id=f"shards:{shard.study}",
            task_args={k: v for k, v in loaded.info.task_args.items() if k != "shard"},
        )
        return LoadedDrift(pooled, info, unparsed)
    run = load_input(path, unparsed)
    if Path(path).suffix == ".npz":
        info = npz_info(path)
        info.settings = npz_settings(path)
        return LoadedDrift(run, info, unparsed)
    return _logged(run, path, unparsed)


def _logged(run: DriftRun, path: str | Path, unparsed: str) -> LoadedDrift:
    """``run``, read from the log at ``path``, with its identity and settings."""
    from inspect_ai.log import read_eval_log

    info = log_info(path)
    meta = dict(read_eval_log(str(path), header_only=True).eval.metadata or {})
    info.settings = run_settings(info, meta)
    return LoadedDrift(run, info, unparsed)


def load_logged(paths: Sequence[str], partial: bool = False) -> LoadedDrift:
    """The run of one stance-drift log or of one study's shard logs (pooled by
    :meth:`LoadedDrift.merge`; ``partial``: an incomplete set too), read as its scorer read it:
    under the runs' own ``-T unparsed`` policy, an adaptive run's rows its Rao-Blackwell
    estimates (the task's :attr:`~inspect_stance.study.protocol.TaskHeadline.load`)."""
    from inspect_ai.log import read_eval_log

    args = read_eval_log(str(paths[0]), header_only=True).eval.task_args or {}
    policy = str(args.get("unparsed") or "failure")
    loaded = [_logged(read_drift_log(p, policy, adaptive_ok=True), p, policy) for p in paths]
    return LoadedDrift.merge(loaded, partial)


def npz_settings(path: str | Path) -> dict[str, Any]:
    """What an ``.npz`` records of its settings: one hop (its ``probs`` are one-hop vectors) and
    the option order (``letter_order``, e.g. reversed options), when present."""
    with np.load(path, allow_pickle=False) as data:
        if "letter_order" not in data:
            return {"hops": 1}
        return {"hops": 1, "letter_order": str(np.asarray(data["letter_order"]).tolist())}


def _pattern_trials(probs: np.ndarray, name: str) -> np.ndarray:
    """Per-trial row mass of a pattern's cells, ``(P, T, 5)`` (unparsed rows as zero mass)."""
    arr = np.nan_to_num(np.asarray(probs, dtype=np.float64), nan=0.0)
    return np.where(pattern_mask(name), arr, 0.0).sum(axis=-1)


def drift_items(run: DriftRun, name: str, unparsed: str = "failure") -> RunItems:
    """Item-level (per-proposition) and trial-level values of every stance-drift metric."""
    matrices = run.matrices(unparsed)  # an adaptive run: unbiased estimates, not trial means
    props = run.propositions
    if len(set(props)) != len(props):
        raise ValueError(f"{run.source}: propositions repeat; cannot pair them with another run")
    diag = diagonal(matrices)  # (P, 5)
    trials = diagonal_trials(run.probs, unparsed)  # (P, T, 5)
    items: dict[str, dict[str, float]] = {
        "spr": dict(zip(props, per_proposition_spr(matrices), strict=True))
    }
    tr: dict[str, np.ndarray] = {"spr": trials}
    for i, key in enumerate(STANCE_KEYS):
        items[f"success_{key}"] = dict(zip(props, diag[:, i], strict=True))
        tr[f"success_{key}"] = trials[:, :, i]
    for pname, values in per_proposition_patterns(matrices).items():
        items[f"pattern_{pname}"] = dict(zip(props, values, strict=True))
        tr[f"pattern_{pname}"] = _pattern_trials(run.probs, pname)
    items = {m: {k: float(v) for k, v in d.items()} for m, d in items.items()}
    return RunItems(name=name, items=items, trials=tr)


def select_metrics(names: Sequence[str] | None) -> list[MetricSpec]:
    """The metric specs named (all when none); ValueError naming the valid ones."""
    return select_specs(METRICS, names, "stance-drift")


def compare_drift(
    loaded: Sequence[LoadedDrift],
    names: Sequence[str],
    metrics: Sequence[MetricSpec],
    confidence: float = 0.95,
    interval: Interval = "auto",
    adjust: Adjust = "holm",
    alpha: float = 0.05,
    unparsed: str = "failure",
) -> CompareResult:
    """Every pair of runs x every metric, adjusted together, and a ranking per metric."""
    items = [drift_items(x.run, n, unparsed) for x, n in zip(loaded, names, strict=True)]
    comps = adjust_family(item_comparisons(items, metrics, confidence, interval), adjust)
    runs = [
        {"name": n, "source": x.info.source, "model": x.run.model, "variant": x.run.variant,
         "n_items": x.run.n_propositions, "n_trials": x.run.n_trials,
         "n_unparsed": x.run.n_unparsed, "n_missing": x.run.n_missing}
        for x, n in zip(loaded, names, strict=True)
    ]  # fmt: skip
    notes = [
        "items are propositions (matched by text); trials are nested in them and resampled "
        "with them",
        *overlap_notes(items, "spr", "propositions"),
    ]
    for x, n in zip(loaded, names, strict=True):
        if x.run.n_unparsed or x.run.n_missing:
            notes.append(f"{n}: {x.run.n_unparsed} unparsed and {x.run.n_missing} missing trials "
                         f"(policy: {unparsed})")  # fmt: skip
    return CompareResult(
        method="stance_drift",
        runs=runs,
        comparisons=comps,
        rankings=rankings(items, metrics, comps, alpha),
        adjust=adjust,
        alpha=alpha,
        confidence=confidence,
        notes=notes,
    )


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The stance-drift runs (logs and ``.npz``) named by ``paths``, the shards of one study
    pooled into one run (an incomplete set with ``request.partial``), with what was skipped
    (``compare``'s reader, :func:`inspect_stance.study.protocol.comparer_of`)."""
    found, skipped = expand_inputs(list(paths))
    # the shards of one study (-T shard=K/N, Inspect's shard layout) are one run
    loaded: list[LoadedDrift] = pool_loaded([load_drift(p, _policy(request)) for p in found],
                                            request.partial)  # fmt: skip
    return LoadedRuns([*loaded], [x.info for x in loaded], [skipped] if skipped else [])


def compare_runs(runs: Sequence[LoadedDrift], names: Sequence[str],
                 metrics: Sequence[MetricSpec], request: CompareRequest) -> CompareResult:  # fmt: skip
    """:func:`compare_drift` with the request's settings, and a note per run that replayed
    trials from the trial record."""
    result = compare_drift(runs, names, metrics, request.confidence, request.interval,
                           request.adjust, request.alpha, _policy(request))  # fmt: skip
    result.notes += [f"{n}: {x.run.replay_note}" for x, n in zip(runs, names, strict=True)
                     if x.run.replay_note]  # fmt: skip
    return result


def _policy(request: CompareRequest) -> str:
    """``exclude`` with ``--exclude-unparsed`` (the method's compare option), else ``failure``."""
    exclude = request.options.get(EXCLUDE_UNPARSED.dest, EXCLUDE_UNPARSED.value)
    return "exclude" if exclude else "failure"
