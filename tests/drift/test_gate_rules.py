"""The gate's rules beyond today's: settings refusals, option ranges, non-inferiority, several
metrics with Holm, JUnit / GitHub outputs, detectable drop; and the gate on PReSS logs."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from scipy import stats

from inspect_stance.cli import main
from inspect_stance.stats.multiplicity import adjust_pvalues


def _npz(path, diag, n_props=30, trials=20, seed=0):
    """A run whose per-trial vectors put mass ``diag[s]`` on the initial stance."""
    rng = np.random.default_rng(seed)
    probs = np.zeros((n_props, trials, 5, 5))
    for s in range(n_props):
        for t in range(trials):
            for i in range(5):
                hit = rng.uniform() < diag[s]
                probs[s, t, i, i if hit else (i + 1) % 5] = 1.0
    np.savez(path, probs=probs, propositions=np.array([f"p{k}" for k in range(n_props)]))
    return str(path)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gate_rules")
    rng = np.random.default_rng(5)
    level = rng.uniform(0.6, 0.9, 30)
    return {
        "base": _npz(tmp / "base.npz", level, seed=1),
        "same": _npz(tmp / "same.npz", level, seed=2),
        "worse": _npz(tmp / "worse.npz", level - 0.15, seed=3),
        "tmp": tmp,
    }


def _per_prop_spr(path):
    probs = np.load(path)["probs"]
    return np.nan_to_num(probs).diagonal(axis1=-2, axis2=-1).mean(axis=(1, 2))


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--min-spr", "-1"], "--min-spr -1.0 is not a rate"),
        (["--min-spr", "1.5"], "--min-spr 1.5 is not a rate"),
        (["--baseline", "B", "--max-drop", "2"], "--max-drop 2.0 is not a rate"),
        (["--min-spr", "0.5", "--alpha", "1.5"], "--alpha 1.5 must be strictly between"),
        (["--baseline", "B", "--rule", "non-inferiority"], "needs --max-drop D"),
    ],
)
def test_out_of_range_options_are_one_line_errors(runs, capsys, extra, fragment):
    extra = [runs["base"] if x == "B" else x for x in extra]
    assert main(["gate", runs["same"], *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_non_inferiority_rule_is_the_upper_bound(runs, capsys):
    b, r = _per_prop_spr(runs["base"]), _per_prop_spr(runs["same"])
    d = b - r
    upper = d.mean() + stats.t.ppf(0.95, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size)
    args = ["gate", runs["same"], "--baseline", runs["base"], "--rule", "non-inferiority",
            "--json"]  # fmt: skip
    margin_pass, margin_fail = upper + 0.005, upper - 0.005
    assert main([*args, "--max-drop", f"{margin_pass:.6f}"]) == 0
    res = json.loads(capsys.readouterr().out)
    (check,) = res["checks"]
    assert check["upper_bound"] == pytest.approx(upper)
    assert check["passed"] and res["status"] == "pass"
    assert main([*args, "--max-drop", f"{margin_fail:.6f}"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "fail"


def test_significant_drop_rule_fails_a_real_regression_and_reports_power(runs, capsys):
    assert main(["gate", runs["worse"], "--baseline", runs["base"], "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["checks"][0]["drop"] == pytest.approx(0.15, abs=0.04)
    assert main(["gate", runs["same"], "--baseline", runs["base"], "--json"]) == 0
    (check,) = json.loads(capsys.readouterr().out)["checks"]
    n, sd = check["n_shared"], check["drop_se"] * math.sqrt(check["n_shared"])
    crit = stats.t.ppf(0.95, n - 1)
    power = 1 - stats.nct.cdf(crit, n - 1, check["detectable_drop"] / sd * math.sqrt(n))
    assert power == pytest.approx(0.8, abs=1e-3)
    assert "could detect a drop of" in check["reason"]


def test_several_metrics_are_holm_adjusted(runs, capsys):
    assert main(["gate", runs["worse"], "--baseline", runs["base"], "--metric", "spr",
                 "--metric", "success_neutral", "--metric", "pattern_flipping",
                 "--json"]) == 1  # fmt: skip
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert [c["metric"] for c in checks] == ["spr", "success_neutral", "pattern_flipping"]
    holm = adjust_pvalues([c["p_value"] for c in checks], "holm")
    assert [c["p_adjusted"] for c in checks] == pytest.approx(holm)
    assert main(["gate", runs["same"], "--baseline", runs["base"], "--metric", "nope"]) == 2
    assert "unknown stance-drift metric 'nope'" in capsys.readouterr().err


def test_junit_and_github_outputs(runs, tmp_path, capsys):
    junit = tmp_path / "gate.xml"
    rc = main(["gate", runs["worse"], "--baseline", runs["base"], "--min-spr", "0.1",
               "--junit", str(junit), "--github"])  # fmt: skip
    assert rc == 1
    out = capsys.readouterr().out.splitlines()
    assert any(x.startswith("::error title=inspect-stance gate%3A spr vs baseline::") for x in out)
    assert any(x.startswith("::notice title=inspect-stance gate%3A min-spr::") for x in out)
    root = ET.parse(junit).getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == ["min-spr", "spr vs baseline"]
    assert cases[0].find("failure") is None and cases[1].find("failure") is not None
    assert root.find("testsuite").get("failures") == "1"
    assert main(["gate", runs["same"], "--min-spr", "0.1", "--junit", str(tmp_path)]) == 2
    assert "--junit" in capsys.readouterr().err


def _drift_log(tmp, name, variant, props):
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    (log,) = inspect_eval(
        stance_drift(propositions=str(props), trials=2, cache=False, variant=variant),
        model="stance_sim/respondent",
        model_args={"logprobs": False},
        log_dir=str(tmp / name),
        display="none",
    )
    assert log.status == "success"
    return log.location


def test_reversed_against_default_is_refused(tmp_path, capsys):
    props = tmp_path / "props.txt"
    props.write_text("".join(f"Proposition {k} should be adopted\n" for k in range(3)))
    default = _drift_log(tmp_path, "default", "default", props)
    reversed_ = _drift_log(tmp_path, "reversed", "reversed", props)
    assert main(["gate", reversed_, "--baseline", default]) == 2
    err = capsys.readouterr().err.strip()
    assert "variant differs (baseline: default, run: reversed)" in err and "\n" not in err
    assert "--allow-different-settings" in err
    rc = main(["gate", reversed_, "--baseline", default, "--allow-different-settings"])
    assert rc in (0, 1)
    assert "settings differ (compared anyway" in capsys.readouterr().out
    assert main(["compare", default, reversed_]) == 2
    assert "variant differs" in capsys.readouterr().err


def test_unusable_input_reaches_junit_and_github_too(runs, tmp_path, capsys):
    junit = tmp_path / "gate.xml"
    rc = main(["gate", runs["same"], "--min-spr", "-1", "--github", "--junit", str(junit)])
    assert rc == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("::error title=inspect-stance gate%3A input::--min-spr -1.0")
    case = ET.parse(junit).getroot().find(".//testcase")
    assert case.get("name") == "input" and case.find("failure") is not None


def test_a_run_gated_against_itself_is_a_one_line_error(runs, tmp_path, capsys):
    """The same run as its own baseline (the same file, or a copy of its bytes) proves nothing:
    refused (exit 2), not passed with a drop of 0."""
    copy = tmp_path / "copy.npz"
    copy.write_bytes(open(runs["base"], "rb").read())
    for baseline in (runs["base"], str(copy)):
        assert main(["gate", runs["base"], "--baseline", baseline, "--max-drop", "0.05"]) == 2
        err = capsys.readouterr().err.strip()
        assert "same run" in err and "\n" not in err


def test_zero_variance_and_partial_overlap_are_said(runs, tmp_path, capsys):
    """Two runs with equal per-proposition SPRs on 10 of the baseline's 30 propositions: the
    check says the differences have no spread, and over how many of each run's propositions."""
    base = np.load(runs["base"])
    sub = tmp_path / "sub.npz"
    probs = base["probs"][:10][:, ::-1]  # trials reversed: per-proposition SPR unchanged
    np.savez(sub, probs=probs, propositions=base["propositions"][:10])
    assert np.allclose(_per_prop_spr(sub), _per_prop_spr(runs["base"])[:10])
    rc = main(["gate", str(sub), "--baseline", runs["base"], "--rule", "non-inferiority",
               "--max-drop", "0.01"])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0
    assert "zero variance" in out
    assert "10 shared propositions (the run has 10, the baseline 30)" in out
