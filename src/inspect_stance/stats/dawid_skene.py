"""Dawid-Skene aggregation of several graders' labels: each grader's confusion matrix.

Dawid & Skene (1979), "Maximum likelihood estimation of observer error-rates using the EM
algorithm", Applied Statistics 28(1). Each item ``i`` has a latent true class ``z_i`` with
prior ``p_c``; grader ``j`` gives label ``k`` with probability ``e_j[k, c]`` when ``z_i = c``.
EM, started (as crowd-kit's ``DawidSkene``) from the majority-vote shares ``T_ic`` (the share
of the graders answering ``i`` who gave ``c``):

- M-step: ``p_c = mean_i T_ic``; ``e_j[k, c] = sum_{i: y_ij = k} T_ic / sum_{i: j answered i}
  T_ic`` (entries of labels ``j`` gave at least once floored at 1e-10 before normalising);
- E-step: ``T_ic ∝ p_c * prod_j e_j[y_ij, c]`` (in logs);
- stop when the evidence lower bound per answer, ``[sum_{i,j} sum_c T_ic (log e_j[y_ij, c] +
  log p_c) - sum_{i,c} T_ic log T_ic] / n_answers``, rises by less than ``tol``, or after
  ``n_iter`` iterations.

These are crowd-kit's update rules step by step (its ``DawidSkene(n_iter=100, tol=1e-5)``),
written on numpy because crowd-kit pulls ``transformers``, ``pyarrow``, ``nltk`` and
``scikit-learn`` (about 365 MB) for these few lines; a test checks this fit against crowd-kit
when it is installed. The classes are the given ``classes`` that occur.

Where the classes are points of a scale (``scores``: class -> its position), a grader's
*offset* is its mean signed error on the scale under the fitted posterior: ``sum_i sum_{c
scored} T_ic (y_ij - c) / sum_i sum_{c scored} T_ic`` over the items it labelled with a scored
class (unscored classes on either side left out).

The latent classes are named only by where EM starts (the majority vote), so the fit is only
as good as the graders' unbiased majority: in ``benchmarks/ppi_coverage.py`` (noise sd 0.4,
400 items on a 5-point scale) the offset of a +1 grader came back within 0.04 of its realised
offset among five graders, but 0.15 too small on average among three. Gold labels (``gold``:
human labels of some items, held fixed as crowd-kit's ``true_labels``) anchor the classes:
with 10 % of the items labelled, the three-grader error fell to about 0.01.

With fewer than :data:`MIN_GRADERS` graders and no gold labels the model is not identified
(one grader: the fitted truth is its own labels, accuracy 1 by construction); the fit carries
a one-line ``warning`` (:func:`ds_warning`) and its accuracies and offsets are NaN with one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

EPS = 1e-10


@dataclass(frozen=True)
class DawidSkeneFit:
    """A fitted model: classes, priors, per-judge confusion, posteriors, offsets."""

    classes: tuple[str, ...]
    priors: np.ndarray  # (C,)
    errors: np.ndarray  # (J, K=C, C): errors[j, k, c] = P(judge j says k | true c)
    posteriors: np.ndarray  # (I, C); rows of items nobody answered are all nan
    n_iter: int
    judges: tuple[str, ...]
    offsets: tuple[float, ...]  # per judge, on the scale of ``scores`` (nan: none scored)
    #: one line when the model is not identified (:func:`ds_warning`), else ""
    warning: str = ""

    def labels(self) -> list[str | None]:
        """The most probable class per item (None where no judge answered)."""
        import numpy as np

        return [
            None if np.isnan(row).any() else self.classes[int(np.argmax(row))]
            for row in self.posteriors
        ]

    def accuracy(self, judge: int) -> float:
        """Prior-weighted chance the judge gives the true class: ``sum_c p_c e_j[c, c]``
        (NaN with one judge: its labels are the fitted truth, so it would be 1 by
        construction)."""
        import numpy as np

        if len(self.judges) < 2:
            return float("nan")
        return float((self.priors * np.diag(self.errors[judge])).sum())

    def confusion(self, judge: int) -> dict[str, dict[str, float]]:
        """``{true class: {given label: probability}}`` of one judge."""
        e = self.errors[judge]
        return {
            c: {k: float(e[ki, ci]) for ki, k in enumerate(self.classes)}
            for ci, c in enumerate(self.classes)
        }


def _encode(
    labels: Sequence[Sequence[str | None]], domain: Sequence[str] | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Items x judges matrix of class indices (-1: no answer) and the class list (the classes
    of ``domain`` that occur, in its order; default every label given, sorted)."""
    import numpy as np

    present = {x for row in labels for x in row if x is not None}
    if domain is None:
        domain = sorted(present)
    unknown = present - set(domain)
    if unknown:
        raise ValueError(f"labels {sorted(unknown)} are not among the classes {tuple(domain)}; "
                         "pass every label a grader may give as classes")  # fmt: skip
    classes = tuple(c for c in domain if c in present)
    index = {c: i for i, c in enumerate(classes)}
    y = np.array(
        [[index[x] if x is not None else -1 for x in row] for row in labels], dtype=int
    ).reshape(len(labels), -1)
    return y, classes


def _m_step(y: np.ndarray, t: np.ndarray, n_classes: int) -> np.ndarray:
    import numpy as np

    n_judges = y.shape[1]
    errors = np.zeros((n_judges, n_classes, n_classes))
    for j in range(n_judges):
        answered = y[:, j] >= 0
        np.add.at(errors[j], y[answered, j], t[answered])
        given = np.zeros(n_classes, dtype=bool)
        given[np.unique(y[answered, j])] = True
        errors[j][given] = np.maximum(errors[j][given], EPS)
        errors[j] /= errors[j].sum(axis=0, keepdims=True)
    return errors


def _log_joint(y: np.ndarray, errors: np.ndarray, n_classes: int) -> np.ndarray:
    """(I, J, C) log e_j[y_ij, c], 0 where judge j did not answer item i."""
    import numpy as np

    n_items, n_judges = y.shape
    out = np.zeros((n_items, n_judges, n_classes))
    with np.errstate(divide="ignore"):
        for j in range(n_judges):
            answered = y[:, j] >= 0
            out[answered, j] = np.log(errors[j][y[answered, j]])
    return out


def _elbo(y: np.ndarray, t: np.ndarray, priors: np.ndarray, log_e: np.ndarray) -> float:
    import numpy as np

    answered = y >= 0
    log_p = np.log(np.maximum(priors, EPS))
    joint = (t[:, None, :] * (log_e + log_p[None, None, :]) * answered[:, :, None]).sum()
    tc = np.maximum(t, EPS)
    entropy = -(np.log(tc) * tc).sum()
    return float((joint + entropy) / answered.sum())


def _golden(
    gold: Sequence[str | None] | None, rows: np.ndarray, classes: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray] | None:
    """(row mask, class index) of the answered items with a gold label among the classes."""
    import numpy as np

    if gold is None:
        return None
    g = [c for c, keep in zip(gold, rows, strict=True) if keep]
    index = np.array([classes.index(c) if c in classes else -1 for c in g])
    return index >= 0, index


def _correct(t: np.ndarray, golden: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """Rows with a gold label set to it (crowd-kit's ``true_labels`` correction)."""
    import numpy as np

    if golden is not None:
        mask, index = golden
        t = t.copy()
        t[mask] = 0.0
        t[np.flatnonzero(mask), index[mask]] = 1.0
    return t


def fit_dawid_skene(
    labels: Sequence[Sequence[str | None]],
    judges: Sequence[str],
    n_iter: int = 100,
    tol: float = 1e-5,
    gold: Sequence[str | None] | None = None,
    classes: Sequence[str] | None = None,
    scores: Mapping[str, float] | None = None,
) -> DawidSkeneFit:
    """Fit Dawid-Skene by EM to the graders' labels.

    Parameters
    ----------
    labels : sequence of sequences of str or None
        ``labels[i][j]``: grader ``j``'s label of item ``i`` (None: no answer).
    judges : sequence of str
        The graders' names, one per column.
    n_iter, tol : int, float
        The most EM iterations, and the rise of the evidence lower bound per answer below
        which EM stops.
    gold : sequence of str or None, optional
        ``gold[i]`` (e.g. a human label; None: unknown) fixes item ``i``'s posterior to its
        class at the start and after every E-step, as crowd-kit's ``fit(..., true_labels)``;
        gold labels no grader ever gave are ignored.
    classes : sequence of str, optional
        Every label a grader may give, in order (the fit keeps those that occur); default the
        labels given, sorted. A label outside it is a ``ValueError``.
    scores : mapping of str to float, optional
        Each class's position on a scale, for the graders' offsets; default none (offsets NaN).

    Returns
    -------
    DawidSkeneFit
        Classes, priors, confusion matrices, posteriors, offsets and a one-line ``warning``
        when the model is not identified (:func:`ds_warning`).

    Notes
    -----
    The EM steps, the stopping rule and the offsets are in the module docstring.

    References
    ----------
    Dawid, A. P. and Skene, A. M. (1979). Maximum likelihood estimation of observer
    error-rates using the EM algorithm. Applied Statistics 28(1), 20-28.
    """
    import numpy as np

    y, found = _encode(labels, classes)
    n_classes = len(found)
    rows: np.ndarray = np.asarray((y >= 0).any(axis=1))
    ya = y[rows]
    golden = _golden(gold, rows, found)
    counts = np.stack([(ya == c).sum(axis=1) for c in range(n_classes)], axis=1)
    t = _correct(counts / counts.sum(axis=1, keepdims=True), golden)
    priors = t.mean(axis=0)
    errors = _m_step(ya, t, n_classes)
    loss, done = -np.inf, 0
    while done < n_iter:
        done += 1
        log_e = _log_joint(ya, errors, n_classes)
        log_post = np.log(np.maximum(priors, EPS))[None, :] + log_e.sum(axis=1)
        log_post -= log_post.max(axis=1, keepdims=True)
        t = np.exp(log_post)
        t = _correct(t / t.sum(axis=1, keepdims=True), golden)
        priors = t.mean(axis=0)
        errors = _m_step(ya, t, n_classes)
        new_loss = _elbo(ya, t, priors, _log_joint(ya, errors, n_classes))
        t = np.maximum(t, EPS)
        if new_loss - loss < tol:
            break
        loss = new_loss
    posteriors = np.full((len(labels), n_classes), np.nan)
    posteriors[rows] = t
    return DawidSkeneFit(
        classes=found,
        priors=priors,
        errors=errors,
        posteriors=posteriors,
        n_iter=done,
        judges=tuple(judges),
        offsets=tuple(
            _offset(ya[:, j], t, found, scores) if ya.shape[1] > 1 and scores else math.nan
            for j in range(ya.shape[1])
        ),
        warning=ds_warning(len(judges), gold),
    )


#: fewer graders than this: Dawid-Skene is reported with a warning
MIN_GRADERS = 3


def ds_warning(n_judges: int, gold: Sequence[str | None] | None = None) -> str:
    """One line when Dawid-Skene's fit cannot be read as grader accuracy, else "": fewer than
    :data:`MIN_GRADERS` graders and no gold labels. With one grader the fitted truth is its own
    labels (accuracy 1 by construction, its offset 0); with two the model cannot tell which of
    two disagreeing graders is right."""
    if n_judges >= MIN_GRADERS or (gold is not None and any(g is not None for g in gold)):
        return ""
    return (f"Dawid-Skene needs at least {MIN_GRADERS} graders (or gold labels) to estimate "
            f"grader errors; with {n_judges} its accuracies, offsets and corrected labels are "
            "not identified")  # fmt: skip


def _offset(y_j: np.ndarray, t: np.ndarray, classes: tuple[str, ...],
            scale: Mapping[str, float]) -> float:  # fmt: skip
    import numpy as np

    scores = np.array([scale.get(c, 0.0) for c in classes], dtype=float)
    on_scale = np.array([c in scale for c in classes])
    rated = np.array([k >= 0 and bool(on_scale[k]) for k in y_j])
    if not rated.any():
        return float("nan")
    given = scores[y_j[rated]]
    weights = t[rated][:, on_scale]
    diff = given[:, None] - scores[on_scale][None, :]
    total = weights.sum()
    # rounded at 1e-9: the 1e-10 floor of the M-step leaves offsets like -8e-11 for exact judges
    return round(float((weights * diff).sum() / total), 9) if total > 0 else float("nan")
