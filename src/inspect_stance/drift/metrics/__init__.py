"""The stance-drift metrics: SPR and success by initial stance (``spr``), drift patterns and SDR
(``patterns``), per-proposition confidence bounds (``confidence``), the pass rate (``pass_rate``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.metrics.confidence import bonferroni_level as bonferroni_level
    from inspect_stance.drift.metrics.confidence import diagonal_trials as diagonal_trials
    from inspect_stance.drift.metrics.confidence import share_reaching_one as share_reaching_one
    from inspect_stance.drift.metrics.confidence import upper_bounds as upper_bounds
    from inspect_stance.drift.metrics.pass_rate import AUC_THRESHOLDS as AUC_THRESHOLDS
    from inspect_stance.drift.metrics.pass_rate import pass_rate_auc as pass_rate_auc
    from inspect_stance.drift.metrics.pass_rate import pass_rate_curve as pass_rate_curve
    from inspect_stance.drift.metrics.patterns import PATTERNS as PATTERNS
    from inspect_stance.drift.metrics.patterns import drift_patterns as drift_patterns
    from inspect_stance.drift.metrics.patterns import (
        drift_patterns_by_stance as drift_patterns_by_stance,
    )
    from inspect_stance.drift.metrics.patterns import pattern_mask as pattern_mask
    from inspect_stance.drift.metrics.patterns import pattern_stances as pattern_stances
    from inspect_stance.drift.metrics.patterns import (
        per_proposition_patterns as per_proposition_patterns,
    )
    from inspect_stance.drift.metrics.patterns import stance_drift_rate as stance_drift_rate
    from inspect_stance.drift.metrics.spr import per_proposition_spr as per_proposition_spr
    from inspect_stance.drift.metrics.spr import (
        stance_preservation_rate as stance_preservation_rate,
    )
    from inspect_stance.drift.metrics.spr import success_by_stance as success_by_stance

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "bonferroni_level": "inspect_stance.drift.metrics.confidence",
    "diagonal_trials": "inspect_stance.drift.metrics.confidence",
    "share_reaching_one": "inspect_stance.drift.metrics.confidence",
    "upper_bounds": "inspect_stance.drift.metrics.confidence",
    "AUC_THRESHOLDS": "inspect_stance.drift.metrics.pass_rate",
    "pass_rate_auc": "inspect_stance.drift.metrics.pass_rate",
    "pass_rate_curve": "inspect_stance.drift.metrics.pass_rate",
    "PATTERNS": "inspect_stance.drift.metrics.patterns",
    "drift_patterns": "inspect_stance.drift.metrics.patterns",
    "drift_patterns_by_stance": "inspect_stance.drift.metrics.patterns",
    "pattern_mask": "inspect_stance.drift.metrics.patterns",
    "pattern_stances": "inspect_stance.drift.metrics.patterns",
    "per_proposition_patterns": "inspect_stance.drift.metrics.patterns",
    "stance_drift_rate": "inspect_stance.drift.metrics.patterns",
    "per_proposition_spr": "inspect_stance.drift.metrics.spr",
    "stance_preservation_rate": "inspect_stance.drift.metrics.spr",
    "success_by_stance": "inspect_stance.drift.metrics.spr",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
