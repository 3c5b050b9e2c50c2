"""Prompt-validation runs compared (``inspect-stance compare`` on ``prompt_validation`` logs).

Items are settings (``topic-intent-stance``), matched by that key: a setting's prompts are
ranked together by each annotator, so they are not independent of each other, and the setting
is the unit. Per setting and prompt source ``s`` (real, templated, generated), over the run's
annotators (its model annotators) and the setting's ``s`` prompts:

- ``mean_rank_<s>`` (realism): the mean rank given to them (1 = judged most likely written by a
  real user; lower is more realistic): the report's Friedman block value;
- ``intent_accuracy_<s>`` / ``stance_accuracy_<s>`` (clarity): the share of parsed answers
  equal to the intended label (prompts without an intended label left out);
- ``neutral_leaning_<s>`` (detection): on settings whose intended user stance is neutral, the
  share of parsed side answers naming side A or B (lower is better: a neutral prompt should
  read as neutral).

A run's value of a metric is the mean over its settings; it equals the report's pooled figure
when every setting holds the same number of answers (the task's design). Settings that must
match: the design's task arguments (:data:`SETTING_ARGS`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.construction.settings import NEUTRAL
from inspect_stance.errors import InputError
from inspect_stance.runs import RunInfo, log_info
from inspect_stance.stats.family import (
    CompareResult,
    MetricSpec,
    RunItems,
    adjust_family,
    item_comparisons,
    rankings,
)
from inspect_stance.stats.headline import Headline
from inspect_stance.study.protocol import CompareRequest, ItemValues, LoadedRuns, items_of
from inspect_stance.validation.analysis import rows_from_records
from inspect_stance.validation.annotation import NO_SIDE, SOURCES, Annotation
from inspect_stance.validation.figures import rank_headline
from inspect_stance.validation.logs import read_validation_runs

if TYPE_CHECKING:
    from inspect_stance.validation.logs import ValidationLogRun

SETTING_ARGS: tuple[str, ...] = ("topics", "issues", "intents", "stances", "sources",
                                 "per_source", "real_prompts", "seed")  # fmt: skip
METRICS: tuple[MetricSpec, ...] = tuple(
    spec
    for s in SOURCES
    for spec in (
        MetricSpec(f"mean_rank_{s}", higher_is_better=False, value_range=(1.0, 1.0)),
        MetricSpec(f"intent_accuracy_{s}"),
        MetricSpec(f"stance_accuracy_{s}"),
        MetricSpec(f"neutral_leaning_{s}", higher_is_better=False),
    )
)


@dataclass
class ValidationRun:
    """One prompt_validation log: its identity and settings, and its annotation rows."""

    info: RunInfo
    rows: list[Annotation]

    def settings(self) -> dict[str, Any]:
        """The settings that must match (:data:`SETTING_ARGS`)."""
        return self.info.settings

    def items(self, metric: str) -> ItemValues:
        """Setting -> (setting, value) of ``metric`` (``compare``'s items)."""
        found = validation_items(self, Path(self.info.source).name)
        return items_of(found.items.get(metric, {}), found.clusters)

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.figures.rank_headline`)."""
        return rank_headline(self.rows)


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The prompt_validation runs among ``paths`` (files and folders; the shards of one study
    pooled into one run, an incomplete set with ``request.partial``:
    :func:`inspect_stance.validation.logs.read_validation_runs`), each with its model
    annotators' rows, and the lines saying what was skipped or counted once."""

    read, found = read_validation_runs(paths, request.partial)
    runs = [_validation_run(run) for run in read]
    return LoadedRuns([*runs], [r.info for r in runs], found.passed_over())


def _validation_run(run: ValidationLogRun) -> ValidationRun:
    """The :class:`ValidationRun` of one run read from its logs (one log, or one study's
    shards pooled)."""

    info = pooled_info(log_info(run.paths[0]), len(run.paths))
    info.settings = {k: info.task_args[k] for k in SETTING_ARGS if k in info.task_args}
    return ValidationRun(info, rows_from_records(run.records))


def load_validation(paths: Sequence[str], partial: bool = False) -> ValidationRun:
    """The run of one prompt_validation log or of one study's shard logs pooled (``partial``:
    an incomplete set too): the task's
    :attr:`~inspect_stance.study.protocol.TaskHeadline.load`."""

    read, _found = read_validation_runs(list(paths), partial)
    if len(read) != 1:
        raise InputError(f"{len(read)} prompt_validation runs in {len(paths)} logs; pass the "
                         "logs of one run (or the shards of one study)")  # fmt: skip
    return _validation_run(read[0])


def pooled_info(info: RunInfo, n_logs: int) -> RunInfo:
    """A run's info; for shards pooled into one run (``n_logs`` > 1) without the ``shard``
    task argument, so that the run is named and checked as one."""
    if n_logs > 1:
        info.task_args = {k: v for k, v in info.task_args.items() if k != "shard"}
    return info


def _share(values: Sequence[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def _setting_values(rows: Sequence[Annotation], source: str) -> dict[str, float]:
    """The four figures of one setting's ``source`` prompts (those defined)."""
    mine = [r for r in rows if r.source == source]
    ranks = [r.rank for r in mine if r.rank is not None]
    out: dict[str, float | None] = {
        f"mean_rank_{source}": sum(ranks) / len(ranks) if ranks else None,
        f"intent_accuracy_{source}": _share([r.intent == r.intended_intent for r in mine
                                             if r.intent is not None and r.intended_intent]),
        f"stance_accuracy_{source}": _share([r.stance == r.intended_stance for r in mine
                                             if r.stance is not None and r.intended_stance]),
        f"neutral_leaning_{source}": _share([r.side != NO_SIDE for r in mine
                                             if r.intended_stance == NEUTRAL and r.side]),
    }  # fmt: skip
    return {k: v for k, v in out.items() if v is not None}


def validation_items(run: ValidationRun, name: str) -> RunItems:
    """Per setting, every metric defined there (module docstring)."""
    by_setting: dict[str, list[Annotation]] = defaultdict(list)
    for r in run.rows:
        by_setting[r.setting].append(r)
    items: dict[str, dict[str, float]] = {m.name: {} for m in METRICS}
    for setting, rows in by_setting.items():
        for source in SOURCES:
            for metric, value in _setting_values(rows, source).items():
                items[metric][setting] = value
    return RunItems(name, items)


def _rank_range(runs: Sequence[ValidationRun]) -> tuple[float, float]:
    """1 to the most prompts any setting of the runs holds (the largest rank possible)."""
    sizes = [len({r.item_id for r in run.rows if r.setting == s})
             for run in runs for s in {r.setting for r in run.rows}]  # fmt: skip
    return 1.0, float(max(sizes, default=1))


def compare_runs(
    runs: Sequence[ValidationRun],
    names: Sequence[str],
    metrics: Sequence[MetricSpec],
    request: CompareRequest,
) -> CompareResult:
    """Every pair x metric over the settings both runs have, adjusted together; rankings. A
    metric no pair of runs shares a setting on (e.g. ``*_real`` without real prompts) is left
    out, in a note."""
    items = [validation_items(r, n) for r, n in zip(runs, names, strict=True)]
    low, high = _rank_range(runs)
    specs = [replace(m, value_range=(low, high)) if m.name.startswith("mean_rank_") else m
             for m in metrics]  # fmt: skip
    shared = [m for m in specs
              if all(set(a.items[m.name]) & set(b.items[m.name])
                     for k, a in enumerate(items) for b in items[k + 1:])]  # fmt: skip
    notes = ["items are settings (topic-intent-stance, matched by key); a setting's prompts and "
             "annotators are nested in it"]  # fmt: skip
    left = [m.name for m in specs if m not in shared]
    if left:
        notes.append(f"left out (no setting shared by every pair of runs): {', '.join(left)}")
    if not shared:
        raise ValueError("the runs share no setting on any metric; compare runs of the same "
                         "topics, intents and stances")  # fmt: skip
    confidence, alpha, adjust = request.confidence, request.alpha, request.adjust
    comps = adjust_family(item_comparisons(items, shared, confidence, request.interval), adjust)
    desc = [{"name": n, "source": r.info.source, "model": r.info.model,
             "annotators": sorted({x.annotator for x in r.rows}),
             "n_items": len({x.setting for x in r.rows}), "n_prompts": len({x.item_id for x in r.rows})}
            for n, r in zip(names, runs, strict=True)]  # fmt: skip
    return CompareResult("prompt_validation", desc, comps,
                         rankings(items, shared, comps, alpha), adjust, alpha, confidence,
                         notes)  # fmt: skip
