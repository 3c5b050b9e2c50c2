"""The pushback task end to end on the simulated target: the chat in the log, the calls per
conversation, the headline metric first, and the study commands (report, gate, compare, plan)
and the method record's hooks on its logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import get_model

from inspect_stance.cli import main
from inspect_stance.pushback.prompts import PUSHBACK, THIRD_PERSON_SYSTEM
from inspect_stance.pushback.summary import summarize
from inspect_stance.study.registry import headline_of_metrics, task_headline

ARGS: dict[str, Any] = {"limit_propositions": 6, "styles": "plain,opposite", "turns": 3}


def _run(tmp: Path, name: str, **model_args: Any) -> Path:
    args = {**ARGS, **model_args.pop("task_args", {})}
    log: EvalLog = inspect_eval("inspect_stance/pushback", task_args=args,
                                model=get_model("pushback_sim/target", memoize=False,
                                                **model_args),
                                log_dir=str(tmp / name), display="none")[0]  # fmt: skip
    assert log.status == "success", log.error
    return Path(log.location)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("pushback")
    return _run(tmp, "a", hazard=0.3), _run(tmp, "b", hazard=0.05, seed=1)


def test_chat_calls_and_headline(logs: tuple[Path, Path]) -> None:
    log = read_eval_log(str(logs[0]), resolve_attachments=True)
    assert log.samples is not None and len(log.samples) == 6 * 2 * 3  # props x stances x conds
    for sample in log.samples:
        roles = [m.role for m in sample.messages]
        assert roles == ["user", "assistant"] * 4  # opening + 3 pushback turns, each answered
        style = sample.metadata["style"]
        if style == "plain":
            assert sample.messages[2].text == PUSHBACK["plain"]
        calls = [e for e in sample.events if e.event == "model"]
        assert len(calls) == 2 * (3 + 1)  # each reply, then its fresh-context reading
        readings = [c for c in calls if len(c.input) == 1 and c.input[0].text.endswith(
            "Answer letter:")]  # fmt: skip
        assert len(readings) == 4
        assert all(sample.messages[2 * k + 1].text in r.input[0].text
                   for k, r in enumerate(readings))  # fmt: skip
    metrics = log.results.scores[0].metrics  # type: ignore[union-attr]
    assert list(metrics)[:6] == ["held_at_K", "stderr", "ci_low", "ci_high", "n_items",
                                 "n_clusters"]  # fmt: skip
    assert len(metrics) <= 10
    h = headline_of_metrics("pushback", {k: v.value for k, v in metrics.items()})
    records = {str(s.id): s.scores["pushback_scorer"].metadata["pushback"]
               for s in log.samples}  # type: ignore[index]  # fmt: skip
    again = summarize(records).headline
    assert h is not None and h.value == pytest.approx(again.value)
    assert h.interval == pytest.approx(again.interval)
    spec = task_headline("inspect_stance/pushback")
    assert spec is not None and spec.load is not None and spec.breakdown is not None
    assert spec.load([str(logs[0])], False).headline().value == pytest.approx(h.value)
    items = spec.load([str(logs[0])], False).items(spec.metric)
    assert len(items) == h.n_items
    assert sum(v for _, v in items.values()) / len(items) == pytest.approx(h.value)


def test_two_shards_pooled_give_the_unsharded_headline(logs: tuple[Path, Path],
                                                       tmp_path: Path) -> None:  # fmt: skip
    from inspect_stance.errors import InputError
    from inspect_stance.pushback.logs import read_run

    shards = [_run(tmp_path, "shards", hazard=0.3, task_args={"shard": f"{k}/2"})
              for k in (1, 2)]  # fmt: skip
    spec = task_headline("inspect_stance/pushback")
    assert spec is not None and spec.load is not None
    whole = read_eval_log(str(logs[0])).results.scores[0].metrics  # type: ignore[union-attr]
    pooled = spec.load([str(p) for p in shards], False).headline()
    assert pooled.value == pytest.approx(whole["held_at_K"].value)
    assert pooled.se == pytest.approx(whole["stderr"].value)
    assert pooled.interval == pytest.approx((whole["ci_low"].value, whole["ci_high"].value))
    assert (pooled.n_items, pooled.n_clusters) == (24, 6)
    run = read_run([str(tmp_path / "shards")])  # the folder: one run, the shards pooled
    # the stances read are the unsharded run's (the logprobs' noise depends on call order)
    alone = read_run([str(logs[0])]).records
    assert {k: r["readings"] for k, r in run.records.items()} == {
        k: r["readings"] for k, r in alone.items()} and run.shard is None  # fmt: skip
    with pytest.raises(InputError, match="1 of 2 shards"):
        spec.load([str(shards[0])], False)
    assert spec.load([str(shards[0])], True).headline().n_clusters == 3


def test_third_person_framing_puts_the_system_message_first(tmp_path: Path) -> None:
    log = read_eval_log(str(_run(tmp_path, "t", task_args={"framing": "third_person",
                                                           "limit_propositions": 1})))  # fmt: skip
    assert log.samples
    for s in log.samples:
        assert s.messages[0].role == "system" and s.messages[0].text == THIRD_PERSON_SYSTEM


def test_report_gate_compare_plan(logs: tuple[Path, Path], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from inspect_stance.pushback.report import write_report

    data = write_report([str(logs[0]), str(logs[1])], tmp_path / "rep")
    assert main(["report", str(logs[0]), "--out", str(tmp_path / "r2")]) == 0
    assert (tmp_path / "r2" / "pushback" / "report.json").is_file()
    assert (tmp_path / "rep" / "survival.png").stat().st_size > 1000
    head = read_eval_log(str(logs[0])).results.scores[0].metrics["held_at_K"].value  # type: ignore[union-attr]
    assert data["headline"]["value"] == pytest.approx(head)
    json.loads((tmp_path / "rep" / "report.json").read_text())
    a, b = str(logs[0]), str(logs[1])
    assert main(["gate", a, "--min-held-at-k", "0.99"]) == 1
    assert main(["gate", b, "--min-held-at-k", "0.01"]) == 0
    assert main(["gate", a, "--baseline", b]) == 1  # hazard 0.3 vs 0.05: a significant drop
    capsys.readouterr()
    assert main(["compare", a, b, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    held = next(c for c in out["comparisons"] if c["metric"] == "held_at_K")
    assert held["delta"] > 0 and held["n_items"] == 6 * 2 * 2
    assert main(["plan", a, "--target-se", "0.05"]) == 0


def test_report_json_with_out_prints_the_json_and_writes_the_report(
    logs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report LOG --out DIR --json``: the report is written and the headlines are printed as
    JSON on stdout (the report's own lines on stderr), not the JSON silently dropped."""
    assert main(["report", str(logs[0]), "--out", str(tmp_path / "r"), "--json"]) == 0
    out, err = capsys.readouterr()
    got = json.loads(out)["methods"]["pushback"]["headline"]
    assert 0.0 <= got["value"] <= 1.0 and got["n_items"] > 0
    assert "pushback: 1 log(s) ->" in err
    assert (tmp_path / "r" / "pushback" / "report.json").is_file()
