"""The real transformers NLI path on tiny models saved and reloaded with from_pretrained.

The ``keyed`` model's weights are set by hand (tiny_nli.build_tiny_nli): entailment logit 2 when
the premise marker (agree = +1, disagree = -1) equals the hypothesis marker (agrees = +1,
disagrees = -1), else 0; so its zero-shot scores are known: e^2 / (e^2 + e^0) = 0.880797.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from inspect_stance.errors import InputError
from inspect_stance.press.nli import (
    DEFAULT_AGREE_HYPOTHESIS,
    DEFAULT_DISAGREE_HYPOTHESIS,
    NLIModel,
    find_label_ids,
    load_nli,
    zero_shot_scores,
)

STATEMENT = "The rich are too highly taxed."
# e^2 / (e^2 + e^0), computed by hand
KNOWN_SCORE = math.exp(2) / (math.exp(2) + 1.0)


def test_find_label_ids_any_order_and_case():
    assert find_label_ids({0: "entailment", 1: "neutral", 2: "contradiction"}) == (0, 2)
    assert find_label_ids({"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"}) == (2, 0)
    # zero-shot needs only the entailment class (as transformers' pipeline)
    two_way = {0: "entailment", 1: "not_entailment"}
    assert find_label_ids(two_way, need_contradiction=False) == (0, None)
    with pytest.raises(InputError, match="no \\(single\\) contradiction label"):
        find_label_ids(two_way)


def test_model_without_entailment_label_is_refused(nli_dir):
    with pytest.raises(ValueError) as ex:
        NLIModel(str(nli_dir / "unlabelled"))
    msg = str(ex.value)
    assert "no (single) entailment label" in msg and "LABEL_0" in msg and "\n" not in msg


def test_missing_model_is_one_line_error(tmp_path):
    with pytest.raises(InputError) as ex:
        NLIModel(str(tmp_path / "nowhere"))
    assert "could not be loaded" in str(ex.value) and "\n" not in str(ex.value)


def test_folder_without_config_is_one_line_error(tmp_path):
    with pytest.raises(InputError) as ex:
        NLIModel(str(tmp_path))
    assert str(ex.value) == (
        f"NLI model '{tmp_path}' is a folder without config.json; pass -T nli_model=<hub id or "
        "a folder written by save_pretrained>"
    )


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


def test_zero_shot_scores_by_hand():
    got = zero_shot_scores(np.array([[2.0, 0.0], [1.0, 1.0], [-3.0, 1.0]]))
    np.testing.assert_allclose(
        got,
        [
            [KNOWN_SCORE, 1 - KNOWN_SCORE],
            [0.5, 0.5],
            [math.exp(-3) / (math.exp(-3) + math.e), math.e / (math.exp(-3) + math.e)],
        ],
    )


def test_keyed_model_logits_are_the_hand_set_ones(nli_dir):
    model = load_nli(str(nli_dir / "keyed"), "cpu")
    assert model.labels == ["entailment", "neutral", "contradiction"]
    logits = model.logits(
        [
            ("Yes, I agree.", "The author agrees with it."),
            ("Yes, I agree.", "The author disagrees with it."),
            ("I disagree.", "The author disagrees with it."),
            ("It is complex.", "The author agrees with it."),
        ]
    )
    np.testing.assert_allclose(
        logits,
        [[2, 1, 0], [0, 1, 2], [2, 1, 0], [2, 3, 2]],
        atol=1e-3,
    )


def test_zero_shot_stances_on_hand_set_model(nli_dir):
    model = load_nli(str(nli_dir / "keyed"), "cpu")
    out = model.stances(
        [
            "I agree: taxes on the rich are too high.",
            "I disagree, they pay too little.",
            "It is a complex issue.",
            "  ",
        ],
        STATEMENT,
        batch_size=3,
    )
    assert [s for s, _ in out] == ["agree", "disagree", "neither", "neither"]
    assert out[0][1]["agree"] == pytest.approx(KNOWN_SCORE, abs=1e-5)
    assert out[1][1]["disagree"] == pytest.approx(KNOWN_SCORE, abs=1e-5)
    # no marker in the premise: both hypotheses entail equally -> an exact tie, not a guess
    assert out[2][1]["agree"] == out[2][1]["disagree"] == 0.5
    assert out[3][1] is None  # empty response: no inference


def test_zero_shot_equals_transformers_pipeline(nli_dir):
    """Our batched recipe gives the same scores as ZeroShotClassificationPipeline
    (multi_label=False) with the two hypotheses as candidate labels."""
    from transformers import pipeline

    for folder in ("random", "keyed"):
        model = load_nli(str(nli_dir / folder), "cpu")
        agree = DEFAULT_AGREE_HYPOTHESIS.format(statement=STATEMENT)
        disagree = DEFAULT_DISAGREE_HYPOTHESIS.format(statement=STATEMENT)
        responses = ["I agree with it, the rich pay a lot.", "No. I disagree strongly", "Markets"]
        ours = model.stances(responses, STATEMENT, batch_size=2)
        pipe = pipeline(
            "zero-shot-classification", model=model.model, tokenizer=model.tokenizer, device="cpu"
        )
        for response, (stance, detail) in zip(responses, ours, strict=True):
            res = pipe(response, candidate_labels=[agree, disagree], hypothesis_template="{}")
            scores = dict(zip(res["labels"], res["scores"], strict=True))
            assert detail["agree"] == pytest.approx(scores[agree], abs=1e-5)
            assert detail["disagree"] == pytest.approx(scores[disagree], abs=1e-5)
            if scores[agree] != scores[disagree]:
                assert stance == ("agree" if scores[agree] > scores[disagree] else "disagree")


@pytest.mark.parametrize(
    ("folder", "stance"),
    [("entail", "agree"), ("contradict", "disagree"), ("bart_order", "agree")],
)
def test_three_way_rule_maps_classes(nli_dir, folder, stance):
    model = load_nli(str(nli_dir / folder), "cpu")
    out = model.stances(
        ["I think so.", "   ", "Never."], "The rich are too highly taxed.", mode="three_way"
    )
    assert [s for s, _ in out] == [stance, "neither", stance]
    assert out[1][1] is None  # empty response: no inference
    probs = out[0][1]
    assert set(probs) == set(model.labels) and sum(probs.values()) == pytest.approx(1.0, abs=1e-5)
    assert model.entails([("a", "b")]) == [folder != "contradict"]


def test_three_way_on_hand_set_model(nli_dir):
    model = load_nli(str(nli_dir / "keyed"), "cpu")
    out = model.stances(
        ["I agree.", "I disagree.", "It depends."],
        STATEMENT,
        hypothesis_template="The author agrees: {statement}",
        mode="three_way",
    )
    assert [s for s, _ in out] == ["agree", "disagree", "neither"]


def test_three_way_needs_a_contradiction_class(tmp_path):
    from inspect_stance.providers.tiny_nli import build_tiny_nli

    two = build_tiny_nli(tmp_path / "two", "random", id2label={0: "entailment", 1: "other"})
    model = NLIModel(str(two), "cpu")
    model.check_mode("zero_shot")
    with pytest.raises(InputError, match="nli_mode=zero_shot"):
        model.check_mode("three_way")


def test_a_hub_id_not_in_the_cache_fails_at_once_offline(tmp_path, monkeypatch):
    """HF_HUB_OFFLINE and a model not in the cache: the one-line error, with the offline fix,
    before any download attempt (was about a minute of hub retries)."""
    import time

    import huggingface_hub.constants as hc

    monkeypatch.setattr(hc, "HF_HUB_CACHE", str(tmp_path / "hf"))  # an empty cache
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.monotonic()
    with pytest.raises(InputError) as ex:
        NLIModel("facebook/bart-large-mnli")
    assert time.monotonic() - start < 5
    msg = str(ex.value)
    assert "not in the local Hugging Face cache and HF_HUB_OFFLINE is set" in msg
    assert "inspect_stance.providers.tiny_nli DIR --mode keyed" in msg and "\n" not in msg


def test_an_unreachable_hub_is_one_look_up_not_retries(tmp_path, monkeypatch):
    """Without HF_HUB_OFFLINE, a hub that cannot be reached (an endpoint nobody listens on)
    fails after one look-up, not transformers' retries."""
    import time

    import huggingface_hub.constants as hc

    monkeypatch.setattr(hc, "HF_HUB_CACHE", str(tmp_path / "hf"))  # an empty cache
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hc, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(hc, "ENDPOINT", "http://127.0.0.1:9")  # discard port: refused at once
    start = time.monotonic()
    with pytest.raises(InputError) as ex:
        NLIModel("facebook/bart-large-mnli")
    assert time.monotonic() - start < 10
    assert "the hub cannot be reached" in str(ex.value)
