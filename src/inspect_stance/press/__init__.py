"""PReSS (political stance stability under argumentative pressure): the Inspect-free core.

statements (instrument), prompts (Appendix D verbatim, LLM-classifier prompt), classify (stance
categories, LLM answer parser), nli (transformers NLI: zero-shot binary stance by default,
three-way as an option), labels (S^R/U^R/S^L/U^L), stability (S_t), faithfulness (SF/SU/ID),
entropy (semantic / naive entropy, AUROC), factor_analysis (Appendix B), arguments (reuse across
targets, source and fingerprint), summary (records and run figures), logs, report, compare,
cli. The Inspect tasks are ``inspect_stance.tasks.press`` and
``inspect_stance.tasks.press_arguments``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.press.arguments import STORE_ARGUMENTS as STORE_ARGUMENTS
    from inspect_stance.press.arguments import STORE_ENTROPY as STORE_ENTROPY
    from inspect_stance.press.arguments import STORE_FACTOR as STORE_FACTOR
    from inspect_stance.press.arguments import STORE_RESPONSES as STORE_RESPONSES
    from inspect_stance.press.arguments import LoadedArguments as LoadedArguments
    from inspect_stance.press.arguments import load_arguments as load_arguments
    from inspect_stance.press.classify import NEITHER as NEITHER
    from inspect_stance.press.classify import STANCE_VALUES as STANCE_VALUES
    from inspect_stance.press.classify import UNPARSED as UNPARSED
    from inspect_stance.press.classify import parse_classifier_answer as parse_classifier_answer
    from inspect_stance.press.compare import arguments_note as arguments_note
    from inspect_stance.press.compare import check_csv_path as check_csv_path
    from inspect_stance.press.compare import check_same_arguments as check_same_arguments
    from inspect_stance.press.compare import check_same_settings as check_same_settings
    from inspect_stance.press.compare import faithfulness_across_runs as faithfulness_across_runs
    from inspect_stance.press.compare import transition_frame as transition_frame
    from inspect_stance.press.compare import transitions as transitions
    from inspect_stance.press.compare_runs import compare_press as compare_press
    from inspect_stance.press.compare_runs import press_info as press_info
    from inspect_stance.press.dataset import shard_statements as shard_statements
    from inspect_stance.press.dataset import statement_samples as statement_samples
    from inspect_stance.press.entropy import entropy_measures as entropy_measures
    from inspect_stance.press.entropy import mean_token_logprob as mean_token_logprob
    from inspect_stance.press.factor_analysis import FACTOR_METHODS as FACTOR_METHODS
    from inspect_stance.press.factor_analysis import MISSING_RULES as MISSING_RULES
    from inspect_stance.press.gate import evaluate_press_gate as evaluate_press_gate
    from inspect_stance.press.labels import is_labelled as is_labelled
    from inspect_stance.press.labels import is_stable as is_stable
    from inspect_stance.press.logs import PressRun as PressRun
    from inspect_stance.press.logs import find_press_logs as find_press_logs
    from inspect_stance.press.logs import read_press_log as read_press_log
    from inspect_stance.press.nli import NLIMode as NLIMode
    from inspect_stance.press.nli import load_nli as load_nli
    from inspect_stance.press.options import Classifier as Classifier
    from inspect_stance.press.options import PressArgumentsOptions as PressArgumentsOptions
    from inspect_stance.press.options import PressOptions as PressOptions
    from inspect_stance.press.plan_output import plan_press_logs as plan_press_logs
    from inspect_stance.press.planning import plan_press as plan_press
    from inspect_stance.press.prompts import ARGUMENT_KINDS as ARGUMENT_KINDS
    from inspect_stance.press.prompts import CLASSIFIER_TEMPLATE as CLASSIFIER_TEMPLATE
    from inspect_stance.press.prompts import CONDITIONS as CONDITIONS
    from inspect_stance.press.prompts import PERSONA_PREFIXES as PERSONA_PREFIXES
    from inspect_stance.press.prompts import PERSONAS as PERSONAS
    from inspect_stance.press.prompts import argument_prompt as argument_prompt
    from inspect_stance.press.prompts import classifier_prompt as classifier_prompt
    from inspect_stance.press.prompts import opinion_prompt as opinion_prompt
    from inspect_stance.press.report import write_report as write_report
    from inspect_stance.press.report_tables import CI_METHODS as CI_METHODS
    from inspect_stance.press.stability import topic_stability as topic_stability
    from inspect_stance.press.statements import Statement as Statement
    from inspect_stance.press.statements import load_statements as load_statements
    from inspect_stance.press.summary import run_metrics as run_metrics
    from inspect_stance.press.summary import sample_record as sample_record
    from inspect_stance.press.summary import summarize as summarize

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "plan_press": "inspect_stance.press.planning",
    "plan_press_logs": "inspect_stance.press.plan_output",
    "LoadedArguments": "inspect_stance.press.arguments",
    "STORE_ARGUMENTS": "inspect_stance.press.arguments",
    "STORE_ENTROPY": "inspect_stance.press.arguments",
    "STORE_FACTOR": "inspect_stance.press.arguments",
    "STORE_RESPONSES": "inspect_stance.press.arguments",
    "load_arguments": "inspect_stance.press.arguments",
    "NEITHER": "inspect_stance.press.classify",
    "STANCE_VALUES": "inspect_stance.press.classify",
    "UNPARSED": "inspect_stance.press.classify",
    "parse_classifier_answer": "inspect_stance.press.classify",
    "arguments_note": "inspect_stance.press.compare",
    "check_csv_path": "inspect_stance.press.compare",
    "check_same_arguments": "inspect_stance.press.compare",
    "check_same_settings": "inspect_stance.press.compare",
    "faithfulness_across_runs": "inspect_stance.press.compare",
    "transition_frame": "inspect_stance.press.compare",
    "transitions": "inspect_stance.press.compare",
    "compare_press": "inspect_stance.press.compare_runs",
    "press_info": "inspect_stance.press.compare_runs",
    "shard_statements": "inspect_stance.press.dataset",
    "statement_samples": "inspect_stance.press.dataset",
    "entropy_measures": "inspect_stance.press.entropy",
    "mean_token_logprob": "inspect_stance.press.entropy",
    "FACTOR_METHODS": "inspect_stance.press.factor_analysis",
    "MISSING_RULES": "inspect_stance.press.factor_analysis",
    "evaluate_press_gate": "inspect_stance.press.gate",
    "is_labelled": "inspect_stance.press.labels",
    "is_stable": "inspect_stance.press.labels",
    "PressRun": "inspect_stance.press.logs",
    "find_press_logs": "inspect_stance.press.logs",
    "read_press_log": "inspect_stance.press.logs",
    "NLIMode": "inspect_stance.press.nli",
    "load_nli": "inspect_stance.press.nli",
    "Classifier": "inspect_stance.press.options",
    "PressArgumentsOptions": "inspect_stance.press.options",
    "PressOptions": "inspect_stance.press.options",
    "ARGUMENT_KINDS": "inspect_stance.press.prompts",
    "CLASSIFIER_TEMPLATE": "inspect_stance.press.prompts",
    "CONDITIONS": "inspect_stance.press.prompts",
    "PERSONAS": "inspect_stance.press.prompts",
    "PERSONA_PREFIXES": "inspect_stance.press.prompts",
    "argument_prompt": "inspect_stance.press.prompts",
    "classifier_prompt": "inspect_stance.press.prompts",
    "opinion_prompt": "inspect_stance.press.prompts",
    "write_report": "inspect_stance.press.report",
    "CI_METHODS": "inspect_stance.press.report_tables",
    "topic_stability": "inspect_stance.press.stability",
    "Statement": "inspect_stance.press.statements",
    "load_statements": "inspect_stance.press.statements",
    "run_metrics": "inspect_stance.press.summary",
    "sample_record": "inspect_stance.press.summary",
    "summarize": "inspect_stance.press.summary",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
