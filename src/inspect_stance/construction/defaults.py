"""The defaults of the ``prompt_construction``, ``judge_validation`` and ``prompt_validation``
tasks, each written once: the task signatures, the options declarations and the docs read them
from here."""

from __future__ import annotations

from typing import Final

#: where topic ids and IssueBench templates are read: the files shipped with the package
PACKAGE: Final = "package"
TEMPLATES_PER_SETTING: Final = 10
PROMPTS_PER_SETTING: Final = 10
RESPONSES_PER_PROMPT: Final = 1
SEEDS_PER_SETTING: Final = 6
SEED: Final = 0
#: the share for judge classes 2 and 4 (the paper's "substantially (~75%)")
RUBRIC_THRESHOLD: Final = 0.75
JUDGE_SEES_PROMPT: Final = True
REVERSED_RUBRIC: Final = False
ENSEMBLE: Final = "majority"
PROMPTER_CACHE: Final = True
#: judge_validation: the column of the human label
LABEL_COLUMN: Final = "final_label"
