"""``-T shard=K/N``: a content split of the items, checked before any work, recorded in the log."""

from __future__ import annotations

import random

import pytest
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.errors import InputError
from inspect_stance.shards import Shard, parse_shard, select

PROPS = [f"We should adopt policy number {i}" for i in range(20)]


@pytest.mark.parametrize("bad", ["0/2", "3/2", "x", "1/0", "2", "-1/2"])
def test_bad_shard_values_are_one_line_errors(bad):
    with pytest.raises(InputError, match="shard") as info:
        parse_shard(bad)
    assert "\n" not in str(info.value)


def test_bad_shard_fails_the_task_before_reading_propositions(tmp_path):
    missing = tmp_path / "no_such_file.txt"  # reading it would be a different error
    with pytest.raises(InputError, match="shard '3/2'"):
        stance_drift(propositions=str(missing), shard="3/2")


def test_split_is_a_partition_balanced_and_independent_of_order():
    shuffled = PROPS[:]
    random.Random(1).shuffle(shuffled)
    parts = [select(PROPS, str, Shard(k, 3)) for k in (1, 2, 3)]
    again = [select(shuffled, str, Shard(k, 3)) for k in (1, 2, 3)]
    assert sorted(x for p in parts for x in p) == sorted(PROPS)
    assert sorted(len(p) for p in parts) == [6, 7, 7]
    for a, b in zip(parts, again, strict=True):
        assert set(a) == set(b)
    assert select(PROPS, str, None) == PROPS


def _task(tmp_path, lines, **kw):
    path = tmp_path / f"props{random.random()}.txt"
    path.write_text("\n".join(lines) + "\n")
    return stance_drift(propositions=str(path), trials=2, cache=False, **kw)


def test_task_keeps_its_share_and_records_the_study(tmp_path):
    one = _task(tmp_path, PROPS, shard="1/2")
    two = _task(tmp_path, list(reversed(PROPS)), shard="2/2")
    whole = _task(tmp_path, PROPS)
    m1, m2 = one.metadata["shard"], two.metadata["shard"]
    assert (m1["k"], m1["n"], m2["k"], m2["n"]) == (1, 2, 2, 2)
    assert m1["study"] == m2["study"]  # same items and settings, whatever the file's order
    assert m1["items_total"] == 20 and m1["items"] + m2["items"] == 20
    ids1 = {s.id for s in one.dataset}
    ids2 = {s.id for s in two.dataset}
    assert not ids1 & ids2 and ids1 | ids2 == {s.id for s in whole.dataset}
    assert one.metadata["n_propositions"] == m1["items"]
    assert "shard" not in whole.metadata
    other = _task(tmp_path, PROPS, shard="1/2", words_limit=50)
    assert other.metadata["shard"]["study"] != m1["study"]  # settings are in the study
    fewer = _task(tmp_path, PROPS[:19], shard="1/2")
    assert fewer.metadata["shard"]["study"] != m1["study"]  # so is the item set


def test_press_shards_its_statements_by_text_and_records_the_study():
    from inspect_stance.press.dataset import shard_statements
    from inspect_stance.press.options import PressOptions
    from inspect_stance.press.statements import Statement

    items = [Statement(i, "left" if i % 2 else "right", f"Statement {i}") for i in range(19)]
    with pytest.raises(InputError, match="shard '0/2'"):
        PressOptions.parse(shard="0/2")
    one, m1 = shard_statements(items, PressOptions.parse(shard="1/2"))
    two, m2 = shard_statements(items[::-1], PressOptions.parse(shard="2/2"))
    assert {st.text for st in one} | {st.text for st in two} == {st.text for st in items}
    assert not {st.text for st in one} & {st.text for st in two}
    assert m1["shard"]["study"] == m2["shard"]["study"]
    _, other = shard_statements(items, PressOptions.parse(shard="1/2", argument_sets=2))
    assert other["shard"]["study"] != m1["shard"]["study"]
    whole, none = shard_statements(items, PressOptions.parse())
    assert whole == items and none == {}


def test_construction_shards_whole_settings_and_records_the_study():
    from inspect_stance.construction.options import ConstructionOptions
    from inspect_stance.construction.samples import plan_construction, task_metadata

    with pytest.raises(InputError, match="shard 'x'"):
        ConstructionOptions.parse(shard="x")
    plans = [
        plan_construction(ConstructionOptions.parse(methods="templated", shard=f"{k}/2"))
        for k in (1, 2)
    ]
    whole = plan_construction(ConstructionOptions.parse(methods="templated"))
    keys = [{s.setting.key for s in p.specs} for p in plans]
    assert not keys[0] & keys[1] and keys[0] | keys[1] == {s.setting.key for s in whole.specs}
    assert len(plans[0].specs) + len(plans[1].specs) == len(whole.specs)
    m = [task_metadata(ConstructionOptions.parse(), p)["shard"] for p in plans]
    assert m[0]["study"] == m[1]["study"] and (m[0]["k"], m[1]["k"]) == (1, 2)
    assert "shard" not in task_metadata(ConstructionOptions.parse(), whole)


def test_validation_shards_whole_settings_and_records_the_study():
    from inspect_stance.validation.options import ValidationOptions
    from inspect_stance.validation.samples import plan_validation

    with pytest.raises(InputError, match="shard '3/2'"):
        ValidationOptions.parse(shard="3/2")
    plans = [
        plan_validation(ValidationOptions.parse(sources="templated", shard=f"{k}/2"))
        for k in (1, 2)
    ]
    whole = plan_validation(ValidationOptions.parse(sources="templated"))
    keys = [{s.key for s in p.settings} for p in plans]
    assert not keys[0] & keys[1] and keys[0] | keys[1] == {s.key for s in whole.settings}
    assert plans[0].shard["shard"]["study"] == plans[1].shard["shard"]["study"]
    assert whole.shard == {}
