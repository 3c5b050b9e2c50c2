"""Checks shared by the ``--epochs`` tests of each method: the log's headline against what the
commands read back (``report --json``, the card) or the method's run (``Run.headline()``)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from inspect_stance.cli import main
from inspect_stance.stats.headline import Headline, headline_from_metrics
from inspect_stance.study import method_named
from inspect_stance.study.protocol import CompareRequest


def assert_report_and_card_agree(location: str, method: str, h: Headline, out: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """``report LOG --json`` and ``card LOG`` show the headline ``h`` of ``method``'s log:
    value, SE and interval to 1e-12, ``n_items`` and ``n_clusters`` exactly."""
    assert main(["report", location, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["methods"][method]["headline"]
    shown = [(got["value"], got["se"], got["interval"], got["n_items"], got["n_clusters"])]
    assert main(["card", location, "--out", str(out / "card")]) == 0
    (card,) = [json.loads(f.read_text()) for f in (out / "card").glob("*.json")
               if f.name != "leaderboard.json"]  # fmt: skip
    e = card["methods"][method]
    shown.append((e["value"], e["stderr"], e["ci"], e["n_items"], e["n_clusters"]))
    for value, se, interval, n_items, n_clusters in shown:
        assert (n_items, n_clusters) == (h.n_items, h.n_clusters)
        for a, b in ((value, h.value), (se, h.se), *zip(interval, h.interval, strict=True)):
            assert math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def logged_and_run_headlines(log: Any, metric: str, method: str
                             ) -> tuple[Headline, Headline, dict[str, float]]:  # fmt: skip
    """The headline ``metric`` the log's one score view holds (first among its metrics: no
    reducer added to the names), the one ``method``'s run reads back from the log, and the
    view's metrics."""
    assert log.status == "success"
    [scores] = log.results.scores  # one view: no reducer added to the metric names
    metrics = {k: v.value for k, v in scores.metrics.items()}
    assert next(iter(metrics)) == metric
    found = method_named(method)
    assert found is not None and found.comparer is not None
    paths = (str(log.location),)
    [run] = found.comparer.load(list(paths), CompareRequest(paths)).runs
    return headline_from_metrics(metric, metrics), run.headline(), metrics
