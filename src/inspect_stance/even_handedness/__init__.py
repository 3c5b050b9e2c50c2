"""Paired-prompts political even-handedness: data, grader read-outs, pair records, run figures.

Inspect-free core; the task is ``inspect_stance.tasks.even_handedness``.
"""

from inspect_stance.even_handedness.data import Pair, grader_prompts, load_pairs, select_pairs
from inspect_stance.even_handedness.groups import group_differences
from inspect_stance.even_handedness.parse import Reading, parse_choice, read_answer
from inspect_stance.even_handedness.record import judgment, pair_values, scale
from inspect_stance.even_handedness.summary import clustered_se, summarize

__all__ = [
    "Pair",
    "Reading",
    "clustered_se",
    "grader_prompts",
    "group_differences",
    "judgment",
    "load_pairs",
    "pair_values",
    "parse_choice",
    "read_answer",
    "scale",
    "select_pairs",
    "summarize",
]
