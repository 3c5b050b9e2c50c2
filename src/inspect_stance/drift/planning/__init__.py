"""Study planning for stance drift: variance components (``variance``), designs and their predicted
SEs and cost (``design``), the precision the frequency estimator loses (``estimators``) and the
analysis behind ``inspect-stance plan`` (``study``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.planning.design import Design as Design
    from inspect_stance.drift.planning.design import (
        calls_per_trial_by_variant as calls_per_trial_by_variant,
    )
    from inspect_stance.drift.planning.estimators import estimator_in_use as estimator_in_use
    from inspect_stance.drift.planning.estimators import precision_loss as precision_loss
    from inspect_stance.drift.planning.study import Plan as Plan
    from inspect_stance.drift.planning.study import adaptive_summary as adaptive_summary
    from inspect_stance.drift.planning.study import build_plan as build_plan
    from inspect_stance.drift.planning.study import plan_json as plan_json

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "Design": "inspect_stance.drift.planning.design",
    "calls_per_trial_by_variant": "inspect_stance.drift.planning.design",
    "estimator_in_use": "inspect_stance.drift.planning.estimators",
    "precision_loss": "inspect_stance.drift.planning.estimators",
    "Plan": "inspect_stance.drift.planning.study",
    "adaptive_summary": "inspect_stance.drift.planning.study",
    "build_plan": "inspect_stance.drift.planning.study",
    "plan_json": "inspect_stance.drift.planning.study",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
