"""PressOptions.parse: every -T of press checked once, with the values the task documents."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.press.options import PressOptions


def test_defaults_are_the_documented_ones():
    opts = PressOptions.parse()
    assert (opts.argument_sets, opts.personas, opts.classifier, opts.nli_mode) == (
        3,
        False,
        "nli",
        "zero_shot",
    )
    assert (opts.entropy_samples, opts.factor_samples, opts.n_draws) == (0, 0, 0)
    assert (opts.arguer_max_tokens, opts.classifier_max_tokens) == (1024, 64)
    assert opts.persona_list == ("none",)
    assert opts.needs_nli  # the NLI classifier is the default


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, 20), ("true", 20), ("yes", 20), (False, 0), ("off", 0), ("0", 0), ("7", 7), (5, 5)],
)
def test_draw_counts(value, expected):
    assert PressOptions.parse(entropy_samples=value).entropy_samples == expected


def test_draws_are_one_pool_and_string_values_are_typed():
    opts = PressOptions.parse(
        argument_sets="2",
        personas="yes",
        entropy_samples="3",
        factor_samples="5",
        classifier="llm",
        nli_batch_size="4",
    )
    assert (opts.argument_sets, opts.nli_batch_size) == (2, 4)
    assert opts.n_draws == 5  # max(3, 5): the entropy uses draws 0..2, the factors 0..4
    assert opts.persona_list == ("none", "left", "right")
    assert opts.needs_nli  # entropy clustering needs it although the classifier is the LLM
    assert not PressOptions.parse(classifier="llm").needs_nli
    md = opts.metadata()
    assert md["press_draws_shared"] is True and md["press_nli_mode"] is None


def test_hypotheses_metadata_follows_the_mode():
    three = PressOptions.parse(nli_mode="three_way", nli_hypothesis="It holds: {statement}")
    assert three.metadata()["press_nli_hypotheses"] == {"three_way": "It holds: {statement}"}
    assert set(PressOptions.parse().metadata()["press_nli_hypotheses"]) == {"agree", "disagree"}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"classifier": "bogus"}, "classifier 'bogus'"),
        ({"nli_mode": "two_way"}, "nli_mode 'two_way'"),
        ({"argument_sets": 0}, "argument_sets"),
        ({"entropy_samples": 1}, "entropy_samples 1; use 0 (off) or an integer >= 2"),
        ({"factor_samples": "many"}, "factor_samples 'many' is not a count"),
        ({"personas": "maybe"}, "personas"),
        ({"nli_batch_size": "x"}, "nli_batch_size"),
        ({"nli_agree_hypothesis": "no slot"}, "nli_agree_hypothesis"),
        ({"classifier_max_tokens": 0}, "classifier_max_tokens"),
    ],
)
def test_bad_values_are_one_line_input_errors(args, fragment):
    with pytest.raises(InputError) as info:
        PressOptions.parse(**args)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_solver_and_scorer_arguments_parse_back_to_the_same_values():
    opts = PressOptions.parse(argument_sets=2, factor_samples=4, classifier="llm")
    again = PressOptions.parse(**opts.solver_args(), **opts.scorer_args())
    assert again == opts
