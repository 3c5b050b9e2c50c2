"""``inspect-stance human-study FILE [--json]``: the reference study's human-extraction
analysis (:mod:`inspect_stance.drift.human_study`), declared as a command of the stance-drift
method (:class:`~inspect_stance.study.protocol.MethodCommand`). Unusable input is one line,
exit 2."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import MethodCommand, ReportOption


def human_study(inputs: Sequence[str], options: dict[str, Any]) -> list[str]:
    """The analysis of the study table ``inputs[0]``: its text, or one JSON object with
    ``--json``."""
    from inspect_stance.drift.human_study import analyse_study, load_study, study_text

    try:
        data = load_study(inputs[0])
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result = analyse_study(data)
    return [
        json.dumps(result, indent=2, allow_nan=False) if options["json"] else study_text(result)
    ]


COMMAND = MethodCommand(
    name="human-study",
    help="human-extraction study: human vs model stance labels of generated arguments",
    description="Analyse a table with initial_stance, rater_* labels (A-E) and optional "
    "ai_votes_A..ai_votes_E counts.",
    inputs="FILE",
    inputs_help=".tsv / .csv study table",
    run=human_study,
    options=(ReportOption("--json", "print one JSON object", kind="flag"),),
)
