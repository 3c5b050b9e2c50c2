"""The samples of a ``stance_drift`` run whose trials started (shared by its solver and metric).

A sample that errors has no score; the solver notes every sample as it starts, so the
``counts`` metric can count an errored sample as incomplete instead of leaving it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Scored(Protocol):
    """A sample's score as the metric sees it (Inspect's ``SampleScore``): its sample id."""

    @property
    def sample_id(self) -> str | int | None:
        """The id of the scored sample."""
        ...


class StartedSamples:
    """The samples of one task whose trials started, with their planned trials.

    The task hands one instance to its solver (which adds each sample as it starts) and to its
    ``counts`` metric: a sample that then errored has no score, and the metric counts it as
    incomplete instead of leaving it out (``--fail-on-error 0.5`` / ``--no-fail-on-error``
    runs finish "success" without it).
    """

    def __init__(self) -> None:
        self.planned: dict[str, int] = {}

    def add(self, sample_id: str, trials: int) -> None:
        """Note that ``sample_id`` started, planning ``trials`` trials (per epoch, summed)."""
        self.planned[sample_id] = self.planned.get(sample_id, 0) + trials

    def missing(self, scores: Sequence[Scored]) -> tuple[int, int]:
        """``(samples, planned trials)`` that started but have no score among ``scores``."""
        scored = {str(s.sample_id) for s in scores}
        missing = [n for sid, n in self.planned.items() if sid not in scored]
        return len(missing), sum(missing)
