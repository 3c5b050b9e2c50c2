"""PReSS runs compared (``inspect-stance compare`` on ``press`` logs).

Items are statements, matched by their text (cluster: a statement's argument sets share it).
Per statement, under one persona, with ``labels`` its argument sets' labels:

- ``share_stable``: the paper's S_t = stable sets / |I| (:mod:`.stability`);
- ``P_SF`` / ``P_SU`` / ``P_ID``: 1 when the statement's outcome across its own argument sets
  is SF / SU / ID (:mod:`.faithfulness`), else 0: their means are the run's ``P_*_sets``.

Beside them, for every pair of runs, the ``stable_label (by statement)`` row: the difference in
the share of statement x argument set instances labelled stable, ``delta = mean_i (b_i - a_i)``
over the instances matched in both runs (``a_i, b_i`` in {0, 1}: only the discordant instances
contribute), tested with the statements as clusters
(:func:`~inspect_stance.stats.paired.clustered_paired_test`: CR1, t with ``G - 1`` df), since
the argument sets of one statement share it (McNemar's exact test over the instances treated
them as independent: size 0.21 with 10 sets per statement and a model x statement effect,
``benchmarks/ranking_calibration.py``); its interval is clipped to ``[-1, 1]``.

Beside the comparisons (:func:`compare_sections`): where each run's arguments came from, and
per pair of runs the paper's Table 4 (SF / SU / ID across the two runs,
:func:`~inspect_stance.press.compare.faithfulness_across_runs`) and the before x after label
transition table (:func:`~inspect_stance.press.compare.transitions`).

Settings that must match: the statements file, the number of argument sets, the classifier
(``classifier``, ``nli_mode``, ``nli_model``), and the arguments (every run faced the same
arguments: :func:`~inspect_stance.press.compare.check_runs_arguments`, refused by
:func:`read_runs` with its own fix unless ``--allow-different-arguments``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.markdown import md_table
from inspect_stance.press.compare import (
    arguments_note,
    check_runs_arguments,
    faithfulness_across_runs,
    persona_of,
    transition_frame,
    transitions,
)
from inspect_stance.press.labels import is_labelled, is_stable
from inspect_stance.press.logs import (
    PressRun,
    find_press_logs,
    keyed_labels,
    persona_labels,
    press_items,
)
from inspect_stance.press.prompts import PERSONAS
from inspect_stance.runs import RunInfo, log_info
from inspect_stance.stats.family import (
    CompareResult,
    Comparison,
    MetricSpec,
    adjust_family,
    item_comparisons,
    rankings,
)
from inspect_stance.stats.paired import clustered_paired_test
from inspect_stance.study.protocol import CompareRequest, CompareSection, LoadedRuns

METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("share_stable"),
    MetricSpec("P_SF"),
    MetricSpec("P_SU", higher_is_better=False),
    MetricSpec("P_ID", higher_is_better=False),
)

STABLE_ROW = "stable_label (by statement)"
EPOCHS_NOTE = (
    "Runs with --epochs: each statement x set instance counts once, its weight shared equally "
    "among the pairs of its epochs' labels (before x after), so cells and counts are expected "
    "numbers of instances."
)
STABLE_TEST = "stable label over statement x set instances, clustered by statement"


def press_info(run: PressRun) -> RunInfo:
    """Identity, task arguments and settings of a PReSS run."""
    try:
        info = log_info(run.path)
    except Exception:  # noqa: BLE001 - read once already; a header that fails is no identity
        info = RunInfo(source=run.path, run_id=f"path:{run.path}", model=run.model)
    info.task_args = dict(run.task_args) or info.task_args
    info.settings = run.settings()
    return info


def mcnemar_comparison(
    a: PressRun, b: PressRun, names: tuple[str, str], persona: str, confidence: float
) -> Comparison | None:
    """The stable-label row: discordant instances, clustered by statement (module docstring;
    under ``--epochs N`` epoch k of one run is paired with epoch k of the other, as the items
    are, and every epoch of a statement is in the statement's cluster)."""
    la, lb = persona_labels(a, persona), persona_labels(b, persona)
    statement = {key: st for key, st, _ in keyed_labels(a, persona)}
    pairs = [(statement[s], float(is_stable(x)), float(is_stable(y))) for s in la if s in lb
             for x, y in zip(la[s], lb[s], strict=False)]  # fmt: skip
    if not pairs:
        return None
    res = clustered_paired_test([y - x for _, x, y in pairs], [s for s, _, _ in pairs],
                                confidence, cluster="statement")  # fmt: skip
    pa = sum(x for _, x, _ in pairs) / len(pairs)
    pb = sum(y for _, _, y in pairs) / len(pairs)
    ci = (max(res.ci[0], -1.0), min(res.ci[1], 1.0))
    return Comparison(STABLE_ROW, names[0], names[1], pa, pb, pb - pa, ci, res.p,
                      f"{STABLE_TEST}; {res.test}", len(pairs))  # fmt: skip


def compare_press(
    runs: Sequence[PressRun],
    names: Sequence[str],
    persona: str = "none",
    confidence: float = 0.95,
    interval: Any = "auto",
    adjust: Any = "holm",
    alpha: float = 0.05,
    metrics: Sequence[MetricSpec] = METRICS,
) -> CompareResult:
    """Every pair x metric, the stable-label row per pair, adjusted together; rankings."""
    items = [press_items(r, n, persona) for r, n in zip(runs, names, strict=True)]
    comps = item_comparisons(items, metrics, confidence, interval)
    for (ra, na), (rb, nb) in itertools.combinations(zip(runs, names, strict=True), 2):
        mc = mcnemar_comparison(ra, rb, (na, nb), persona, confidence)
        if mc is not None:
            comps.append(mc)
    comps = adjust_family(comps, adjust)
    info = [{"name": n, "source": r.path, "model": r.model, "n_items": len(persona_labels(r, persona)),
             "n_unparsed": sum(1 for ls in persona_labels(r, persona).values() for x in ls
                               if not is_labelled(x))}
            for r, n in zip(runs, names, strict=True)]  # fmt: skip
    notes = [f"items are statements (matched by text, persona {persona}); argument sets are "
             "nested in them; unlabelled sets count as not stable (the paper's S_t)"]  # fmt: skip
    return CompareResult("press", info, comps, rankings(items, metrics, comps, alpha), adjust,
                         alpha, confidence, notes)  # fmt: skip


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The PReSS runs among ``paths`` (files and folders; the shards of one study pooled into
    one run, an incomplete set with ``request.partial``), with what was skipped
    (``compare``'s reader, :func:`inspect_stance.study.protocol.comparer_of`). Runs that did not
    all face the same arguments are refused here, with their own fix (one-line InputError,
    :func:`~inspect_stance.press.compare.check_runs_arguments`); with
    ``--allow-different-arguments`` their fingerprints are left out of the settings checked."""
    check_persona(persona_of(request.options))
    runs, skipped = find_press_logs(paths, request.partial)
    allow = bool(request.options.get("allow_different_arguments"))
    if not allow:
        check_runs_arguments(runs)
    infos = [press_info(r) for r in runs]
    for info in infos if allow else ():
        info.settings.pop("arguments_fingerprint", None)
    return LoadedRuns([*runs], infos, [skipped] if skipped else [])


def compare_runs(runs: Sequence[PressRun], names: Sequence[str],
                 metrics: Sequence[MetricSpec], request: CompareRequest) -> CompareResult:  # fmt: skip
    """:func:`compare_press` with the request's settings."""
    return compare_press(runs, names, persona_of(request.options), request.confidence,
                         request.interval, request.adjust, request.alpha, metrics)  # fmt: skip


def check_persona(persona: str) -> None:
    """One-line InputError unless ``persona`` is one of the PReSS personas."""
    if persona not in PERSONAS:
        raise InputError(f"--persona {persona!r}; use one of {', '.join(PERSONAS)}")


def compare_sections(runs: Sequence[PressRun], names: Sequence[str],
                     request: CompareRequest) -> list[CompareSection]:  # fmt: skip
    """Where each run's arguments came from and whether the runs faced the same ones; then per
    pair of runs (a, b) the paper's Table 4 across the two runs and the label transitions, with
    their tables (``faithfulness``, ``transitions``; numbered ``_1``, ``_2`` ... by pair when
    there are several pairs). ValueError when a pair shares no statement under the persona."""
    import pandas as pd

    persona = persona_of(request.options)
    check = check_runs_arguments(runs, bool(request.options.get("allow_different_arguments")))
    pairs = list(itertools.combinations(zip(runs, names, strict=True), 2))
    out = [CompareSection(
        "arguments", "Arguments",
        "\n".join([*(f"- {n} ({r.path}): {arguments_note(r)}"
                     for r, n in zip(runs, names, strict=True)), *(f"- {x}" for x in check)]),
        {"runs": {n: {"source": r.arguments_source, "fingerprint": r.arguments_fingerprint,
                      "note": arguments_note(r)} for r, n in zip(runs, names, strict=True)},
         "check": check},
    )]  # fmt: skip
    for k, ((ra, na), (rb, nb)) in enumerate(pairs):
        suffix = f"_{k + 1}" if len(pairs) > 1 else ""
        faith = faithfulness_across_runs(ra.records, rb.records, persona)
        table = pd.DataFrame(faith["rows"])
        text = (
            f"Per statement asked in both runs ({faith['n_statements']}): SF = stable labels of one "
            "direction only, SU = of both directions, ID = no stable label. `pooled`: every "
            "argument set of both runs; `set k`: set k of each run; `per_set`: per statement x "
            f"set; `within before` / `within after`: {na} / {nb} alone across its sets.\n\n"
            + md_table(table)
        )
        out.append(CompareSection(
            "faithfulness", f"Stability faithfulness across two runs (Table 4): {na} -> {nb}, "
            f"persona {persona}", text, {"a": na, "b": nb, **faith},
            {f"faithfulness{suffix}": table}))  # fmt: skip
        tr = transitions(ra.records, rb.records, persona)
        frame = transition_frame(tr)
        text = md_table(frame) + "\n\n" + "\n".join(f"- {k}: {v}" for k, v in tr["summary"].items())
        if tr["table"].dtypes.eq(float).any():  # --epochs: cells are expected counts
            shown = frame.map(lambda v: f"{v:.2f}" if isinstance(v, float) else v)
            text = (md_table(shown) + "\n\n" + EPOCHS_NOTE + "\n\n"
                    + "\n".join(f"- {k}: {v:g}" if isinstance(v, float) else f"- {k}: {v}"
                                 for k, v in tr["summary"].items()))  # fmt: skip
        grid = {str(i): {str(c): int(tr["table"].loc[i, c]) for c in tr["table"].columns}
                for i in tr["table"].index}  # fmt: skip
        out.append(CompareSection(
            "transitions", f"Label transitions (statement x argument set): {na} -> {nb}", text,
            {"a": na, "b": nb, "table": grid, "summary": tr["summary"],
             "changes": tr["changes"]}, {f"transitions{suffix}": frame}))  # fmt: skip
    return out
