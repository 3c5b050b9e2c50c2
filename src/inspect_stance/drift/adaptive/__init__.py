"""Adaptive trials (``-T adaptive_halfwidth=H``): confidence sequences and the stopping rule
(``confseq``), a sample's waves (``rule``), the unbiased estimate after stopping (``estimate``) and
the replay of a fixed run under the rule (``replay``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.adaptive.confseq import AdaptiveRule as AdaptiveRule
    from inspect_stance.drift.adaptive.confseq import eb_cs as eb_cs
    from inspect_stance.drift.adaptive.estimate import adaptive_matrices as adaptive_matrices
    from inspect_stance.drift.adaptive.rule import ADAPTIVE_ALPHA as ADAPTIVE_ALPHA
    from inspect_stance.drift.adaptive.rule import ADAPTIVE_KEY as ADAPTIVE_KEY
    from inspect_stance.drift.adaptive.rule import ADAPTIVE_MIN_TRIALS as ADAPTIVE_MIN_TRIALS
    from inspect_stance.drift.adaptive.rule import ADAPTIVE_WAVE as ADAPTIVE_WAVE
    from inspect_stance.drift.adaptive.rule import SampleRule as SampleRule
    from inspect_stance.drift.adaptive.rule import adaptive_row as adaptive_row
    from inspect_stance.drift.adaptive.rule import check_halfwidth as check_halfwidth
    from inspect_stance.drift.adaptive.rule import decide as decide
    from inspect_stance.drift.adaptive.rule import rule_for as rule_for

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "AdaptiveRule": "inspect_stance.drift.adaptive.confseq",
    "eb_cs": "inspect_stance.drift.adaptive.confseq",
    "adaptive_matrices": "inspect_stance.drift.adaptive.estimate",
    "ADAPTIVE_ALPHA": "inspect_stance.drift.adaptive.rule",
    "ADAPTIVE_KEY": "inspect_stance.drift.adaptive.rule",
    "ADAPTIVE_MIN_TRIALS": "inspect_stance.drift.adaptive.rule",
    "ADAPTIVE_WAVE": "inspect_stance.drift.adaptive.rule",
    "SampleRule": "inspect_stance.drift.adaptive.rule",
    "adaptive_row": "inspect_stance.drift.adaptive.rule",
    "check_halfwidth": "inspect_stance.drift.adaptive.rule",
    "decide": "inspect_stance.drift.adaptive.rule",
    "rule_for": "inspect_stance.drift.adaptive.rule",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
