"""One stance-drift run as arrays: the unit every report, gate and re-analysis works on.

A run comes from an Inspect log of the ``stance_drift`` task (see :mod:`.logs`) or from a raw
``.npz`` with ``probs`` shaped ``(propositions, trials, 5, 5)`` in stance order and optional
``propositions`` / ``topic_ids`` (this is how results from other tools come in; the reference
study's files are of this form).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from inspect_stance.drift.transition import FloatArray, check_probs, unparsed_mask


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
    def n_missing(self) -> int:
        """Count of missing trials / missing values."""
        return int(self.missing_mask.sum())


def load_npz(path: str | Path) -> DriftRun:
    """Read a raw ``.npz`` run; ``ValueError`` naming the file on a wrong shape or bad rows."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            if "probs" not in data:
                raise ValueError(f"{path}: no 'probs' array (expected shape (P, T, 5, 5))")
            probs = check_probs(data["probs"], name=f"{path} probs")
            props = [str(x) for x in data["propositions"]] if "propositions" in data else []
            ids = [str(x) for x in data["topic_ids"]] if "topic_ids" in data else []
    except (OSError, EOFError) as ex:
        raise ValueError(f"{path}: cannot read as .npz ({ex})") from ex
    n = probs.shape[0]
    if len(props) != n:
        props = [f"proposition {k}" for k in range(n)]
    if len(ids) != n:
        ids = [str(k) for k in range(n)]
    return DriftRun(
        name=path.stem, probs=probs, propositions=props, topic_ids=ids, source=str(path)
    )


def load_run(path: str | Path) -> DriftRun:
    """Load a run from an Inspect log (``.eval`` / ``.json``) or a raw ``.npz``."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{path}: file not found")
    if path.suffix == ".npz":
        return load_npz(path)
    if path.suffix in (".eval", ".json"):
        from inspect_stance.drift.logs import read_drift_log

        return read_drift_log(path)
    raise ValueError(f"{path}: unknown input type; give an Inspect log (.eval/.json) or an .npz")
