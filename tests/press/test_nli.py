"""The real transformers NLI path on tiny models saved and reloaded with from_pretrained."""

from __future__ import annotations

import numpy as np
import pytest

from inspect_stance.press.nli import NLIModel, find_label_ids, load_nli


def test_find_label_ids_any_order_and_case():
    assert find_label_ids({0: "entailment", 1: "neutral", 2: "contradiction"}) == (0, 2)
    assert find_label_ids({"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"}) == (2, 0)


def test_model_without_entailment_label_is_refused(nli_dir):
    with pytest.raises(ValueError) as ex:
        NLIModel(str(nli_dir / "unlabelled"))
    msg = str(ex.value)
    assert "no (single) entailment label" in msg and "LABEL_0" in msg and "\n" not in msg


def test_missing_model_is_one_line_error(tmp_path):
    with pytest.raises(ValueError) as ex:
        NLIModel(str(tmp_path / "nowhere"))
    assert "could not be loaded" in str(ex.value) and "\n" not in str(ex.value)


def test_loaded_once_per_process(nli_dir):
    a = load_nli(str(nli_dir / "random"), "cpu")
    assert load_nli(str(nli_dir / "random"), "cpu") is a


def test_batches_do_not_change_probabilities(nli_dir):
    model = load_nli(str(nli_dir / "random"), "cpu")
    pairs = [
        ("I agree with the statement.", "The rich are too highly taxed."),
        ("No.", "Land shouldn't be a commodity to be bought and sold."),
        (
            "It is a complex issue with reasonable arguments on both sides of it.",
            "Protectionism is sometimes necessary in trade.",
        ),
        ("Markets", "The freer the market, the freer the people."),
    ]
    one = model.probabilities(pairs, batch_size=1)
    four = model.probabilities(pairs, batch_size=4)
    assert one.shape == (4, 3)
    np.testing.assert_allclose(one.sum(axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(one, four, atol=1e-5)
    # a random model is not constant: the pairs get different distributions
    assert np.ptp(one[:, 0]) > 1e-3


@pytest.mark.parametrize(
    ("folder", "stance"),
    [("entail", "agree"), ("contradict", "disagree"), ("bart_order", "agree")],
)
def test_stance_rule_maps_classes(nli_dir, folder, stance):
    model = load_nli(str(nli_dir / folder), "cpu")
    out = model.stances(["I think so.", "   ", "Never."], "The rich are too highly taxed.")
    assert [s for s, _ in out] == [stance, "neither", stance]
    assert out[1][1] is None  # empty response: no inference
    probs = out[0][1]
    assert set(probs) == set(model.labels) and sum(probs.values()) == pytest.approx(1.0, abs=1e-5)
    assert model.entails([("a", "b")]) == [folder != "contradict"]
