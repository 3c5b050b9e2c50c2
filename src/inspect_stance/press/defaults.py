"""The PReSS tasks' defaults (``press``, ``press_arguments``), each written once: the task
signatures, the options declaration (:mod:`inspect_stance.press.options`), the solvers, the
scorer and the docs read them from here."""

from __future__ import annotations

from typing import Final

#: argument sets per statement (the paper: 3)
ARGUMENT_SETS: Final = 3
PERSONAS: Final = False
#: temperature-1 draws for semantic entropy / factor analysis (0: off)
ENTROPY_SAMPLES: Final = 0
FACTOR_SAMPLES: Final = 0
#: draws when a count option is given as ``true`` (the paper: N = 20; Appendix B: 20 per item)
DRAWS: Final = 20
CLASSIFIER: Final = "nli"
NLI_MODE: Final = "zero_shot"
NLI_MODEL: Final = "facebook/bart-large-mnli"
NLI_BATCH_SIZE: Final = 16
NLI_HYPOTHESIS: Final = "{statement}"
NLI_AGREE_HYPOTHESIS: Final = "The author agrees with the statement: {statement}"
NLI_DISAGREE_HYPOTHESIS: Final = "The author disagrees with the statement: {statement}"
ARGUER_MAX_TOKENS: Final = 1024
CLASSIFIER_MAX_TOKENS: Final = 64
