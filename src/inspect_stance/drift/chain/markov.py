"""Measured multi-hop chains: the k-hop matrices, their Markov projection and a test of the
Markov property (Inspect-free).

Input: ``hop_probs`` of shape ``(K, P, T, 5, 5)``: ``hop_probs[h-1, s, t, i]`` is the
stance-order vector extracted after hop ``h`` of chain ``t`` of proposition ``s`` started from
initial stance ``i`` (all-NaN when unparsed or missing; :mod:`.transition` conventions).

- **Measured k-hop matrix** ``M_k[s, i, j] = mean_t hop_probs[k-1, s, t, i, j]`` (the run's
  unparsed policy; missing chains are left out). ``M_1`` is the ordinary one-hop matrix.
- **One-hop matrices of the chain.** ``T_1 = M_1``; for ``h >= 2``,
  ``T_h[s, a, b] = J_h[s, a, b] / sum_b J_h[s, a, b]`` with
  ``J_h[s, a, b] = sum_{i, t} p_{h-1}(a) p_h(b)`` over chains parsed at both hops (``p_h`` =
  ``hop_probs[h-1, s, t, i]``): the probability that hop ``h``'s text is read as ``b`` given
  hop ``h-1``'s was read as ``a``, pooled over initial stances. The two readings are fresh,
  independent extractions of two texts, so ``J_h`` estimates their joint distribution.
- **Reading noise.** A reader that is not one-hot (every logprob run) reads a text of stance
  ``z`` as the vector ``Q[z]``; the readings of an exactly Markov relay are then not Markov
  (``rownorm(J_h) = rownorm(Q' D R Q)`` is not the relay's matrix), and a test built on
  ``rownorm(J_h)`` rejects such a relay every time. The chain's one-hop matrices are therefore
  ``T_h = S_{h-1}^+ J_h`` with ``S_{h-1} = sum p_{h-1} p_{h-1}'`` (the readings' own second
  moment): with ``S = Q' D Q`` and ``J = Q' D R Q``, ``T_h = Q^{-1} R Q`` and
  ``T_1 T_2 ... T_k = G R^{k-1} Q``, exactly what a Markov relay read through ``Q`` gives; for
  one-hot readings ``S`` is diagonal and ``T_h = rownorm(J_h)``. What it does not correct: a
  reader whose vector for texts of one stance varies from text to text (e.g. a single sampled
  letter, the frequency estimator), whose spread adds to ``S``; a rejection on such readings
  may still be reading noise rather than memory.
- **Markov projection** ``P_k = T_1 T_2 ... T_k`` (per proposition): what a Markov chain in the
  stance read after each hop predicts; with one relay in every hop it is ``M_1 T_R^{k-1}``,
  with several relays in turn the product of their hop-specific matrices. Beside it, the
  **one-hop projection** ``M_1^k`` of ``inspect-stance report --hops k``, which treats every hop
  as a generation hop.
- **Markov test** at hop ``k >= 2``, on row-normalised matrices (conditioning on a parsed
  reading: ``M_k`` under ``exclude``, rows of ``P_k`` divided by their sums) averaged over
  propositions, ``Mbar_k`` and ``Pbar_k``:
  ``D_k = (1/5) sum_i TV(Mbar_k[i], Pbar_k[i])``, ``TV(p, q) = (1/2) sum_j |p_j - q_j|``, and
  ``dSPR_k = SPR(Mbar_k) - SPR(Pbar_k)``. A cluster bootstrap over propositions (resampling
  whole propositions with their chains, ``n_boot`` times) gives percentile intervals; the
  p-value of ``H0: E[M_k - P_k] = 0`` is ``(1 + #{D(Delta* - Delta) >= D(Delta)}) / (B + 1)``
  with ``Delta = Mbar_k - Pbar_k`` and ``Delta*`` its bootstrap replicates (the bootstrap
  distribution re-centred on the null). Drift accumulates **faster** than the Markov chain
  predicts when the interval of ``dSPR_k`` lies below 0, **slower** when above, and the data
  are **consistent** with it otherwise.
- **Stationary distributions** (:func:`.hops.stationary_distribution`) of the relay chain
  measured in the chain (the relay hops' ``J_h`` pooled over hops ``2..K``, per relay; with
  several relays in turn the product over one cycle) beside that of ``M_1`` (the one-hop
  projection's endpoint), from the proposition-mean matrices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from inspect_stance.drift.chain.hops import k_hop_matrices, stationary_distribution
from inspect_stance.drift.metrics.patterns import drift_patterns
from inspect_stance.drift.metrics.spr import stance_preservation_rate
from inspect_stance.drift.transition import FloatArray, nanmean, unparsed_mask
from inspect_stance.stances import N_STANCES

DEFAULT_BOOTSTRAP = 2000
ALPHA = 0.05


def measured_matrices(
    hop_probs: np.ndarray, missing: np.ndarray | None = None, unparsed: str = "failure"
) -> FloatArray:
    """``M_k`` for ``k = 1..K``, shape ``(K, P, 5, 5)``: the mean over present chains of each
    hop's vectors; an unparsed reading counts as a zero vector (``failure``) or is left out
    (``exclude``); a missing chain (``missing[s, t, i]``) is always left out. NaN rows where
    no chain counts."""
    arr = np.asarray(hop_probs, dtype=np.float64)
    absent = np.zeros(arr.shape[1:4], dtype=bool) if missing is None else np.asarray(missing)
    bad = unparsed_mask(arr)  # (K, P, T, 5)
    counted = ~absent[None] & (~bad if unparsed == "exclude" else True)
    values = np.where(counted[..., None] & ~bad[..., None], np.nan_to_num(arr, nan=0.0), 0.0)
    n = counted.sum(axis=2)  # (K, P, 5)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = values.sum(axis=2) / n[..., None]
    return np.where(n[..., None] > 0, out, np.nan)


def joint_counts(prev: np.ndarray, nxt: np.ndarray) -> FloatArray:
    """``J[s, a, b] = sum_{t, i} prev[s, t, i, a] * nxt[s, t, i, b]`` over chains parsed at
    both hops, shape ``(P, 5, 5)``."""
    a = np.asarray(prev, dtype=np.float64)
    b = np.asarray(nxt, dtype=np.float64)
    ok = ~(unparsed_mask(a) | unparsed_mask(b))
    a = np.where(ok[..., None], np.nan_to_num(a, nan=0.0), 0.0)
    b = np.where(ok[..., None], np.nan_to_num(b, nan=0.0), 0.0)
    return np.einsum("stia,stib->sab", a, b)


def row_normalise(matrices: np.ndarray) -> FloatArray:
    """Rows divided by their sums; a row with no mass (or NaN) becomes NaN."""
    arr = np.asarray(matrices, dtype=np.float64)
    sums = arr.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(sums > 0, arr / sums, np.nan)


def noise_corrected(joint: np.ndarray, gram: np.ndarray) -> FloatArray:
    """``A_h = S_{h-1}^+ J_h`` per proposition (``S^+`` the pseudo-inverse), NaN rows where
    hop ``h-1`` was never read in that state. Rows sum to 1 (``S 1 = J 1`` for readings that
    sum to 1); entries may be negative: ``A`` is a linear map of reading vectors."""
    s = np.asarray(gram, dtype=np.float64)
    out = np.linalg.pinv(s, rcond=1e-10, hermitian=True) @ np.asarray(joint, dtype=np.float64)
    never = np.diagonal(s, axis1=-2, axis2=-1) <= 0
    return np.where(never[..., None], np.nan, out)


def one_hop_matrices(
    hop_probs: np.ndarray, missing: np.ndarray | None = None, correct_reading: bool = True
) -> FloatArray:
    """``T_1 = M_1`` (rows normalised) and, for ``h >= 2``, the reading-noise-corrected
    ``T_h = S_{h-1}^+ J_h`` with ``S_{h-1}[s, a, b] = sum_{i, t} p_{h-1}(a) p_{h-1}(b)`` over
    the chains of ``J_h`` (:func:`noise_corrected`; ``correct_reading=False``: ``J_h / rowsum``,
    equal to it for one-hot readings); shape ``(K, P, 5, 5)``; NaN for a row never read."""
    arr = np.asarray(hop_probs, dtype=np.float64)
    if missing is not None:
        arr = np.where(np.asarray(missing)[None, ..., None], np.nan, arr)
    out = np.empty(arr.shape[:2] + (N_STANCES, N_STANCES))
    out[0] = row_normalise(measured_matrices(arr[:1], None, "exclude")[0])
    for h in range(1, arr.shape[0]):
        joint = joint_counts(arr[h - 1], arr[h])
        if not correct_reading:
            out[h] = row_normalise(joint)
            continue
        both = np.where(unparsed_mask(arr[h])[..., None], np.nan, arr[h - 1])
        out[h] = noise_corrected(joint, joint_counts(both, arr[h - 1]))
    return out


def markov_projection(one_hop: np.ndarray) -> FloatArray:
    """``P_k = T_1 T_2 ... T_k`` for ``k = 1..K``, rows renormalised, shape ``(K, P, 5, 5)``.

    A row of ``T_h`` never read (NaN) multiplies a zero weight and counts as zero; a
    proposition whose ``T_1`` has a NaN row has NaN projections."""
    arr = np.asarray(one_hop, dtype=np.float64)
    bad = np.isnan(arr[0]).any(axis=(-2, -1))
    out = np.empty_like(arr)
    current = np.nan_to_num(arr[0], nan=0.0)
    out[0] = current
    for h in range(1, arr.shape[0]):
        current = current @ np.nan_to_num(arr[h], nan=0.0)
        out[h] = row_normalise(current)
    out[:, bad] = np.nan
    return out


def tv_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean total-variation distance over rows: ``(1/5) sum_i (1/2) sum_j |a_ij - b_ij|``."""
    return float(0.5 * np.abs(np.asarray(a) - np.asarray(b)).sum(axis=-1).mean())


#: the caveat a rejection carries when the readings are sampled letters (frequency estimator)
SAMPLED_CAVEAT = (
    "readings are sampled letters (frequency estimator): the reading-noise correction is not "
    "exact for them, so this may be reading noise rather than relay memory"
)


@dataclass
class MarkovTest:
    """The Markov test at one hop (see the module docstring)."""

    hop: int
    distance: float
    distance_ci: tuple[float, float]
    p_value: float
    spr_difference: float
    spr_difference_ci: tuple[float, float]
    verdict: str  # "faster" | "slower" | "consistent"
    n_propositions: int
    #: why a rejection may not be read as relay memory (empty: it may), see :data:`SAMPLED_CAVEAT`
    caveat: str = ""


def markov_test(
    measured: np.ndarray,
    projected: np.ndarray,
    hop: int,
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    caveat: str = "",
) -> MarkovTest:
    """Cluster-bootstrap test of ``M_k = P_k`` from per-proposition row-normalised matrices
    ``measured`` and ``projected`` (``(P, 5, 5)`` each); propositions with a NaN row in either
    are left out. ``caveat`` goes with a rejection ("faster" / "slower") only."""
    m = np.asarray(measured, dtype=np.float64)
    p = np.asarray(projected, dtype=np.float64)
    keep = ~(np.isnan(m).any(axis=(-2, -1)) | np.isnan(p).any(axis=(-2, -1)))
    m, p = m[keep], p[keep]
    n = int(m.shape[0])
    if n == 0:
        nan2 = (float("nan"), float("nan"))
        return MarkovTest(hop, float("nan"), nan2, float("nan"), float("nan"), nan2, "n/a", 0)
    delta = m.mean(axis=0) - p.mean(axis=0)
    dist = tv_distance(delta, 0.0 * delta)
    d_spr = float(np.mean(np.diagonal(delta)))
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    deltas = m[idx].mean(axis=1) - p[idx].mean(axis=1)  # (B, 5, 5)
    boot_d = 0.5 * np.abs(deltas).sum(axis=-1).mean(axis=-1)
    null_d = 0.5 * np.abs(deltas - delta).sum(axis=-1).mean(axis=-1)
    boot_spr = np.diagonal(deltas, axis1=-2, axis2=-1).mean(axis=-1)
    q = (100 * ALPHA / 2, 100 * (1 - ALPHA / 2))
    d_ci = tuple(float(x) for x in np.percentile(boot_d, q))
    s_ci = tuple(float(x) for x in np.percentile(boot_spr, q))
    p_value = float((1 + np.sum(null_d >= dist)) / (n_boot + 1))
    verdict = "faster" if s_ci[1] < 0 else "slower" if s_ci[0] > 0 else "consistent"
    why = caveat if verdict != "consistent" else ""
    return MarkovTest(hop, dist, d_ci, p_value, d_spr, s_ci, verdict, n, why)  # type: ignore[arg-type]


def relay_chain_matrix(hop_probs: np.ndarray, relay_of_hop: Sequence[int]) -> FloatArray:
    """The relay chain's one-hop matrix from the proposition-pooled ``J_h``: per relay ``r``
    ``R_r = rownorm(sum_{h: relay r} sum_s J_h[s])``; with several relays in turn the product
    ``R_0 R_1 ...`` over one cycle. ``relay_of_hop[h-2]`` is hop ``h``'s relay index."""
    arr = np.asarray(hop_probs, dtype=np.float64)
    n_relays = max(relay_of_hop) + 1
    pooled = np.zeros((n_relays, N_STANCES, N_STANCES))
    for h in range(1, arr.shape[0]):
        pooled[relay_of_hop[h - 1]] += joint_counts(arr[h - 1], arr[h]).sum(axis=0)
    out = np.eye(N_STANCES)
    for r in range(n_relays):
        out = out @ np.nan_to_num(row_normalise(pooled[r]), nan=0.0)
    return row_normalise(out)


@dataclass
class HopRow:
    """What is known after one hop (``spr*``: mean and SE over propositions)."""

    hop: int
    relay: str | None
    measured: FloatArray  # proposition-mean M_k (run policy)
    projected: FloatArray  # proposition-mean P_k (row-normalised)
    one_hop_projection: FloatArray  # proposition-mean M_1^k (run policy)
    spr: tuple[float, float]
    spr_parsed: tuple[float, float]  # M_k under exclude: what the projection is compared with
    spr_projected: tuple[float, float]
    spr_one_hop_projection: tuple[float, float]
    patterns: dict[str, tuple[float, float]]
    test: MarkovTest | None


@dataclass
class ChainAnalysis:
    """Every hop of a chain run, the stationary distributions and the run's counts."""

    hops: list[HopRow]
    stationary_relay: FloatArray
    stationary_relay_unique: bool
    stationary_one_hop: FloatArray
    stationary_one_hop_unique: bool
    unparsed_by_hop: list[int]
    n_chains: int
    n_missing: int  # chains absent (unfinished or never run): left out of every matrix
    unparsed_policy: str
    notes: list[str] = field(default_factory=list)


def analyse_chain(
    hop_probs: np.ndarray,
    relays: Sequence[str | None],
    missing: np.ndarray | None = None,
    unparsed: str = "failure",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    correct_reading: bool = True,
    sampled_readings: bool = False,
) -> ChainAnalysis:
    """The chain analysis of the module docstring; ``relays[h-1]`` names hop ``h``'s relay
    (``None`` for hop 1); ``correct_reading=False`` projects with ``rownorm(J_h)`` (the
    uncorrected null, "Markov in the readings"); ``sampled_readings`` (single sampled letters,
    whose spread the correction does not remove): every rejection gets :data:`SAMPLED_CAVEAT`."""
    arr = np.asarray(hop_probs, dtype=np.float64)
    if missing is not None:
        arr = np.where(np.asarray(missing)[None, ..., None], np.nan, arr)
    measured = measured_matrices(arr, missing, unparsed)
    conditional = measured_matrices(arr, missing, "exclude")
    projected = markov_projection(one_hop_matrices(arr, missing, correct_reading))
    rows = []
    for k in range(1, arr.shape[0] + 1):
        one_hop_k = k_hop_matrices(measured[0], k)
        test = None
        if k >= 2:
            caveat = SAMPLED_CAVEAT if sampled_readings else ""
            test = markov_test(conditional[k - 1], projected[k - 1], k, n_boot, seed, caveat)
        rows.append(
            HopRow(
                hop=k,
                relay=relays[k - 1],
                measured=nanmean(measured[k - 1], axis=0),
                projected=nanmean(projected[k - 1], axis=0),
                one_hop_projection=nanmean(one_hop_k, axis=0),
                spr=stance_preservation_rate(measured[k - 1]),
                spr_parsed=stance_preservation_rate(conditional[k - 1]),
                spr_projected=stance_preservation_rate(projected[k - 1]),
                spr_one_hop_projection=stance_preservation_rate(one_hop_k),
                patterns=drift_patterns(measured[k - 1]),
                test=test,
            )
        )
    names = [r for r in relays[1:]]
    order = list(dict.fromkeys(names))
    relay_matrix = relay_chain_matrix(arr, [order.index(r) for r in names])
    pi_relay, u_relay = stationary_distribution(relay_matrix)
    pi_one, u_one = stationary_distribution(nanmean(measured[0], axis=0))
    present = ~np.asarray(missing) if missing is not None else np.ones(arr.shape[1:4], bool)
    unparsed_by_hop = [int((unparsed_mask(arr[h]) & present).sum()) for h in range(arr.shape[0])]
    return ChainAnalysis(
        hops=rows,
        stationary_relay=pi_relay,
        stationary_relay_unique=u_relay,
        stationary_one_hop=pi_one,
        stationary_one_hop_unique=u_one,
        unparsed_by_hop=unparsed_by_hop,
        n_chains=int(present.sum()),
        n_missing=int((~present).sum()),
        unparsed_policy=unparsed,
    )
