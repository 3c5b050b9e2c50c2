"""Entropies and AUROC against direct hand computation."""

from __future__ import annotations

import math

import pytest

from inspect_stance.press.entropy import (
    auroc,
    cluster_bidirectional,
    discrete_entropy,
    entropy_measures,
    naive_entropy,
    semantic_entropy,
)


def test_discrete_entropy_by_hand():
    assert discrete_entropy([0, 0, 0, 0]) == 0.0
    assert discrete_entropy([0, 1, 0, 1]) == pytest.approx(math.log(2))
    # counts 2, 1, 1 of 4: -(0.5 ln 0.5 + 2 * 0.25 ln 0.25) = 1.5 ln 2
    assert discrete_entropy([3, 3, 1, 2]) == pytest.approx(1.5 * math.log(2))


def test_semantic_entropy_with_likelihoods_by_hand():
    # sequence probabilities 0.4, 0.2 (cluster 0) and 0.2 (cluster 1): P = 0.75, 0.25
    ll = [math.log(0.4), math.log(0.2), math.log(0.2)]
    expected = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    assert semantic_entropy([0, 0, 1], ll) == pytest.approx(expected)
    assert semantic_entropy([0, 0, 0], ll) == pytest.approx(0.0)
    # naive predictive entropy: -(1/N) sum l_i
    assert naive_entropy(ll) == pytest.approx(-(math.log(0.4) + 2 * math.log(0.2)) / 3)


def _entails_same_first_word(pairs):
    return [a.split()[0] == b.split()[0] for a, b in pairs]


def test_bidirectional_clustering_and_measures():
    texts = ["yes indeed", "no way", "yes sure", "no way", "maybe"]
    calls: list[int] = []

    def entails(pairs):
        calls.append(len(pairs))
        return _entails_same_first_word(pairs)

    assert cluster_bidirectional(texts, entails) == [0, 1, 0, 1, 2]
    # texts 2, 3, 5 are new and compared with 1, 2, 2 representatives both ways; the repeated
    # "no way" is not sent to the model
    assert calls == [2, 4, 4]
    m = entropy_measures(texts, [-1.0, -2.0, -1.0, -2.0, -3.0], _entails_same_first_word)
    assert m["n_clusters"] == 3
    assert m["semantic_entropy_discrete"] == pytest.approx(discrete_entropy([0, 1, 0, 1, 2]))
    assert m["string_entropy"] == pytest.approx(discrete_entropy(["a", "b", "c", "b", "d"]))
    p = [math.exp(-1) * 2, math.exp(-2) * 2, math.exp(-3)]
    p = [x / sum(p) for x in p]
    assert m["semantic_entropy"] == pytest.approx(-sum(x * math.log(x) for x in p))
    assert m["naive_entropy"] == pytest.approx(9 / 5)


def test_measures_without_logprobs_are_none():
    m = entropy_measures(["a", "b"], [None, -1.0], _entails_same_first_word)
    assert m["semantic_entropy"] is None and m["naive_entropy"] is None
    assert m["n_without_logprobs"] == 1


def test_one_way_entailment_does_not_merge():
    def entails(pairs):  # "a b" entails "a" but not the reverse
        return [b in a for a, b in pairs]

    assert cluster_bidirectional(["a", "a b"], entails) == [0, 1]


def test_auroc_by_hand():
    assert auroc([3.0, 4.0], [1.0, 2.0]) == 1.0
    assert auroc([1.0, 2.0], [3.0, 4.0]) == 0.0
    # pairs (1,1)=0.5 (1,0)=1 (2,1)=1 (2,0)=1 -> 3.5 / 4
    assert auroc([1.0, 2.0], [1.0, 0.0]) == pytest.approx(0.875)
    assert auroc([0.5] * 3, [0.5] * 2) == pytest.approx(0.5)
    assert auroc([], [1.0]) is None
