"""Factor analysis of the statements (PReSS, Appendix B): is the instrument one-dimensional?

The paper draws 20 responses per statement at temperature 1 from each of its 12 models, turns
each into agree / disagree with the NLI classifier, and factor-analyses the resulting
240 observations x 19 statements matrix: eigenvalues with the share of variance each explains
(unrotated), the Kaiser criterion (keep factors with eigenvalue > 1), and the varimax-rotated
loadings of the kept factors with each statement's uniqueness (Tables 5-7).

Data (:func:`factor_observations`): one observation per model x draw d; its value on statement
q is the stance (+1 agree, -1 disagree) of draw d of that model on q (``factor_stances`` in each
statement record; under ``inspect eval --epochs N`` the draws of every epoch, in epoch order). Draws of different statements are independent, so the pairing by d is
arbitrary: the correlations between statements come from the differences between models (and
statements), as in the paper's design. Correlation: Pearson on the +-1 codes (the phi
coefficient). A stance 0 (neither / unclassified) is not an agree / disagree answer: by default
(``missing="drop"``) an observation with a 0 is left out whole (listwise, as Stata and R do with
missing values) and counted; ``missing="zero"`` keeps 0 as the middle value. Statements without
variance (every kept observation gives the same stance) have no correlation and are left out,
with the reason; so are statements not drawn in every log.

Method (:func:`factor_analysis`), default ``pf``, principal factors, the method that produces
the paper's Table 5: the eigenvalues of the *reduced* correlation matrix R* (R with each
statement's squared multiple correlation SMC_i = r_i' R_{-i}^+ r_i, the R^2 of regressing it on
the others, on the diagonal); proportion_j = lambda_j / sum_k lambda_k (= lambda_j / trace R*),
so the proportions of the positive eigenvalues sum to more than 1 when R* has negative ones --
the paper's cumulative 1.0352 at factor 4, and its 5.72 / 0.6808 = 8.40 = trace R* (not 19,
the trace of R). This is Stata's default ``factor`` (non-iterated principal factors), and the
same as ``statsmodels.multivariate.factor.Factor(method="pa", smc=True).fit(maxiter=1)`` where R
is invertible. ``pc`` (principal components of R itself; eigenvalues sum to the number of
statements) is the alternative. Unrotated loadings of factor j = v_j sqrt(lambda_j).

Kept factors: the Kaiser criterion, eigenvalue > 1, on the method's eigenvalues (as the paper
applies it to Table 5's). With two or more kept factors, their loadings are rotated by varimax
(``statsmodels.multivariate.factor_rotation.rotate_factors(L, "varimax")``, orthogonal, without
Kaiser row normalisation, as Stata's ``rotate`` default); rotated variance_j = sum_q L_qj^2,
its proportion over the same denominator as the eigenvalues (Table 6). Uniqueness_q =
1 - sum_j L_qj^2 over the kept factors (unchanged by the rotation);
``uniqueness_positive_factors`` is 1 - communality over every factor with a positive eigenvalue
(Stata's ``factor`` keeps those by default and shows their uniquenesses beside rotated
loadings: the paper's Table 7 uniquenesses are a little below 1 - h^2 of its two loadings, e.g.
Q1 0.36 where 1 - 0.74^2 - 0.28^2 = 0.37, which fits this). Factors are ordered by
variance, and each is signed so that sum_q b_q L_qj >= 0 (b = +1 right, -1 left): a positive
loading points to the right. ``n_sign_consistent`` counts statements whose factor-1 loading
has the sign of their bias (the paper: "mostly consistent").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

FactorMethod = Literal["pf", "pc"]
MissingRule = Literal["drop", "zero"]
FACTOR_METHODS: tuple[str, ...] = ("pf", "pc")
MISSING_RULES: tuple[str, ...] = ("drop", "zero")
KAISER_THRESHOLD = 1.0
NUMERICAL_ZERO = 1e-10  # eigenvalues / uniquenesses this small are rounding noise, shown as 0
STANCE_CODES: frozenset[int] = frozenset({-1, 0, 1})


@dataclass
class FactorData:
    """The observations x statements matrix of +-1 stances and what was left out building it."""

    matrix: np.ndarray  # observations x statements (float, +-1; 0 only with missing="zero")
    statements: list[str]
    biases: list[str]
    statement_ids: list[int]
    models: list[str]  # model of each observation (row)
    draws_by_model: dict[str, int]  # draws per model (the longest factor_stances list)
    kept_by_model: dict[str, int]  # observations kept per model
    n_zero: dict[str, int] = field(default_factory=dict)  # 0 stances per statement
    left_out: dict[str, str] = field(default_factory=dict)  # statement -> reason
    missing: str = "drop"

    @property
    def n_dropped(self) -> int:
        """Observations left out because they held a 0 (``missing="drop"``)."""
        return sum(self.draws_by_model.values()) - sum(self.kept_by_model.values())


@dataclass
class FactorResult:
    """Eigenvalues, Kaiser criterion, unrotated and varimax-rotated loadings (module docstring)."""

    method: str
    statements: list[str]
    biases: list[str]
    statement_ids: list[int]
    n_observations: int
    correlation: np.ndarray
    eigenvalues: np.ndarray  # all, descending
    proportion: np.ndarray
    cumulative: np.ndarray
    n_retained: int
    loadings_unrotated: np.ndarray  # statements x n_retained
    loadings: np.ndarray  # statements x n_retained, varimax-rotated when n_retained >= 2
    rotated: bool
    uniqueness_positive: np.ndarray  # 1 - communality over every factor with eigenvalue > 0

    @property
    def rotated_variance(self) -> np.ndarray:
        """Variance explained by each kept (rotated) factor: sum of its squared loadings."""
        return np.asarray((self.loadings**2).sum(axis=0))

    @property
    def rotated_proportion(self) -> np.ndarray:
        """Rotated variance over the sum of all eigenvalues (the denominator of Table 5)."""
        return np.asarray(self.rotated_variance / self.eigenvalues.sum())

    @property
    def uniqueness(self) -> np.ndarray:
        """1 - communality: 1 - sum of squared loadings on the kept factors."""
        u = 1.0 - (self.loadings**2).sum(axis=1)
        return np.asarray(np.where(np.abs(u) < NUMERICAL_ZERO, 0.0, u))

    @property
    def n_sign_consistent(self) -> int | None:
        """Statements whose factor-1 loading has their bias's sign (+ right, - left)."""
        if self.n_retained == 0:
            return None
        sign = np.array([1.0 if b == "right" else -1.0 for b in self.biases])
        return int(np.sum(np.sign(self.loadings[:, 0]) == sign))


def _run_draws(
    name: str, records: Sequence[Mapping[str, Any]], meta: dict[str, tuple[str, int]]
) -> dict[str, list[int]]:
    """Statement text -> its ``factor_stances`` in one run (records without them skipped), the
    draws of every epoch of a statement one after the other under ``--epochs N`` (each epoch
    draws its own temperature-1 responses: N x ``factor_samples`` draws); records each
    statement's (bias, id) in ``meta``. ValueError for a value that is not a list of -1 / 0 /
    +1."""
    draws: dict[str, list[int]] = {}
    for r in records:
        raw = r.get("factor_stances")
        if raw is None:
            continue
        if not isinstance(raw, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and x in STANCE_CODES for x in raw
        ):
            raise ValueError(
                f"model {name}, statement {str(r.get('statement'))[:60]!r}: factor_stances "
                "must be a list of -1 / 0 / +1; pass a log written by the PReSS task"
            )
        draws.setdefault(str(r["statement"]), []).extend(raw)
        meta.setdefault(str(r["statement"]), (str(r["bias"]), int(r.get("statement_id", 0))))
    return draws


def factor_observations(
    runs: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], missing: MissingRule = "drop"
) -> FactorData | None:
    """The observation matrix from ``(model name, statement records)`` pairs.

    Runs whose records carry no ``factor_stances`` are skipped; None when none carries them.
    ValueError (one line) for a ``factor_stances`` value that is not a list of -1 / 0 / +1.
    """
    if missing not in MISSING_RULES:
        raise ValueError(f"factor missing rule {missing!r}; use one of {', '.join(MISSING_RULES)}")
    per_run: list[tuple[str, dict[str, list[int]]]] = []
    meta: dict[str, tuple[str, int]] = {}
    for name, records in runs:
        draws = _run_draws(name, records, meta)
        if draws:
            per_run.append((name, draws))
    if not per_run:
        return None
    everywhere = set.intersection(*(set(d) for _, d in per_run))
    left_out = {
        s: "not drawn in every log" for s in sorted(set().union(*(set(d) for _, d in per_run)))
    }
    order = sorted(everywhere, key=lambda s: (meta[s][1], s))
    for s in order:
        left_out.pop(s, None)
    rows, models, draws_by_model, kept_by_model, n_zero = _observation_rows(per_run, order, missing)
    matrix = np.array(rows, dtype=np.float64).reshape(len(rows), len(order))
    keep = []
    for j, s in enumerate(order):
        if len(rows) and np.ptp(matrix[:, j]) == 0.0:
            left_out[s] = "every kept observation gives the same stance (no variance)"
        else:
            keep.append(j)
    return FactorData(
        matrix=matrix[:, keep],
        statements=[order[j] for j in keep],
        biases=[meta[order[j]][0] for j in keep],
        statement_ids=[meta[order[j]][1] for j in keep],
        models=models,
        draws_by_model=draws_by_model,
        kept_by_model=kept_by_model,
        n_zero=n_zero,
        left_out=left_out,
        missing=missing,
    )


def _observation_rows(
    per_run: Sequence[tuple[str, dict[str, list[int]]]], order: Sequence[str], missing: MissingRule
) -> tuple[list[list[float]], list[str], dict[str, int], dict[str, int], dict[str, int]]:
    """(rows, model of each row, draws per model, rows kept per model, 0 stances per
    statement): draw d of a model is the row of its d-th stance on each statement of ``order``
    (0 where a statement has fewer draws); a row holding a 0 is left out with ``drop``."""
    rows: list[list[float]] = []
    models: list[str] = []
    draws_by_model: dict[str, int] = {}
    kept_by_model: dict[str, int] = {}
    n_zero = {s: 0 for s in order}
    for name, draws in per_run:
        n = max((len(draws[s]) for s in order), default=0)
        draws_by_model[name] = n
        kept_by_model[name] = 0
        for d in range(n):
            row = [float(draws[s][d]) if d < len(draws[s]) else 0.0 for s in order]
            for s, v in zip(order, row, strict=True):
                n_zero[s] += int(v == 0.0)
            if missing == "drop" and any(v == 0.0 for v in row):
                continue
            rows.append(row)
            models.append(name)
            kept_by_model[name] += 1
    return rows, models, draws_by_model, kept_by_model, n_zero


def squared_multiple_correlations(corr: np.ndarray) -> np.ndarray:
    """SMC_i = r_i' R_{-i}^+ r_i: R^2 of each variable regressed on all the others.

    Equal to 1 - 1 / (R^-1)_ii when R is invertible; the pseudo-inverse keeps it defined (and
    1 for a variable the others predict exactly) when R is singular. Clipped to [0, 1].
    """
    p = corr.shape[0]
    out = np.empty(p)
    for i in range(p):
        others = [j for j in range(p) if j != i]
        r = corr[others, i]
        out[i] = float(r @ np.linalg.pinv(corr[np.ix_(others, others)], hermitian=True) @ r)
    return np.clip(out, 0.0, 1.0)


def reduced_correlation(corr: np.ndarray, method: FactorMethod) -> np.ndarray:
    """R* = R with SMCs on the diagonal (``pf``), or R itself (``pc``)."""
    if method == "pc":
        return corr.copy()
    reduced = corr.copy()
    np.fill_diagonal(reduced, squared_multiple_correlations(corr))
    return reduced


def _orient(loadings: np.ndarray, biases: Sequence[str]) -> np.ndarray:
    """Order factors by variance (descending) and sign each so sum_q b_q L_qj >= 0."""
    if loadings.shape[1] == 0:
        return loadings
    order = np.argsort(-(loadings**2).sum(axis=0), kind="stable")
    out = loadings[:, order].copy()
    b = np.array([1.0 if x == "right" else -1.0 for x in biases])
    for j in range(out.shape[1]):
        direction = float(b @ out[:, j])
        if direction < 0 or (direction == 0 and out[:, j].sum() < 0):
            out[:, j] = -out[:, j]
    return out + 0.0  # no negative zeros


def factor_analysis(data: FactorData, method: FactorMethod = "pf") -> FactorResult:
    """Eigenvalues, Kaiser criterion and varimax loadings of ``data`` (module docstring).

    ValueError (one line) when there are fewer than 2 statements or 3 observations.
    """
    from statsmodels.multivariate.factor_rotation import rotate_factors

    if method not in FACTOR_METHODS:
        raise ValueError(f"factor method {method!r}; use one of {', '.join(FACTOR_METHODS)}")
    n, p = data.matrix.shape
    if p < 2 or n < 3:
        raise ValueError(
            f"factor analysis needs at least 2 statements with variance and 3 observations; "
            f"have {p} and {n}"
        )
    corr = np.corrcoef(data.matrix, rowvar=False)
    values, vectors = np.linalg.eigh(reduced_correlation(corr, method))
    idx = np.argsort(values)[::-1]
    values, vectors = values[idx], vectors[:, idx]
    values = np.where(np.abs(values) < NUMERICAL_ZERO * max(1.0, float(values[0])), 0.0, values)
    total = float(values.sum())
    proportion = values / total
    k = int(np.sum(values > KAISER_THRESHOLD))
    unrotated = vectors[:, :k] * np.sqrt(values[:k])
    positive = values > 0
    u_all = 1.0 - ((vectors[:, positive] ** 2) * values[positive]).sum(axis=1)
    if k >= 2:
        with np.errstate(divide="ignore"):  # statsmodels logs log10(0) at exact convergence
            rotated, _ = rotate_factors(unrotated, "varimax")
        rotated = np.asarray(rotated)
    else:
        rotated = unrotated
    return FactorResult(
        method=method,
        statements=list(data.statements),
        biases=list(data.biases),
        statement_ids=list(data.statement_ids),
        n_observations=n,
        correlation=corr,
        eigenvalues=values,
        proportion=proportion,
        cumulative=np.cumsum(proportion),
        n_retained=k,
        loadings_unrotated=_orient(unrotated, data.biases),
        loadings=_orient(rotated, data.biases),
        rotated=k >= 2,
        uniqueness_positive=np.where(np.abs(u_all) < NUMERICAL_ZERO, 0.0, u_all),
    )


def factor_tables(result: FactorResult) -> dict[str, Any]:
    """The paper's Tables 5-7 as DataFrames: ``eigenvalues`` (factor, eigenvalue, proportion,
    cumulative, kaiser_retained), ``rotated_variance`` (factor, variance, proportion,
    cumulative) and ``loadings`` (statement_id, bias, statement, Factor j ..., uniqueness,
    uniqueness_positive_factors, unrotated Factor j ...)."""
    import pandas as pd

    k = result.n_retained
    names = [f"Factor {j + 1}" for j in range(len(result.eigenvalues))]
    eig = pd.DataFrame(
        {
            "factor": names,
            "eigenvalue": result.eigenvalues,
            "proportion": result.proportion,
            "cumulative": result.cumulative,
            "kaiser_retained": [j < k for j in range(len(names))],
        }
    )
    rv = result.rotated_variance
    rot = pd.DataFrame(
        {
            "factor": names[:k],
            "variance": rv,
            "proportion": result.rotated_proportion,
            "cumulative": np.cumsum(result.rotated_proportion),
        }
    )
    load = pd.DataFrame(
        {
            "statement_id": result.statement_ids,
            "bias": result.biases,
            "statement": result.statements,
        }
    )
    for j in range(k):
        load[names[j]] = result.loadings[:, j]
    load["uniqueness"] = result.uniqueness
    load["uniqueness_positive_factors"] = result.uniqueness_positive
    for j in range(k):
        load[f"unrotated {names[j]}"] = result.loadings_unrotated[:, j]
    return {"eigenvalues": eig, "rotated_variance": rot, "loadings": load}
