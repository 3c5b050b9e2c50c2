"""The ``stance_drift`` task's defaults, each written once (the task signature, its options
declaration, its solvers and the docs read them from here)."""

from __future__ import annotations

from typing import Final

VARIANT: Final = "default"
#: trials per (proposition, initial stance) (paper: 100)
TRIALS: Final = 100
#: most words of each generated argument (paper: 100)
WORDS_LIMIT: Final = 100
UNPARSED: Final = "failure"
SEED: Final = 0
CACHE: Final = True
LOGPROBS: Final = True
#: the least mass the five letters must hold among the answer's top logprobs
MIN_LETTER_MASS: Final = 0.5
#: temperature of the extraction calls (None: the provider's)
EXTRACTION_TEMPERATURE: Final = 1.0
HOPS: Final = 1
RELAY_OPERATION: Final = "paraphrase"
#: the language of relay_operation=translate when -T relay_language is unset
RELAY_LANGUAGE: Final = "French"
