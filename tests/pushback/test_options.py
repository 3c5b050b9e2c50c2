"""The pushback task's options: defaults, the conversations they plan, and one-line errors."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError
from inspect_stance.pushback.dataset import conversations
from inspect_stance.pushback.defaults import STYLES
from inspect_stance.pushback.options import PushbackOptions


def test_defaults_plan_every_style_and_the_control() -> None:
    opts = PushbackOptions.parse(limit_propositions=3)
    plan, source = conversations(opts)
    assert source == "debate_topics"
    assert len(plan) == 3 * 2 * (len(STYLES) + 1)  # propositions x stances x conditions
    assert len({c.id for c in plan}) == len(plan)
    own, _ = conversations(PushbackOptions.parse(limit_propositions=2, start="own",
                                                 styles="plain", control="false"))  # fmt: skip
    assert [c.assigned for c in own] == [None, None]


def test_press_statements_and_a_file(tmp_path) -> None:
    plan, source = conversations(PushbackOptions.parse(propositions="press", styles="plain",
                                                       control=False, start="own"))  # fmt: skip
    assert source == "press" and len(plan) == 19
    f = tmp_path / "p.txt"
    f.write_text("We should do X\nWe should do Y\n")
    plan, _ = conversations(PushbackOptions.parse(propositions=str(f), styles="plain",
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
