"""One stance-drift run as arrays: the unit every report, gate and re-analysis works on.

A run comes from an Inspect log of the ``stance_drift`` task (see :mod:`.logs`) or from a raw
``.npz`` with ``probs`` shaped ``(propositions, trials, 5, 5)`` in stance order and optional
``propositions`` / ``topic_ids`` (this is how results from other tools come in; the reference
study's files are of this form).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.drift.adaptive.confseq import AdaptiveRule
from inspect_stance.drift.adaptive.estimate import adaptive_matrices
from inspect_stance.drift.transition import (
    FloatArray,
    argmax_trials,
    check_probs,
    transition_matrices,
    unparsed_mask,
)
from inspect_stance.shards import ShardInfo

if TYPE_CHECKING:
    import numpy as np


@dataclass
class DriftRun:
    """Per-trial extraction vectors of one run plus what is known about it.

    ``probs[s, t, i]`` is the stance-order probability vector of trial ``t`` of proposition
    ``s`` with initial stance ``i``; unparsed trials are all-NaN rows; ``missing[s, t, i]``
    marks trials that are absent from the source (e.g. errored samples), also NaN in ``probs``.
    """

    name: str
    probs: FloatArray
    propositions: list[str]
    topic_ids: list[str]
    source: str
    model: str | None = None
    variant: str | None = None
    missing: np.ndarray | None = None
    estimator_counts: dict[str, int] = field(default_factory=dict)
    status: str | None = None
    #: samples stopped by a limit or holding fewer trials than planned (their missing trials
    #: are in ``missing``)
    incomplete_samples: int = 0
    #: ``-T adaptive_halfwidth`` of the run (its samples stopped after different numbers of
    #: trials; the trials not run are in ``missing``), ``None`` for a fixed-trial run
    adaptive_halfwidth: float | None = None
    #: the stopping rule the run's samples used (from their adaptive state; ``unparsed`` is
    #: the task's policy, which decided what the rule read), ``None`` for a fixed-trial run
    adaptive_rule: AdaptiveRule | None = None
    adaptive_policy: str = "failure"
    #: ``(P, T, 5)`` counts per trial of unparsed extraction answers and of answers whose letter
    #: and written label disagree (from a log; ``None`` for an ``.npz``, which holds no answers)
    unparsed_extractions: np.ndarray | None = None
    label_mismatches: np.ndarray | None = None
    #: ``-T shard=K/N`` of the log (``None``: the whole study, or shards pooled into it)
    shard: ShardInfo | None = None
    #: who answered the run's calls (:mod:`inspect_stance.provenance`; empty for an ``.npz``)
    provenance: list[dict[str, Any]] = field(default_factory=list)
    #: trials replayed from the trial record (no model call) and the oldest one's record time
    #: (ISO 8601 UTC; ``None`` when unknown, e.g. a log written before record times)
    n_replayed: int = 0
    replayed_since: str | None = None

    @property
    def replay_note(self) -> str | None:
        """One sentence on the trials replayed from the trial record, or None when none was."""
        if not self.n_replayed:
            return None
        since = f", recorded from {self.replayed_since}" if self.replayed_since else ""
        total = int((~self.missing_mask).sum())
        return (
            f"{self.n_replayed} of {total} trials were replayed from the trial record (no "
            f"model call{since}); re-run with -T cache=false to call the model afresh"
        )

    def matrices(self, unparsed: str = "failure", argmax: bool = False) -> FloatArray:
        """Per-proposition transition matrices ``(P, 5, 5)`` (``argmax``: of the trials'
        point masses). A fixed-trial run: the mean of its trials
        (:func:`~.transition.transition_matrices`). An adaptive run: the mean of the trials run
        is biased by the stopping, so each row is the unbiased Rao–Blackwell estimate the
        scorer uses (:func:`~.adaptive_estimate.adaptive_matrices`)."""
        import numpy as np

        probs = argmax_trials(self.probs) if argmax else self.probs
        if self.adaptive_rule is None:
            return transition_matrices(probs, unparsed)

        diag = np.diagonal(np.asarray(self.probs, dtype=np.float64), axis1=-2, axis2=-1)
        values = np.nan_to_num(diag, nan=0.0) if self.adaptive_policy == "failure" else diag
        ran = ~self.missing_mask
        return adaptive_matrices(probs, values, ran, self.adaptive_rule, unparsed)

    @property
    def n_propositions(self) -> int:
        """Number of propositions ``P``."""
        return int(self.probs.shape[0])

    @property
    def n_trials(self) -> int:
        """Trials per (proposition, initial stance) ``T``."""
        return int(self.probs.shape[1])

    @property
    def missing_mask(self) -> np.ndarray:
        """Boolean ``(P, T, 5)`` mask of trials absent from the source."""
        import numpy as np

        if self.missing is None:
            return np.zeros(self.probs.shape[:3], dtype=bool)
        return self.missing

    @property
    def unparsed_mask(self) -> np.ndarray:
        """Boolean ``(P, T, 5)`` mask of trials present but without a usable extraction."""
        return unparsed_mask(self.probs) & ~self.missing_mask

    @property
    def n_unparsed(self) -> int:
        """Count of unparsed (present, no usable letter) trials."""
        return int(self.unparsed_mask.sum())

    @property
    def n_unparsed_extractions(self) -> int | None:
        """Unparsed extraction answers, ``sum`` over trials (for ``multiple_extraction`` up to 5
        per trial; a trial is unparsed only when all are); ``None`` when the source holds no
        answers (an ``.npz``)."""
        arr = self.unparsed_extractions
        return None if arr is None else int(arr.sum())

    @property
    def n_label_mismatches(self) -> int | None:
        """Extraction answers whose letter and written label disagree (``None`` without
        answers)."""
        arr = self.label_mismatches
        return None if arr is None else int(arr.sum())

    @property
    def n_missing(self) -> int:
        """Count of missing trials / missing values."""
        return int(self.missing_mask.sum())


def load_npz(path: str | Path) -> DriftRun:
    """Read a raw ``.npz`` run; ``ValueError`` naming the file on any problem.

    Problems: not an ``.npz``, no ``probs``, a wrong shape, rows that are not distributions (see
    :func:`check_probs`), object arrays, or ``propositions`` / ``topic_ids`` whose length is not
    the number of propositions.
    """
    import numpy as np

    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            if "probs" not in data:
                raise ValueError(f"{path}: no 'probs' array (expected shape (P, T, 5, 5))")
            probs = check_probs(data["probs"], name=f"{path} probs")
            n = probs.shape[0]
            labels: dict[str, list[str]] = {}
            for key in ("propositions", "topic_ids"):
                if key in data:
                    values = [str(x) for x in np.asarray(data[key]).reshape(-1)]
                    if len(values) != n:
                        raise ValueError(
                            f"{path}: '{key}' has {len(values)} entries for {n} propositions"
                        )
                    labels[key] = values
    except (OSError, EOFError, zipfile.BadZipFile) as ex:
        raise ValueError(f"{path}: cannot read as .npz ({type(ex).__name__}: {ex})") from ex
    except ValueError as ex:
        message = str(ex)
        raise ValueError(message if message.startswith(str(path)) else f"{path}: {message}") from ex
    props = labels.get("propositions") or [f"proposition {k}" for k in range(n)]
    ids = labels.get("topic_ids") or [str(k) for k in range(n)]
    return DriftRun(
        name=path.stem, probs=probs, propositions=props, topic_ids=ids, source=str(path)
    )
