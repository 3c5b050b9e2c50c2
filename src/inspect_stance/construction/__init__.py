"""Prompt construction as a confound: templated vs LLM-generated prompts, judged by an ensemble.

Inspect-free core of the ``prompt_construction`` and ``judge_validation`` tasks (the
``prompt_validation`` study is :mod:`inspect_stance.validation`). One concept per module:

- ``issuebench``: loading IssueBench ``issues`` / ``templates`` with ``datasets``;
- ``topics``: topic selection (default six topics), seed prompts;
- ``settings``: intents, user stances, methods, settings and sample ids;
- ``templates``: ``X``-slot templates (built-in information / opinion sets) and sampling;
- ``generation``: generator instructions and parsing of generated prompts;
- ``prompts``: prompt specs, and prompt reuse across target models; ``samples``: the sample list;
- ``rubric``: the judge rubric (IssueBench templ-5 based) and judge-answer parsing;
- ``labels``: the 1-5 + refusal scale and non-label outcomes;
- ``majority``: strict-majority aggregation; ``lean``: lean and distance from neutral;
- ``comparison``: the neutral-setting comparison (Wilcoxon, direction counts);
- ``agreement``: Krippendorff's alpha, judge-human agreement; ``human_labels``: label files;
- ``records``: one judged response; ``report``: ``inspect-stance construction-report``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.construction.agreement import NOMINAL as NOMINAL
    from inspect_stance.construction.agreement import ORDINAL as ORDINAL
    from inspect_stance.construction.agreement import alpha as alpha
    from inspect_stance.construction.agreement import human_agreement as human_agreement
    from inspect_stance.construction.agreement import judge_alpha as judge_alpha
    from inspect_stance.construction.agreement import pair_agreement as pair_agreement
    from inspect_stance.construction.compare import compare_runs as compare_runs
    from inspect_stance.construction.comparison import DIRECTIONS as DIRECTIONS
    from inspect_stance.construction.comparison import NO_POLE as NO_POLE
    from inspect_stance.construction.comparison import direction_counts as direction_counts
    from inspect_stance.construction.comparison import human_outcome as human_outcome
    from inspect_stance.construction.comparison import method_counts as method_counts
    from inspect_stance.construction.comparison import neutral_comparison as neutral_comparison
    from inspect_stance.construction.comparison import setting_summaries as setting_summaries
    from inspect_stance.construction.controls import HIDDEN as HIDDEN
    from inspect_stance.construction.controls import NOT_APPLICABLE as NOT_APPLICABLE
    from inspect_stance.construction.controls import ORIGINAL as ORIGINAL
    from inspect_stance.construction.controls import REVERSED as REVERSED
    from inspect_stance.construction.controls import SWAPPED as SWAPPED
    from inspect_stance.construction.controls import unreverse as unreverse
    from inspect_stance.construction.defaults import PACKAGE as PACKAGE
    from inspect_stance.construction.defaults import PROMPTER_CACHE as PROMPTER_CACHE
    from inspect_stance.construction.defaults import SEED as SEED
    from inspect_stance.construction.defaults import SEEDS_PER_SETTING as SEEDS_PER_SETTING
    from inspect_stance.construction.ensemble import check_ensemble as check_ensemble
    from inspect_stance.construction.ensemble import with_ensemble as with_ensemble
    from inspect_stance.construction.generation import GeneratedPrompts as GeneratedPrompts
    from inspect_stance.construction.generation import (
        parse_generated_prompts as parse_generated_prompts,
    )
    from inspect_stance.construction.generation import (
        read_generated_prompts as read_generated_prompts,
    )
    from inspect_stance.construction.issuebench import (
        DEFAULT_TEMPLATES_SPLIT as DEFAULT_TEMPLATES_SPLIT,
    )
    from inspect_stance.construction.issuebench import PACKAGE_TOPICS as PACKAGE_TOPICS
    from inspect_stance.construction.issuebench import load_issues as load_issues
    from inspect_stance.construction.issuebench import load_templates as load_templates
    from inspect_stance.construction.issuebench import read_package_csv as read_package_csv
    from inspect_stance.construction.judge_annotations import load_annotations as load_annotations
    from inspect_stance.construction.judge_validation_options import (
        JudgeValidationOptions as JudgeValidationOptions,
    )
    from inspect_stance.construction.keys import ANNOTATORS_ROLE as ANNOTATORS_ROLE
    from inspect_stance.construction.keys import JUDGES_ROLE as JUDGES_ROLE
    from inspect_stance.construction.keys import NO_ANNOTATORS as NO_ANNOTATORS
    from inspect_stance.construction.keys import NO_JUDGES as NO_JUDGES
    from inspect_stance.construction.keys import PROMPTER_ROLE as PROMPTER_ROLE
    from inspect_stance.construction.keys import STORE_ANNOTATIONS as STORE_ANNOTATIONS
    from inspect_stance.construction.keys import STORE_GENERATION as STORE_GENERATION
    from inspect_stance.construction.keys import STORE_ITEMS as STORE_ITEMS
    from inspect_stance.construction.keys import STORE_MISSING as STORE_MISSING
    from inspect_stance.construction.keys import STORE_PROMPT as STORE_PROMPT
    from inspect_stance.construction.keys import STORE_STATUS as STORE_STATUS
    from inspect_stance.construction.keys import STORE_SWAP_PROMPT as STORE_SWAP_PROMPT
    from inspect_stance.construction.keys import (
        STORE_VALIDATION_GENERATION as STORE_VALIDATION_GENERATION,
    )
    from inspect_stance.construction.label_sample import write_label_sample as write_label_sample
    from inspect_stance.construction.labels import NO_PROMPT as NO_PROMPT
    from inspect_stance.construction.labels import NO_RESPONSE as NO_RESPONSE
    from inspect_stance.construction.lean import LeanSummary as LeanSummary
    from inspect_stance.construction.lean import summarize as summarize
    from inspect_stance.construction.majority import strict_majority as strict_majority
    from inspect_stance.construction.options import ConstructionOptions as ConstructionOptions
    from inspect_stance.construction.plan_output import (
        plan_construction_gap_log as plan_construction_gap_log,
    )
    from inspect_stance.construction.planning import plan_construction_gap as plan_construction_gap
    from inspect_stance.construction.ppi_lean import ppi_values as ppi_values
    from inspect_stance.construction.prompts import PromptSpec as PromptSpec
    from inspect_stance.construction.prompts import build_specs as build_specs
    from inspect_stance.construction.prompts import load_prompts as load_prompts
    from inspect_stance.construction.records import Record as Record
    from inspect_stance.construction.records import (
        record_from_score_metadata as record_from_score_metadata,
    )
    from inspect_stance.construction.report import build_report as build_report
    from inspect_stance.construction.report_records import read_records as read_records
    from inspect_stance.construction.rubric import AMBIGUOUS as AMBIGUOUS
    from inspect_stance.construction.rubric import DEFAULT_THRESHOLD as DEFAULT_THRESHOLD
    from inspect_stance.construction.rubric import ERROR as ERROR
    from inspect_stance.construction.rubric import OK as OK
    from inspect_stance.construction.rubric import OUT_OF_SCALE as OUT_OF_SCALE
    from inspect_stance.construction.rubric import JudgeAnswer as JudgeAnswer
    from inspect_stance.construction.rubric import check_rubric_threshold as check_rubric_threshold
    from inspect_stance.construction.rubric import judge_prompt as judge_prompt
    from inspect_stance.construction.rubric import parse_judge_answer as parse_judge_answer
    from inspect_stance.construction.samples import ConstructionPlan as ConstructionPlan
    from inspect_stance.construction.samples import fingerprint_inputs as fingerprint_inputs
    from inspect_stance.construction.samples import plan_construction as plan_construction
    from inspect_stance.construction.samples import sample_input as sample_input
    from inspect_stance.construction.samples import sample_metadata as sample_metadata
    from inspect_stance.construction.samples import task_metadata as task_metadata
    from inspect_stance.construction.settings import GENERATED as GENERATED
    from inspect_stance.construction.settings import INFORMATION as INFORMATION
    from inspect_stance.construction.settings import INTENTS as INTENTS
    from inspect_stance.construction.settings import METHODS as METHODS
    from inspect_stance.construction.settings import NEUTRAL as NEUTRAL
    from inspect_stance.construction.settings import OPINION as OPINION
    from inspect_stance.construction.settings import POLE_A as POLE_A
    from inspect_stance.construction.settings import POLE_B as POLE_B
    from inspect_stance.construction.settings import TEMPLATED as TEMPLATED
    from inspect_stance.construction.settings import USER_STANCES as USER_STANCES
    from inspect_stance.construction.settings import WRITING as WRITING
    from inspect_stance.construction.settings import Setting as Setting
    from inspect_stance.construction.settings import parse_choice as parse_choice
    from inspect_stance.construction.templates import INFORMATION_TEMPLATES as INFORMATION_TEMPLATES
    from inspect_stance.construction.templates import OPINION_TEMPLATES as OPINION_TEMPLATES
    from inspect_stance.construction.templates import Template as Template
    from inspect_stance.construction.templates import builtin_templates as builtin_templates
    from inspect_stance.construction.templates import sample_templates as sample_templates
    from inspect_stance.construction.templates import stable_seed as stable_seed
    from inspect_stance.construction.templates import templates_from_file as templates_from_file
    from inspect_stance.construction.templates import (
        templates_from_issuebench as templates_from_issuebench,
    )
    from inspect_stance.construction.topics import Topic as Topic
    from inspect_stance.construction.topics import load_topics_file as load_topics_file
    from inspect_stance.construction.topics import select_topics as select_topics

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "plan_construction_gap": "inspect_stance.construction.planning",
    "plan_construction_gap_log": "inspect_stance.construction.plan_output",
    "NOMINAL": "inspect_stance.construction.agreement",
    "ORDINAL": "inspect_stance.construction.agreement",
    "alpha": "inspect_stance.construction.agreement",
    "human_agreement": "inspect_stance.construction.agreement",
    "judge_alpha": "inspect_stance.construction.agreement",
    "pair_agreement": "inspect_stance.construction.agreement",
    "compare_runs": "inspect_stance.construction.compare",
    "DIRECTIONS": "inspect_stance.construction.comparison",
    "NO_POLE": "inspect_stance.construction.comparison",
    "direction_counts": "inspect_stance.construction.comparison",
    "human_outcome": "inspect_stance.construction.comparison",
    "method_counts": "inspect_stance.construction.comparison",
    "neutral_comparison": "inspect_stance.construction.comparison",
    "setting_summaries": "inspect_stance.construction.comparison",
    "HIDDEN": "inspect_stance.construction.controls",
    "NOT_APPLICABLE": "inspect_stance.construction.controls",
    "ORIGINAL": "inspect_stance.construction.controls",
    "REVERSED": "inspect_stance.construction.controls",
    "SWAPPED": "inspect_stance.construction.controls",
    "unreverse": "inspect_stance.construction.controls",
    "PACKAGE": "inspect_stance.construction.defaults",
    "PROMPTER_CACHE": "inspect_stance.construction.defaults",
    "SEED": "inspect_stance.construction.defaults",
    "SEEDS_PER_SETTING": "inspect_stance.construction.defaults",
    "check_ensemble": "inspect_stance.construction.ensemble",
    "with_ensemble": "inspect_stance.construction.ensemble",
    "GeneratedPrompts": "inspect_stance.construction.generation",
    "parse_generated_prompts": "inspect_stance.construction.generation",
    "read_generated_prompts": "inspect_stance.construction.generation",
    "DEFAULT_TEMPLATES_SPLIT": "inspect_stance.construction.issuebench",
    "PACKAGE_TOPICS": "inspect_stance.construction.issuebench",
    "load_issues": "inspect_stance.construction.issuebench",
    "load_templates": "inspect_stance.construction.issuebench",
    "read_package_csv": "inspect_stance.construction.issuebench",
    "load_annotations": "inspect_stance.construction.judge_annotations",
    "JudgeValidationOptions": "inspect_stance.construction.judge_validation_options",
    "ANNOTATORS_ROLE": "inspect_stance.construction.keys",
    "JUDGES_ROLE": "inspect_stance.construction.keys",
    "NO_ANNOTATORS": "inspect_stance.construction.keys",
    "NO_JUDGES": "inspect_stance.construction.keys",
    "PROMPTER_ROLE": "inspect_stance.construction.keys",
    "STORE_ANNOTATIONS": "inspect_stance.construction.keys",
    "STORE_GENERATION": "inspect_stance.construction.keys",
    "STORE_ITEMS": "inspect_stance.construction.keys",
    "STORE_MISSING": "inspect_stance.construction.keys",
    "STORE_PROMPT": "inspect_stance.construction.keys",
    "STORE_STATUS": "inspect_stance.construction.keys",
    "STORE_SWAP_PROMPT": "inspect_stance.construction.keys",
    "STORE_VALIDATION_GENERATION": "inspect_stance.construction.keys",
    "write_label_sample": "inspect_stance.construction.label_sample",
    "NO_PROMPT": "inspect_stance.construction.labels",
    "NO_RESPONSE": "inspect_stance.construction.labels",
    "LeanSummary": "inspect_stance.construction.lean",
    "summarize": "inspect_stance.construction.lean",
    "strict_majority": "inspect_stance.construction.majority",
    "ConstructionOptions": "inspect_stance.construction.options",
    "ppi_values": "inspect_stance.construction.ppi_lean",
    "PromptSpec": "inspect_stance.construction.prompts",
    "build_specs": "inspect_stance.construction.prompts",
    "load_prompts": "inspect_stance.construction.prompts",
    "Record": "inspect_stance.construction.records",
    "record_from_score_metadata": "inspect_stance.construction.records",
    "build_report": "inspect_stance.construction.report",
    "read_records": "inspect_stance.construction.report_records",
    "AMBIGUOUS": "inspect_stance.construction.rubric",
    "DEFAULT_THRESHOLD": "inspect_stance.construction.rubric",
    "ERROR": "inspect_stance.construction.rubric",
    "JudgeAnswer": "inspect_stance.construction.rubric",
    "OK": "inspect_stance.construction.rubric",
    "OUT_OF_SCALE": "inspect_stance.construction.rubric",
    "check_rubric_threshold": "inspect_stance.construction.rubric",
    "judge_prompt": "inspect_stance.construction.rubric",
    "parse_judge_answer": "inspect_stance.construction.rubric",
    "ConstructionPlan": "inspect_stance.construction.samples",
    "fingerprint_inputs": "inspect_stance.construction.samples",
    "plan_construction": "inspect_stance.construction.samples",
    "sample_input": "inspect_stance.construction.samples",
    "sample_metadata": "inspect_stance.construction.samples",
    "task_metadata": "inspect_stance.construction.samples",
    "GENERATED": "inspect_stance.construction.settings",
    "INFORMATION": "inspect_stance.construction.settings",
    "INTENTS": "inspect_stance.construction.settings",
    "METHODS": "inspect_stance.construction.settings",
    "NEUTRAL": "inspect_stance.construction.settings",
    "OPINION": "inspect_stance.construction.settings",
    "POLE_A": "inspect_stance.construction.settings",
    "POLE_B": "inspect_stance.construction.settings",
    "Setting": "inspect_stance.construction.settings",
    "TEMPLATED": "inspect_stance.construction.settings",
    "USER_STANCES": "inspect_stance.construction.settings",
    "WRITING": "inspect_stance.construction.settings",
    "parse_choice": "inspect_stance.construction.settings",
    "INFORMATION_TEMPLATES": "inspect_stance.construction.templates",
    "OPINION_TEMPLATES": "inspect_stance.construction.templates",
    "Template": "inspect_stance.construction.templates",
    "builtin_templates": "inspect_stance.construction.templates",
    "sample_templates": "inspect_stance.construction.templates",
    "stable_seed": "inspect_stance.construction.templates",
    "templates_from_file": "inspect_stance.construction.templates",
    "templates_from_issuebench": "inspect_stance.construction.templates",
    "Topic": "inspect_stance.construction.topics",
    "load_topics_file": "inspect_stance.construction.topics",
    "select_topics": "inspect_stance.construction.topics",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
