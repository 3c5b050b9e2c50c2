"""Agreement among judges and between judges and people.

Krippendorff's alpha (``krippendorff`` package): ``alpha = 1 - D_o / D_e`` with ``D_o`` the
observed and ``D_e`` the expected disagreement over pairable values. Two codings:

- ``ordinal``: labels 1..5 on the ordinal metric, ``refusal`` and missing answers as missing
  values (refusal is not a point on the stance scale);
- ``nominal``: the six categories 1..5 and refusal (coded 6) on the nominal metric, so
  disagreements about refusing count too.

Alpha is NaN when it is undefined (fewer than two coders, no unit coded by two coders, or a
single observed value so that ``D_e = 0``).

Judge-human agreement on responses that carry both a human label and an ensemble label
(``1``..``5`` or ``refusal``; responses without an ensemble majority are counted separately):
``exact`` = share with the same label; ``within1`` = share with the same label or two scale
labels at most one point apart (refusal only matches refusal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from inspect_stance.construction.labels import LABELS, REFUSAL, label_score
from inspect_stance.construction.records import Record
from inspect_stance.logfile import sample_of
from inspect_stance.stats.agreement import krippendorff_alpha, too_few_human_labels

ORDINAL = "ordinal"
NOMINAL = "nominal"
_REFUSAL_CODE = 6


def code_label(label: str | None, level: str) -> float:
    """Numeric code of a label for alpha: 1..5; refusal -> NaN (ordinal) or 6 (nominal)."""
    if label is None:
        return math.nan
    score = label_score(label)
    if score is not None:
        return float(score)
    if label == REFUSAL and level == NOMINAL:
        return float(_REFUSAL_CODE)
    return math.nan


def alpha(matrix: Sequence[Sequence[str | None]], level: str = ORDINAL) -> float:
    """Krippendorff's alpha of a coders x units label matrix (see module for the codings;
    :func:`inspect_stance.stats.agreement.krippendorff_alpha`)."""
    if level not in (ORDINAL, NOMINAL):
        raise ValueError(f"level must be {ORDINAL!r} or {NOMINAL!r}")
    if len(matrix) < 2 or not len(matrix[0]):
        return math.nan
    data = [[code_label(v, level) for v in row] for row in matrix]
    domain = [1, 2, 3, 4, 5] + ([_REFUSAL_CODE] if level == NOMINAL else [])
    return krippendorff_alpha(data, "nominal" if level == NOMINAL else "ordinal", domain)


def judge_matrix(records: Sequence[Record]) -> list[list[str | None]]:
    """Judges x responses label matrix (None where a judge gave no usable answer)."""
    if not records:
        return []
    n_judges = max(len(r.judge_labels) for r in records)
    return [
        [r.judge_labels[j] if j < len(r.judge_labels) else None for r in records]
        for j in range(n_judges)
    ]


def judge_alpha(records: Sequence[Record], level: str = ORDINAL) -> float:
    """Krippendorff's alpha among the judges over ``records``."""
    return alpha(judge_matrix(records), level)


@dataclass(frozen=True)
class PairAgreement:
    """Agreement between two label sources over the responses both labelled."""

    n: int  # responses where both sides have a label
    exact: float
    within1: float
    alpha_ordinal: float
    alpha_nominal: float

    def as_dict(self) -> dict[str, float | int]:
        """Plain dict."""
        return asdict(self)


def pair_agreement(a: Sequence[str | None], b: Sequence[str | None]) -> PairAgreement:
    """Exact / within-one agreement and alpha between two label lists (same responses).

    Positions where either side is None or not a label are left out of every figure.
    """
    if len(a) != len(b):
        raise ValueError("label lists must have the same length")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x in LABELS and y in LABELS]
    if not pairs:
        return PairAgreement(0, math.nan, math.nan, math.nan, math.nan)
    exact = sum(x == y for x, y in pairs) / len(pairs)

    def near(x: str, y: str) -> bool:
        sx, sy = label_score(x), label_score(y)
        if sx is None or sy is None:
            return x == y
        return abs(sx - sy) <= 1

    within = sum(near(x, y) for x, y in pairs) / len(pairs)
    xs = [x for x, _ in pairs]
    ys = [y for _, y in pairs]
    return PairAgreement(
        n=len(pairs),
        exact=exact,
        within1=within,
        alpha_ordinal=alpha([xs, ys], ORDINAL),
        alpha_nominal=alpha([xs, ys], NOMINAL),
    )


@dataclass(frozen=True)
class HumanAgreement:
    """Ensemble-vs-human agreement, plus each judge against the human labels."""

    n_labelled: int  # records with a human label (--epochs N: each response N times)
    n_no_ensemble_label: int  # labelled records without an ensemble label (no majority, ...)
    ensemble: PairAgreement
    per_judge: dict[str, PairAgreement]
    #: one line when the agreement rests on too few human labels, else ""
    warning: str = ""
    #: the labelled responses (sample ids, an epoch's ``@e<k>`` aside): ``n_labelled`` at
    #: ``--epochs 1``; under ``--epochs N`` a response rated N times is one of them
    n_responses: int = 0

    def as_dict(self) -> dict[str, object]:
        """Plain nested dict."""
        return {
            "n_labelled": self.n_labelled,
            "n_responses": self.n_responses,
            "warning": self.warning,
            "n_no_ensemble_label": self.n_no_ensemble_label,
            "ensemble": self.ensemble.as_dict(),
            "per_judge": {k: v.as_dict() for k, v in self.per_judge.items()},
        }


def human_agreement(records: Sequence[Record]) -> HumanAgreement:
    """Judge ensemble (strict-majority outcome) and each judge against human labels: every
    labelled record is a unit (``--epochs N``: each epoch's rating of a response one more), the
    labels counted for the warning are the labelled responses (``n_responses``: one human label
    rated N times is one label)."""
    labelled = [r for r in records if r.human_label is not None]
    responses = len({sample_of(r.sample_id) for r in labelled})
    humans = [r.human_label for r in labelled]
    ensemble = pair_agreement([r.outcome for r in labelled], humans)
    judges = labelled[0].judges if labelled else ()
    per_judge = {
        name: pair_agreement(
            [r.judge_labels[j] if j < len(r.judge_labels) else None for r in labelled], humans
        )
        for j, name in enumerate(judges)
    }
    return HumanAgreement(
        n_labelled=len(labelled),
        n_no_ensemble_label=sum(r.outcome not in LABELS for r in labelled),
        ensemble=ensemble,
        per_judge=per_judge,
        warning=too_few_human_labels(responses),
        n_responses=responses,
    )
