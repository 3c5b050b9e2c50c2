"""``inspect-stance study FILE --flow OUT``: the study as an Inspect Flow spec.

Default tier: the spec Flow's own loader reads back (``inspect_flow.api.load_spec``) holds one
task per target x method with the study's models, roles, task arguments, tags and log folder.
Slow tier: ``flow run`` runs a two-method, two-target spec offline on the simulators, and
``inspect-stance card`` on its logs writes one card per target holding both methods, each run
on that target's own models. Skipped when ``inspect-flow`` (the ``flow`` extra) is absent.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_flow")

STUDY = """
study: flowtwo
targets:
  sticky:
    stance_drift: {model: stance_sim/respondent, model_args: {noise: exact, transition: identity}}
    even_handedness: {model: even_sim/target, model_args: {refuse_rate: 0.5}}
  drifting:
    stance_drift: {model: stance_sim/respondent, model_args: {noise: exact}}
    even_handedness: even_sim/target
roles: {graders: [{model: even_sim/grader, model_args: {position_bias: 0.3}}]}
methods:
  stance_drift: {args: {limit_propositions: 3, trials: 6, cache: false}}
  even_handedness: {args: {limit: 12}}
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "inspect_stance.cli", *args], cwd=cwd,
                       env={**os.environ, "HOME": str(cwd)}, capture_output=True, text=True,
                       timeout=600)  # fmt: skip
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-3000:])
    return r


def _spec(tmp: Path) -> Path:
    (tmp / "study.yaml").write_text(STUDY, encoding="utf-8")
    (tmp / "flows").mkdir()
    out = _cli("study", "study.yaml", "--flow", "flows/study.py", "--log-dir", "L", cwd=tmp)
    assert "wrote flows/study.py: 4 Flow tasks" in out.stdout
    return tmp / "flows" / "study.py"


def test_flow_loads_the_spec_with_every_run(tmp_path: Path):
    from inspect_flow.api import load_spec

    spec = load_spec(str(_spec(tmp_path)))
    # Flow resolves the log folder from the spec's folder: ../L from flows/ is the study's L
    assert Path(tmp_path / "flows" / str(spec.log_dir)).resolve() == (tmp_path / "L").resolve()
    assert spec.options.metadata == {"stance_study": "flowtwo"}  # type: ignore[union-attr]
    rows = [(t.name, list(t.tags), t.model, t.args) for t in spec.tasks]  # type: ignore[union-attr]
    assert [(r[0], r[1]) for r in rows] == [
        ("inspect_stance/stance_drift", ["stance_target=sticky"]),
        ("inspect_stance/even_handedness", ["stance_target=sticky"]),
        ("inspect_stance/stance_drift", ["stance_target=drifting"]),
        ("inspect_stance/even_handedness", ["stance_target=drifting"]),
    ]
    sticky = spec.tasks[0].model  # type: ignore[index, union-attr]
    assert sticky.name == "stance_sim/respondent"
    assert sticky.model_args == {"noise": "exact", "transition": "identity"}
    assert spec.tasks[3].model.name == "even_sim/target"  # type: ignore[index, union-attr]
    assert rows[0][3] == {"limit_propositions": 3, "trials": 6, "cache": False}
    graders = spec.tasks[1].model_roles["graders"]  # type: ignore[index, union-attr]
    assert [(g.name, g.model_args) for g in graders] == [
        ("even_sim/grader", {"position_bias": 0.3})
    ]
    assert spec.tasks[0].factory is None or not spec.tasks[0].model_roles  # type: ignore[index, union-attr]
    assert callable(spec.tasks[1].factory)  # type: ignore[index, union-attr]


def test_flow_refuses_a_non_python_out(tmp_path: Path):
    (tmp_path / "study.yaml").write_text(STUDY, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "inspect_stance.cli", "study", "study.yaml",
                        "--flow", "spec.yaml"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert r.returncode == 2 and "name the file spec.py" in r.stderr
    assert not (tmp_path / "spec.yaml").exists()


@pytest.mark.slow
def test_flow_run_two_targets_two_methods_then_cards(tmp_path: Path):
    if shutil.which("uv") is None and not (Path(sys.executable).parent / "uv").exists():
        pytest.skip("flow run freezes the environment with uv (pip install uv)")
    spec = _spec(tmp_path)
    env = {**os.environ, "HOME": str(tmp_path), "UV_OFFLINE": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}  # fmt: skip
    r = subprocess.run([str(Path(sys.executable).parent / "flow"), "run", str(spec),
                        "--display", "plain"], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=600)  # fmt: skip
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    logs = sorted((tmp_path / "L").glob("*.eval"))
    assert len(logs) == 4
    from inspect_ai.log import read_eval_log

    seen = {}
    for path in logs:
        ev = read_eval_log(str(path), header_only=True).eval
        assert ev.metadata and ev.metadata["stance_study"] == "flowtwo"
        # the task's own metadata survives (Flow's per-task metadata would replace it)
        assert len(ev.metadata) > 1
        seen[(ev.tags[0], ev.task_registry_name)] = (ev.model, ev.model_args, ev.model_roles)
    sticky = seen[("stance_target=sticky", "inspect_stance/stance_drift")]
    assert sticky[:2] == ("stance_sim/respondent", {"noise": "exact", "transition": "identity"})
    drifting = seen[("stance_target=drifting", "inspect_stance/even_handedness")]
    assert drifting[0] == "even_sim/target" and drifting[2]
    _cli("card", "L", "--out", "C", cwd=tmp_path)
    assert sorted(p.name for p in (tmp_path / "C").glob("*.json")) == [
        "drifting.json", "leaderboard.json", "sticky.json"]  # fmt: skip
    for target in ("sticky", "drifting"):
        card = json.loads((tmp_path / "C" / f"{target}.json").read_text())
        assert sorted(card["methods"]) == ["even_handedness", "stance_drift"]
    # the identity respondent never drifts: every trial keeps its stance (SPR 1 exactly)
    sticky_card = json.loads((tmp_path / "C" / "sticky.json").read_text())
    assert sticky_card["methods"]["stance_drift"]["value"] == pytest.approx(1.0)
    drifting_card = json.loads((tmp_path / "C" / "drifting.json").read_text())
    assert drifting_card["methods"]["stance_drift"]["value"] < 1.0
