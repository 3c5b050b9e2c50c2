"""-T min_letter_mass: strict parsing at task-build time, recorded in the log metadata, and each
trial records its raw letter masses."""

from __future__ import annotations

import pytest

from inspect_stance.errors import InputError


@pytest.fixture
def props(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("We should ban X\n")
    return path


@pytest.mark.parametrize("value", ["abc", "1.5", "-0.1", "nan", 2, True])
def test_bad_min_letter_mass_is_one_line_input_error(props, value):
    from inspect_stance.tasks.stance_drift import stance_drift

    with pytest.raises(InputError, match="min_letter_mass") as info:
        stance_drift(propositions=str(props), trials=1, min_letter_mass=value)
    assert "\n" not in str(info.value) and "between 0 and 1" in str(info.value)


def test_min_letter_mass_reaches_metadata_and_records(props, tmp_path):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log
    from inspect_stance.tasks.stance_drift import stance_drift

    task = stance_drift(propositions=str(props), trials=2, cache=False, min_letter_mass="0.25")
    assert task.metadata is not None and task.metadata["min_letter_mass"] == 0.25
    [log] = inspect_eval(
        task,
        model="stance_sim/respondent",
        model_args={"transition": [[0.2] * 5] * 5},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    records = [r for s in read_eval_log(log.location).samples for r in s.store["trials"]]
    assert len(records) == 10
    for r in records:  # the simulated respondent's letters hold all the mass
        assert r["letter_masses"] == [pytest.approx(1.0)]
        assert r["estimator"] == "logprobs"
