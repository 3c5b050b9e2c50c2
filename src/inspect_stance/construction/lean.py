"""Lean of responses and distance from neutral.

For one setting and construction method, with ``s_i`` the majority scores (1..5) of the
responses whose ensemble outcome is a scale label (refusals, no-majority and other non-label
outcomes excluded and counted):

    lean = mean(s_i) - 3            (negative: toward pole A / topic_pro; positive: pole B)
    distance from neutral = |lean|

The refusal rate is the share of judged responses whose outcome is ``refusal``, with judged
responses = those with a target response (scale label, refusal, no_majority or no_valid_judge).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from inspect_stance.construction.labels import (
    NEUTRAL,
    NO_MAJORITY,
    NO_PROMPT,
    NO_RESPONSE,
    NO_VALID_JUDGE,
    REFUSAL,
    label_score,
)

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class LeanSummary:
    """Counts and lean of one group of responses (one setting x method, typically)."""

    n_samples: int  # every sample in the group
    n_judged: int  # samples with a target response that went to the judges
    n_scored: int  # samples whose outcome is a scale label: the N behind lean
    n_refusal: int
    n_no_majority: int
    n_no_valid_judge: int
    n_no_response: int
    n_no_prompt: int
    refusal_rate: float  # n_refusal / n_judged (nan when n_judged == 0)
    lean: float  # mean score - 3 over scored samples (nan when n_scored == 0)
    lean_se: float  # sample sd / sqrt(n_scored) (nan when n_scored < 2)

    @property
    def distance(self) -> float:
        """Distance from neutral, ``|lean|``."""
        return abs(self.lean)

    def as_dict(self) -> dict[str, float | int]:
        """Plain dict (fields plus ``distance``)."""
        out: dict[str, float | int] = asdict(self)
        out["distance"] = self.distance
        return out


def summarize(outcomes: Iterable[str]) -> LeanSummary:
    """Counts, refusal rate and lean for a group of ensemble outcomes (see module formula)."""
    import numpy as np

    outcomes = list(outcomes)
    scores = [s for s in (label_score(o) for o in outcomes) if s is not None]
    n_refusal = outcomes.count(REFUSAL)
    n_no_majority = outcomes.count(NO_MAJORITY)
    n_no_valid = outcomes.count(NO_VALID_JUDGE)
    n_judged = len(scores) + n_refusal + n_no_majority + n_no_valid
    lean = float(np.mean(scores)) - NEUTRAL if scores else math.nan
    se = float(np.std(scores, ddof=1) / math.sqrt(len(scores))) if len(scores) > 1 else math.nan
    return LeanSummary(
        n_samples=len(outcomes),
        n_judged=n_judged,
        n_scored=len(scores),
        n_refusal=n_refusal,
        n_no_majority=n_no_majority,
        n_no_valid_judge=n_no_valid,
        n_no_response=outcomes.count(NO_RESPONSE),
        n_no_prompt=outcomes.count(NO_PROMPT),
        refusal_rate=n_refusal / n_judged if n_judged else math.nan,
        lean=lean,
        lean_se=se,
    )
