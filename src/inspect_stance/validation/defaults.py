"""The ``prompt_validation`` task's defaults, each written once (the task signature, its
options declaration and the docs read them from here); the settings it shares with prompt
construction keep that method's defaults."""

from __future__ import annotations

from typing import Final

from inspect_stance.construction.defaults import PACKAGE, PROMPTER_CACHE, SEED, SEEDS_PER_SETTING

__all__ = [
    "PACKAGE",
    "PER_SOURCE",
    "PROMPTER_CACHE",
    "REAL_LIMIT",
    "REAL_PROMPTS",
    "SEED",
    "SEEDS_PER_SETTING",
]

#: prompts per source in each setting
PER_SOURCE: Final = 2
#: where the real prompts come from: IssueBench's prompts
REAL_PROMPTS: Final = "issuebench"
#: the most real prompts read
REAL_LIMIT: Final = 20_000
