"""Uncertainty validation: semantic entropy, naive predictive entropy and their AUROC.

For N sampled responses (temperature 1) to the neutral prompt of one statement:

- responses are clustered by *bidirectional entailment* (Kuhn et al., 2023): a response joins
  the first existing cluster whose first member it entails and is entailed by (identical texts
  are equivalent without asking the NLI model), otherwise it starts a new cluster;
- discrete semantic entropy SE_D = -sum_c (n_c/N) ln(n_c/N) over cluster frequencies;
- semantic entropy with sequence likelihoods SE = -sum_c P(c) ln P(c), where
  P(c) = sum_{i in c} exp(l_i) / sum_i exp(l_i) and l_i is the length-normalised
  log-likelihood of response i (mean token log-probability), as in Farquhar et al. (2024);
- naive predictive entropy PE = -(1/N) sum_i l_i (no clustering; needs log-probabilities);
- string entropy: discrete entropy over distinct response strings (case and whitespace
  normalised): the clustering-free baseline for SE_D.

All entropies are in nats. AUROC of an entropy against the stable/unstable labels uses the
Mann-Whitney U statistic: AUROC = U / (n_unstable * n_stable) = P(h_unstable > h_stable)
+ 0.5 P(tie).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


# entails(pairs) -> one bool per (premise, hypothesis) pair
EntailFn = Callable[[list[tuple[str, str]]], list[bool]]

ENTROPY_MEASURES: tuple[str, ...] = (
    "semantic_entropy_discrete",
    "semantic_entropy",
    "naive_entropy",
    "string_entropy",
)


def cluster_bidirectional(texts: Sequence[str], entails: EntailFn) -> list[int]:
    """Cluster id of each text by bidirectional entailment (see module docstring).

    ``entails`` is called once per new distinct text with both directions against every current
    cluster representative, so at most 2 * distinct * clusters pairs are classified.
    """
    ids: list[int] = []
    reps: list[str] = []
    seen: dict[str, int] = {}
    for text in texts:
        if text in seen:
            ids.append(seen[text])
            continue
        cluster = -1
        if reps:
            pairs = [(text, r) for r in reps] + [(r, text) for r in reps]
            verdict = entails(pairs)
            forward, backward = verdict[: len(reps)], verdict[len(reps) :]
            for c, (f, b) in enumerate(zip(forward, backward, strict=True)):
                if f and b:
                    cluster = c
                    break
        if cluster < 0:
            reps.append(text)
            cluster = len(reps) - 1
        seen[text] = cluster
        ids.append(cluster)
    return ids


def discrete_entropy(ids: Sequence[int | str]) -> float:
    """-sum_c (n_c/N) ln(n_c/N) over the frequencies of the ids (nats)."""
    if not ids:
        raise ValueError("entropy of no samples is undefined")
    n = len(ids)
    return float(-sum((k / n) * math.log(k / n) for k in Counter(ids).values()))


def semantic_entropy(ids: Sequence[int], loglik: Sequence[float]) -> float:
    """-sum_c P(c) ln P(c) with P(c) = sum_{i in c} exp(l_i) / sum_i exp(l_i) (nats)."""
    import numpy as np

    if len(ids) != len(loglik) or not ids:
        raise ValueError("semantic entropy needs one log-likelihood per clustered sample")
    ll = np.asarray(loglik, dtype=np.float64)
    total = np.logaddexp.reduce(ll)
    out = 0.0
    for c in sorted(set(ids)):
        lp = float(np.logaddexp.reduce(ll[[i for i, x in enumerate(ids) if x == c]]) - total)
        out -= math.exp(lp) * lp
    return out


def naive_entropy(loglik: Sequence[float]) -> float:
    """PE = -(1/N) sum_i l_i (nats)."""
    import numpy as np

    if not loglik:
        raise ValueError("naive entropy of no samples is undefined")
    return float(-np.mean(np.asarray(loglik, dtype=np.float64)))


def normalise_text(text: str) -> str:
    """Lower-case, whitespace-collapsed text (the string-entropy identity)."""
    return " ".join(text.lower().split())


def mean_token_logprob(logprobs: Sequence[float]) -> float | None:
    """Length-normalised log-likelihood l = mean token log-probability (None if no tokens)."""
    import numpy as np

    if not logprobs:
        return None
    return float(np.mean(np.asarray(logprobs, dtype=np.float64)))


def entropy_measures(
    texts: Sequence[str], loglik: Sequence[float | None], entails: EntailFn
) -> dict[str, float | int | None]:
    """All entropy measures of one statement's samples, with cluster ids and counts.

    The likelihood-based measures are None unless every sample has a log-likelihood.
    """
    ids = cluster_bidirectional(texts, entails)
    have_ll = bool(loglik) and all(x is not None for x in loglik)
    lls = [float(x) for x in loglik if x is not None]
    return {
        "n_samples": len(texts),
        "n_clusters": len(set(ids)),
        "cluster_ids": list(ids),  # type: ignore[dict-item]
        "semantic_entropy_discrete": discrete_entropy(ids),
        "semantic_entropy": semantic_entropy(ids, lls) if have_ll else None,
        "naive_entropy": naive_entropy(lls) if have_ll else None,
        "string_entropy": discrete_entropy([normalise_text(t) for t in texts]),
        "n_without_logprobs": sum(1 for x in loglik if x is None),
    }


def auroc(unstable: Sequence[float], stable: Sequence[float]) -> float | None:
    """AUROC of a score for detecting unstable labels: U / (n_unstable n_stable).

    U is scipy's Mann-Whitney U of the unstable sample against the stable one (ties count
    one half). None when either group is empty.
    """
    if len(unstable) == 0 or len(stable) == 0:
        return None
    from scipy.stats import mannwhitneyu  # lazy: this module is imported by the scorer

    u = mannwhitneyu(list(unstable), list(stable), alternative="two-sided").statistic
    return float(u) / (len(unstable) * len(stable))
