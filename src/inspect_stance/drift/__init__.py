"""drift: the Inspect-free core of the stance-drift method (statistics, data, prompts, reports).

Top-level modules: ``options`` (the task's ``-T`` parameters), ``propositions``, ``prompts``,
``dataset`` (the task's Inspect samples), ``extraction``, ``trials``, ``started``, ``transition``
(per-trial vectors to transition matrices), ``logs`` / ``inputs`` / ``expand`` / ``run`` (reading
runs), ``compare``, ``gate``, ``human_study``. Subpackages: ``metrics`` (SPR, patterns, bounds,
pass rate), ``chain`` (the multi-hop variant), ``adaptive`` (adaptive trials), ``planning``
(variance components, designs) and ``report``.

The names below are the ones the rest of the package uses; each is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.adaptive.confseq import AdaptiveRule as AdaptiveRule
    from inspect_stance.drift.adaptive.rule import ADAPTIVE_KEY as ADAPTIVE_KEY
    from inspect_stance.drift.adaptive.rule import adaptive_row as adaptive_row
    from inspect_stance.drift.adaptive.rule import decide as decide
    from inspect_stance.drift.chain.relay_prompts import (
        DEFAULT_RELAY_LANGUAGE as DEFAULT_RELAY_LANGUAGE,
    )
    from inspect_stance.drift.chain.relay_prompts import check_operation as check_operation
    from inspect_stance.drift.chain.relay_prompts import relay_calls_per_hop as relay_calls_per_hop
    from inspect_stance.drift.chain.relay_prompts import relay_prompt as relay_prompt
    from inspect_stance.drift.chain.relay_prompts import relay_steps as relay_steps
    from inspect_stance.drift.chain.report import report_chains as report_chains
    from inspect_stance.drift.compare import compare_drift as compare_drift
    from inspect_stance.drift.compare import load_drift as load_drift
    from inspect_stance.drift.compare import select_metrics as select_metrics
    from inspect_stance.drift.dataset import DriftDataset as DriftDataset
    from inspect_stance.drift.dataset import load_dataset as load_dataset
    from inspect_stance.drift.expand import expand_inputs as expand_inputs
    from inspect_stance.drift.extraction import extract as extract
    from inspect_stance.drift.extraction import label_mismatch as label_mismatch
    from inspect_stance.drift.extraction import record_label_mismatches as record_label_mismatches
    from inspect_stance.drift.extraction import to_stance_order as to_stance_order
    from inspect_stance.drift.extraction import trial_vector as trial_vector
    from inspect_stance.drift.gate import evaluate_gate as evaluate_gate
    from inspect_stance.drift.human_study import analyse_study as analyse_study
    from inspect_stance.drift.human_study import load_study as load_study
    from inspect_stance.drift.human_study import study_text as study_text
    from inspect_stance.drift.inputs import load_input as load_input
    from inspect_stance.drift.logs import PLANNED_KEY as PLANNED_KEY
    from inspect_stance.drift.logs import TRIALS_KEY as TRIALS_KEY
    from inspect_stance.drift.metrics.patterns import drift_patterns as drift_patterns
    from inspect_stance.drift.metrics.patterns import stance_drift_rate as stance_drift_rate
    from inspect_stance.drift.metrics.spr import (
        stance_preservation_rate as stance_preservation_rate,
    )
    from inspect_stance.drift.metrics.spr import success_by_stance as success_by_stance
    from inspect_stance.drift.options import DriftOptions as DriftOptions
    from inspect_stance.drift.options import RelayOperation as RelayOperation
    from inspect_stance.drift.options import Unparsed as Unparsed
    from inspect_stance.drift.options import Variant as Variant
    from inspect_stance.drift.planning.design import Design as Design
    from inspect_stance.drift.planning.design import (
        calls_per_trial_by_variant as calls_per_trial_by_variant,
    )
    from inspect_stance.drift.planning.study import Plan as Plan
    from inspect_stance.drift.planning.study import build_plan as build_plan
    from inspect_stance.drift.planning.study import plan_json as plan_json
    from inspect_stance.drift.prompts import MULTIPLE_EXTRACTIONS as MULTIPLE_EXTRACTIONS
    from inspect_stance.drift.prompts import check_variant as check_variant
    from inspect_stance.drift.prompts import extraction_prompt as extraction_prompt
    from inspect_stance.drift.prompts import generation_prompt as generation_prompt
    from inspect_stance.drift.prompts import variant_order as variant_order
    from inspect_stance.drift.report.analysis import MAX_HOPS as MAX_HOPS
    from inspect_stance.drift.report.analysis import build_report as build_report
    from inspect_stance.drift.report.analysis import unique_names as unique_names
    from inspect_stance.drift.report.render import run_json as run_json
    from inspect_stance.drift.report.render import terminal_summary as terminal_summary
    from inspect_stance.drift.report.write import write_outputs as write_outputs
    from inspect_stance.drift.run import DriftRun as DriftRun
    from inspect_stance.drift.started import StartedSamples as StartedSamples
    from inspect_stance.drift.transition import check_policy as check_policy
    from inspect_stance.drift.transition import mean_se as mean_se
    from inspect_stance.drift.trials import combine as combine
    from inspect_stance.drift.trials import shuffled_orders as shuffled_orders

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "AdaptiveRule": "inspect_stance.drift.adaptive.confseq",
    "ADAPTIVE_KEY": "inspect_stance.drift.adaptive.rule",
    "adaptive_row": "inspect_stance.drift.adaptive.rule",
    "decide": "inspect_stance.drift.adaptive.rule",
    "DEFAULT_RELAY_LANGUAGE": "inspect_stance.drift.chain.relay_prompts",
    "check_operation": "inspect_stance.drift.chain.relay_prompts",
    "relay_calls_per_hop": "inspect_stance.drift.chain.relay_prompts",
    "relay_prompt": "inspect_stance.drift.chain.relay_prompts",
    "relay_steps": "inspect_stance.drift.chain.relay_prompts",
    "report_chains": "inspect_stance.drift.chain.report",
    "compare_drift": "inspect_stance.drift.compare",
    "load_drift": "inspect_stance.drift.compare",
    "select_metrics": "inspect_stance.drift.compare",
    "DriftDataset": "inspect_stance.drift.dataset",
    "load_dataset": "inspect_stance.drift.dataset",
    "expand_inputs": "inspect_stance.drift.expand",
    "extract": "inspect_stance.drift.extraction",
    "label_mismatch": "inspect_stance.drift.extraction",
    "record_label_mismatches": "inspect_stance.drift.extraction",
    "to_stance_order": "inspect_stance.drift.extraction",
    "trial_vector": "inspect_stance.drift.extraction",
    "evaluate_gate": "inspect_stance.drift.gate",
    "analyse_study": "inspect_stance.drift.human_study",
    "load_study": "inspect_stance.drift.human_study",
    "study_text": "inspect_stance.drift.human_study",
    "load_input": "inspect_stance.drift.inputs",
    "PLANNED_KEY": "inspect_stance.drift.logs",
    "TRIALS_KEY": "inspect_stance.drift.logs",
    "drift_patterns": "inspect_stance.drift.metrics.patterns",
    "stance_drift_rate": "inspect_stance.drift.metrics.patterns",
    "stance_preservation_rate": "inspect_stance.drift.metrics.spr",
    "success_by_stance": "inspect_stance.drift.metrics.spr",
    "DriftOptions": "inspect_stance.drift.options",
    "RelayOperation": "inspect_stance.drift.options",
    "Unparsed": "inspect_stance.drift.options",
    "Variant": "inspect_stance.drift.options",
    "Design": "inspect_stance.drift.planning.design",
    "calls_per_trial_by_variant": "inspect_stance.drift.planning.design",
    "Plan": "inspect_stance.drift.planning.study",
    "build_plan": "inspect_stance.drift.planning.study",
    "plan_json": "inspect_stance.drift.planning.study",
    "MULTIPLE_EXTRACTIONS": "inspect_stance.drift.prompts",
    "check_variant": "inspect_stance.drift.prompts",
    "extraction_prompt": "inspect_stance.drift.prompts",
    "generation_prompt": "inspect_stance.drift.prompts",
    "variant_order": "inspect_stance.drift.prompts",
    "MAX_HOPS": "inspect_stance.drift.report.analysis",
    "build_report": "inspect_stance.drift.report.analysis",
    "unique_names": "inspect_stance.drift.report.analysis",
    "run_json": "inspect_stance.drift.report.render",
    "terminal_summary": "inspect_stance.drift.report.render",
    "write_outputs": "inspect_stance.drift.report.write",
    "DriftRun": "inspect_stance.drift.run",
    "StartedSamples": "inspect_stance.drift.started",
    "check_policy": "inspect_stance.drift.transition",
    "mean_se": "inspect_stance.drift.transition",
    "combine": "inspect_stance.drift.trials",
    "shuffled_orders": "inspect_stance.drift.trials",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
