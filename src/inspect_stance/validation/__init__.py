"""Prompt validation: do the study's prompts read as real, clear and on the side they claim?

Inspect-free core of the ``prompt_validation`` task: ``options`` (its ``-T`` parameters),
``samples`` (its sample list), ``real_prompts`` (real prompts to compare against), ``annotation``
(annotator answers), ``realism`` / ``clarity`` / ``detection`` (the three studies), ``analysis``
(their figures), ``human`` (human annotations), ``render`` / ``plots`` / ``report`` (the report).
It shares the settings, templates and topics of :mod:`inspect_stance.construction`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.validation.analysis import annotation_counts_of as annotation_counts_of
    from inspect_stance.validation.analysis import annotator_order as annotator_order
    from inspect_stance.validation.analysis import clarity_of as clarity_of
    from inspect_stance.validation.analysis import detection_of as detection_of
    from inspect_stance.validation.analysis import realism_of as realism_of
    from inspect_stance.validation.analysis import rows_from_records as rows_from_records
    from inspect_stance.validation.annotation import ERROR as ERROR
    from inspect_stance.validation.annotation import FIELDS as FIELDS
    from inspect_stance.validation.annotation import GENERATED as GENERATED
    from inspect_stance.validation.annotation import OK as OK
    from inspect_stance.validation.annotation import UNPARSED as UNPARSED
    from inspect_stance.validation.annotation import Annotation as Annotation
    from inspect_stance.validation.annotation import label_prompt as label_prompt
    from inspect_stance.validation.annotation import parse_labels as parse_labels
    from inspect_stance.validation.annotation import parse_ranking as parse_ranking
    from inspect_stance.validation.annotation import ranking_prompt as ranking_prompt
    from inspect_stance.validation.annotation import ranks_from_ranking as ranks_from_ranking
    from inspect_stance.validation.annotation import shuffled_order as shuffled_order
    from inspect_stance.validation.options import ValidationOptions as ValidationOptions
    from inspect_stance.validation.report import build_validation_report as build_validation_report
    from inspect_stance.validation.samples import ValidationPlan as ValidationPlan
    from inspect_stance.validation.samples import construction_judges as construction_judges
    from inspect_stance.validation.samples import plan_validation as plan_validation

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "annotation_counts_of": "inspect_stance.validation.analysis",
    "annotator_order": "inspect_stance.validation.analysis",
    "clarity_of": "inspect_stance.validation.analysis",
    "detection_of": "inspect_stance.validation.analysis",
    "realism_of": "inspect_stance.validation.analysis",
    "rows_from_records": "inspect_stance.validation.analysis",
    "Annotation": "inspect_stance.validation.annotation",
    "ERROR": "inspect_stance.validation.annotation",
    "FIELDS": "inspect_stance.validation.annotation",
    "GENERATED": "inspect_stance.validation.annotation",
    "OK": "inspect_stance.validation.annotation",
    "UNPARSED": "inspect_stance.validation.annotation",
    "label_prompt": "inspect_stance.validation.annotation",
    "parse_labels": "inspect_stance.validation.annotation",
    "parse_ranking": "inspect_stance.validation.annotation",
    "ranking_prompt": "inspect_stance.validation.annotation",
    "ranks_from_ranking": "inspect_stance.validation.annotation",
    "shuffled_order": "inspect_stance.validation.annotation",
    "ValidationOptions": "inspect_stance.validation.options",
    "build_validation_report": "inspect_stance.validation.report",
    "ValidationPlan": "inspect_stance.validation.samples",
    "construction_judges": "inspect_stance.validation.samples",
    "plan_validation": "inspect_stance.validation.samples",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
