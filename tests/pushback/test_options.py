"""The pushback task's options: defaults, the conversations they plan, and one-line errors."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.pushback.dataset import conversations
from inspect_stance.pushback.defaults import STYLES
from inspect_stance.pushback.options import PushbackOptions


def test_defaults_plan_every_style_and_the_control() -> None:
    opts = PushbackOptions.parse(limit_propositions=3)
    plan, source, _ = conversations(opts)
    assert source == "debate_topics"
    assert len(plan) == 3 * 2 * (len(STYLES) + 1)  # propositions x stances x conditions
    assert len({c.id for c in plan}) == len(plan)
    own, _, _ = conversations(PushbackOptions.parse(limit_propositions=2, start="own",
                                                 styles="plain", control="false"))  # fmt: skip
    assert [c.assigned for c in own] == [None, None]


def test_press_statements_and_a_file(tmp_path) -> None:
    plan, source, _ = conversations(PushbackOptions.parse(propositions="press", styles="plain",
                                                       control=False, start="own"))  # fmt: skip
    assert source == "press" and len(plan) == 19
    f = tmp_path / "p.txt"
    f.write_text("We should do X\nWe should do Y\n")
    plan, _, _ = conversations(PushbackOptions.parse(propositions=str(f), styles="plain",
                                                  control=False, stances="0"))  # fmt: skip
    assert sorted(c.proposition.text for c in plan) == ["We should do X", "We should do Y"]


@pytest.mark.parametrize(("raw", "says"), [
    ({"styles": "plain,shouting"}, "shouting"),
    ({"stances": "1,7"}, "stance indices 0..4"),
    ({"start": "random"}, "start"),
    ({"framing": "second_person"}, "framing"),
    ({"turns": 0}, "turns"),
    ({"reader": "someone"}, "reader"),
    ({"min_letter_mass": 2}, "min_letter_mass"),
    ({"extraction_temperature": "warm"}, "extraction_temperature"),
])  # fmt: skip
def test_bad_options_are_one_line_errors(raw: dict[str, object], says: str) -> None:
    with pytest.raises(InputError) as ex:
        PushbackOptions.parse(**raw)
    assert says in str(ex.value) and "\n" not in str(ex.value)


def test_a_missing_file_is_one_line() -> None:
    with pytest.raises(InputError, match="not found"):
        conversations(PushbackOptions.parse(propositions="no/such/file.txt"))


def test_shards_split_by_proposition_and_name_one_study() -> None:
    whole, _, entry = conversations(PushbackOptions.parse(limit_propositions=5))
    assert entry == {}
    parts = [conversations(PushbackOptions.parse(limit_propositions=5, shard=f"{k}/2"))
             for k in (1, 2)]  # fmt: skip
    props = [{c.proposition.topic_id for c in plan} for plan, _, _ in parts]
    assert props[0].isdisjoint(props[1]) and sorted(map(len, props)) == [2, 3]
    # every conversation of a proposition in its shard: the shards' conversations are the run's
    assert sorted(c.id for plan, _, _ in parts for c in plan) == sorted(c.id for c in whole)
    shards = [e["shard"] for _, _, e in parts]
    assert [s["k"] for s in shards] == [1, 2] and {s["n"] for s in shards} == {2}
    assert shards[0]["study"] == shards[1]["study"] and shards[0]["items_total"] == 5
    other = conversations(PushbackOptions.parse(limit_propositions=5, shard="1/2", turns=3))[2]
    assert other["shard"]["study"] != shards[0]["study"]  # other settings: another study


def test_more_shards_than_propositions_is_one_line_before_any_run() -> None:
    from inspect_stance.tasks.pushback import pushback

    with pytest.raises(InputError) as ex:
        pushback(limit_propositions=3, shard="1/4")
    assert "at most 3 shards" in str(ex.value) and "\n" not in str(ex.value)
    with pytest.raises(InputError, match="K/N"):
        PushbackOptions.parse(shard="half")
