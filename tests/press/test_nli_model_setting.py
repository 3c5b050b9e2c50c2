"""Two PReSS runs whose NLI model is the same folder content at two paths have the same
setting; a folder with other content is refused."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import pytest

from inspect_stance.errors import InputError
from inspect_stance.press.logs import setting_values
from inspect_stance.runs import RunInfo, check_settings


def _model(folder, weights: bytes):
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "deberta"}')
    (folder / "model.safetensors").write_bytes(weights)
    return str(folder)


def _run(path: str, nli: str):
    return SimpleNamespace(path=path, task_args={"nli_model": nli, "classifier": "nli"})


def check_same_settings(a, b) -> list[str]:
    """The settings check ``compare`` makes of two PReSS runs (their setting values)."""
    infos = [RunInfo(source=r.path, run_id=r.path, settings=setting_values(r.task_args))
             for r in (a, b)]  # fmt: skip
    return check_settings(infos, ["a", "b"])


def test_same_model_at_two_paths_is_the_same_setting(tmp_path):
    a = _model(tmp_path / "a", b"\x00weights")
    b = tmp_path / "copy"
    shutil.copytree(a, b)
    assert check_same_settings(_run("x", a), _run("y", str(b))) == []


def test_other_weights_are_refused(tmp_path):
    a = _model(tmp_path / "a", b"\x00weights")
    b = _model(tmp_path / "b", b"\x01weights")
    with pytest.raises(InputError, match="nli_model differs"):
        check_same_settings(_run("x", a), _run("y", b))


def test_hub_ids_compared_by_name():
    assert check_same_settings(_run("x", "org/m"), _run("y", "org/m")) == []
    with pytest.raises(InputError, match="nli_model differs"):
        check_same_settings(_run("x", "org/m"), _run("y", "org/n"))
