"""The prompt-construction method registered with the study protocol
(:mod:`inspect_stance.study`): its report reads ``prompt_construction`` and
``judge_validation`` logs; ``compare`` compares ``prompt_construction`` runs over setting x
method items (:func:`inspect_stance.construction.compare.compare_construction`). The hooks
import their cores when called, so listing the methods stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.study.protocol import (
    Comparer,
    CompareRequest,
    LoadedRuns,
    Method,
    register_method,
)

if TYPE_CHECKING:
    from inspect_stance.stats.family import CompareResult, MetricSpec


def metrics() -> Sequence[MetricSpec]:
    """The prompt-construction metrics ``compare`` reports
    (:data:`inspect_stance.construction.compare.METRICS`)."""
    from inspect_stance.construction.compare import METRICS

    return METRICS


def read_compare_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The prompt_construction runs among ``paths``, with what was skipped."""
    from inspect_stance.construction.compare import read_construction_runs

    runs, skipped = read_construction_runs(paths)
    return LoadedRuns(list(runs), [r.info for r in runs], [skipped] if skipped else [])


def compare_request(
    runs: Sequence[Any], names: Sequence[str], chosen: Sequence[MetricSpec], request: CompareRequest
) -> CompareResult:
    """:func:`inspect_stance.construction.compare.compare_construction` with the request's
    settings."""
    from inspect_stance.construction.compare import compare_construction

    return compare_construction(runs, names, chosen, request.confidence, request.interval,
                                request.adjust, request.alpha, request.per_setting)  # fmt: skip


CONSTRUCTION = register_method(
    Method(
        name="construction",
        tasks=("prompt_construction", "judge_validation"),
        report_command="construction-report",
        report_dir="prompt_construction",
        comparer=Comparer(metrics, read_compare_runs, compare_request),
        setting_keys=("judge_sees_prompt", "reversed_rubric", "ensemble"),
        aliases=("prompt_construction",),
    )
)
