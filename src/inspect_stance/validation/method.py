"""The prompt-validation method registered with the study protocol (:mod:`inspect_stance.study`):
``report`` writes ``DIR/prompt_validation/`` with ``validation-report``; ``compare`` compares
runs over settings (:func:`inspect_stance.validation.compare.compare_validation`). The hooks
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
    """The prompt-validation metrics ``compare`` reports
    (:data:`inspect_stance.validation.compare.METRICS`)."""
    from inspect_stance.validation.compare import METRICS

    return METRICS


def read_compare_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The prompt_validation runs among ``paths``, with what was skipped."""
    from inspect_stance.validation.compare import read_validation_runs

    runs, skipped = read_validation_runs(paths)
    return LoadedRuns(list(runs), [r.info for r in runs], [skipped] if skipped else [])


def compare_request(
    runs: Sequence[Any], names: Sequence[str], chosen: Sequence[MetricSpec], request: CompareRequest
) -> CompareResult:
    """:func:`inspect_stance.validation.compare.compare_validation` with the request's
    settings."""
    from inspect_stance.validation.compare import compare_validation

    return compare_validation(runs, names, chosen, request.confidence, request.interval,
                              request.adjust, request.alpha)  # fmt: skip


PROMPT_VALIDATION = register_method(
    Method(
        name="prompt_validation",
        tasks=("prompt_validation",),
        report_command="validation-report",
        comparer=Comparer(metrics, read_compare_runs, compare_request),
        setting_keys=("topics", "intents", "stances", "sources", "per_source", "seed"),
    )
)
