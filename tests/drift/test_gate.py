"""`inspect-stance gate` on real stance_drift logs of the simulated respondent, and unit checks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from inspect_stance.cli import main
from inspect_stance.drift.gate import paired_drop, shared_propositions
from inspect_stance.drift.run import DriftRun

pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated")

N_PROPS = 8
TRIALS = 6


def _matrix(diag: float) -> list[list[float]]:
    """Rows with ``diag`` on the diagonal and the rest spread evenly (a known ground truth)."""
    m = np.full((5, 5), (1.0 - diag) / 4)
    np.fill_diagonal(m, diag)
    return m.tolist()


def _run_eval(tmp, name: str, diag: float, seed: int, props: str) -> str:
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    matrix = tmp / f"{name}.json"
    matrix.write_text(json.dumps(_matrix(diag)))
    logs = inspect_eval(
        stance_drift(propositions=props, trials=TRIALS, cache=False),
        model="stance_sim/respondent",
        model_args={"transition": str(matrix), "seed": seed, "logprobs": False},
        log_dir=str(tmp / name),
        display="none",
    )
    assert logs[0].status == "success"
    return logs[0].location


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """Baseline and a good candidate (identity-like, 0.95), and a degraded one (0.55)."""
    tmp = tmp_path_factory.mktemp("gate")
    props = tmp / "props.txt"
    props.write_text("".join(f"Proposition {k} should be adopted\n" for k in range(N_PROPS)))
    return {
        "baseline": _run_eval(tmp, "baseline", 0.95, 1, str(props)),
        "good": _run_eval(tmp, "good", 0.95, 2, str(props)),
        "degraded": _run_eval(tmp, "degraded", 0.55, 3, str(props)),
        "tmp": tmp,
    }


def test_good_model_passes(logs, capsys):
    rc = main(
        ["gate", logs["good"], "--min-spr", "0.8", "--baseline", logs["baseline"]]
        + ["--max-drop", "0.05"]
    )
    out = capsys.readouterr().out.strip()
    assert rc == 0, out
    assert len(out.splitlines()) == 1 and out.startswith("PASS")


def test_degraded_model_fails_with_significant_drop(logs, capsys):
    rc = main(
        ["gate", logs["degraded"], "--baseline", logs["baseline"], "--max-drop", "0.1"] + ["--json"]
    )
    res = json.loads(capsys.readouterr().out)
    assert rc == 1 and res["status"] == "fail" and res["exit_code"] == 1
    c = res["comparison"]
    assert c["n_shared"] == N_PROPS
    assert c["drop"] > 0.25 and c["p_value"] < 1e-6
    assert 0.45 < res["spr"] < 0.65  # ground truth 0.55, frequency estimate of 480 trials
    # min-spr alone also fails, with a one-line reason
    assert main(["gate", logs["degraded"], "--min-spr", "0.8"]) == 1
    line = capsys.readouterr().out.strip()
    assert len(line.splitlines()) == 1 and line.startswith("FAIL") and "--min-spr 0.8" in line
    # a tolerance larger than the drop passes although the drop is significant
    assert (
        main(["gate", logs["degraded"], "--baseline", logs["baseline"], "--max-drop", "0.6"]) == 0
    )
    capsys.readouterr()


def test_log_of_another_task_and_mixed_sets_exit_2(logs, capsys):
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.solver import solver

    @solver
    def passthrough():
        async def solve(state, generate):
            return state

        return solve

    other = inspect_eval(
        Task(dataset=[Sample(input="hello")], solver=passthrough(), name="other_task"),
        model="stance_sim/respondent",
        log_dir=str(logs["tmp"] / "other"),
        display="none",
    )[0].location
    assert main(["gate", other, "--min-spr", "0.5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and other in err and "other_task" in err

    # baseline whose propositions only partly overlap the run's -> mixed sets
    mixed = logs["tmp"] / "mixed.npz"
    probs = np.full((N_PROPS, 3, 5, 5), 0.2)
    names = [f"Proposition {k} should be adopted" for k in range(6)] + [
        f"Another topic {k}" for k in range(N_PROPS - 6)
    ]
    np.savez(mixed, probs=probs, propositions=np.array(names))
    assert main(["gate", logs["good"], "--baseline", str(mixed), "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == "error"
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and str(mixed) in err and "proposition set" in err

    assert main(["gate", str(logs["tmp"] / "absent.eval"), "--min-spr", "0.5"]) == 2
    assert "absent.eval" in capsys.readouterr().err
    assert main(["gate", logs["good"]]) == 2
    assert "nothing to check" in capsys.readouterr().err


def test_paired_drop_matches_hand_computation():
    base = np.array([0.9, 0.8, 0.95, 0.85, 0.7])
    cand = np.array([0.7, 0.75, 0.9, 0.6, 0.72])
    d = base - cand
    t = d.mean() / (d.std(ddof=1) / math.sqrt(5))
    res = paired_drop(base, cand)
    assert res.drop == pytest.approx(d.mean())
    assert res.t_statistic == pytest.approx(t)
    assert res.p_value == pytest.approx(stats.t.sf(t, 4))
    # constant differences: deterministic drop
    assert paired_drop(base, base - 0.1).p_value == 0.0
    assert paired_drop(base, base).p_value == 1.0
    with pytest.raises(ValueError):
        paired_drop(base[:1], cand[:1])


def test_subset_baseline_compares_on_shared_propositions():
    probs = np.full((4, 2, 5, 5), 0.2)
    run = DriftRun("r", probs, ["a", "b", "c", "d"], ["1", "2", "3", "4"], "run.npz")
    base = DriftRun("b", probs[:2], ["d", "b"], ["4", "2"], "base.npz")
    idx_run, idx_base = shared_propositions(run, base)
    assert idx_run.tolist() == [1, 3] and idx_base.tolist() == [1, 0]
    mixed = DriftRun("m", probs[:2], ["a", "z"], ["1", "9"], "m.npz")
    with pytest.raises(ValueError, match="m.npz"):
        shared_propositions(run, mixed)


def test_gate_rejects_meaningless_options_and_incomplete_runs(logs, tmp_path, capsys):
    assert main(["gate", logs["good"], "--min-spr", "nan"]) == 2
    assert "not a finite number" in capsys.readouterr().err
    assert main(["gate", logs["good"], "--min-spr", "0.5", "--max-drop", "0.1"]) == 2
    assert "--max-drop needs --baseline" in capsys.readouterr().err
    # an interrupted run is not a regression: exit 2 with a pointer to eval-retry
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    props = tmp_path / "p.txt"
    props.write_text("We should do A\nWe should do B\n")
    [log] = inspect_eval(
        stance_drift(propositions=str(props), trials=2, cache=False),
        model="stance_sim/respondent",
        model_args={"fail_after": 6},
        log_dir=str(tmp_path),
        display="none",
        max_connections=1,
        max_samples=1,
    )
    assert main(["gate", log.location, "--min-spr", "0.1"]) == 2
    assert "eval-retry" in capsys.readouterr().err


def test_unexpected_errors_exit_2_with_one_line(tmp_path, capsys):
    npz = tmp_path / "r.npz"
    np.savez(npz, probs=np.tile(np.eye(5), (2, 3, 1, 1)))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["report", str(npz), "--out", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("inspect-stance report: error:")
