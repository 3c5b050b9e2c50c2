"""Read stance-drift Inspect logs (``.eval`` / ``.json``) into arrays, in one pass.

Each sample of a ``stance_drift`` log is one (proposition, initial stance) pair; its per-trial
records are in ``sample.store["trials"]`` and the number of trials it should have in
``sample.store["trials_planned"]`` (see :mod:`inspect_stance.solvers.stance_drift`). A sample is
*incomplete* when it holds fewer records than planned (a ``--time-limit`` / ``--token-limit`` /
``--working-limit`` stopped it, which Inspect records in ``sample.limit``); its finished trials
are read, the rest are marked missing. Propositions are keyed by the sample id's prefix (the
proposition's content key, :func:`inspect_stance.drift.propositions.proposition_key`; the topic
id in logs written before content ids), never by position.
Samples are read once with :func:`inspect_stance.logfile.read_log` (no events, messages or
attachments). Epochs beyond the
first are further trials (``trial + (epoch - 1) * trials``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.drift.adaptive.rule import ADAPTIVE_KEY, SampleRule, rule_for
from inspect_stance.drift.extraction import record_label_mismatches, trial_vector
from inspect_stance.drift.run import DriftRun
from inspect_stance.drift.transition import check_policy
from inspect_stance.errors import InputError
from inspect_stance.logfile import read_task_log
from inspect_stance.provenance import samples_provenance
from inspect_stance.shards.layout import log_shard
from inspect_stance.stances import N_STANCES, STANCE_KEYS

if TYPE_CHECKING:
    import numpy as np
    from inspect_ai.log import EvalLog

TASK_NAME = "stance_drift"
#: the sample-store key under which the solver writes its per-trial records
TRIALS_KEY = "trials"
#: the sample-store key holding the number of trials the sample should have
PLANNED_KEY = "trials_planned"


def _read(path: Path) -> Any:
    """The log at ``path`` read in one pass; a one-line ``InputError`` unless it is a
    ``stance_drift`` log (:func:`inspect_stance.logfile.read_task_log`)."""

    return read_task_log(path, [TASK_NAME], "stance_drift run")


@dataclass(frozen=True)
class TrialRecord:
    """One trial as stored in a log, with the sample's identity."""

    proposition: str
    topic_id: str
    key: str
    proposition_index: int
    stance: int
    trial: int
    record: dict[str, Any]


def _task_setting(log: EvalLog, key: str, default: Any) -> Any:
    args = log.eval.task_args or {}
    meta = log.eval.metadata or {}
    return args.get(key, meta.get(key, default))


def iter_trials(log: EvalLog, path: Path) -> Iterator[TrialRecord]:
    """Every trial record of a read log, epochs offset into further trial indices."""
    n_trials = int(_task_setting(log, "trials", 0) or 0)
    for sample in log.samples or []:
        meta = sample.metadata or {}
        if "topic_id" not in meta or "initial_stance" not in meta:
            raise InputError(
                f"log {path}: sample {sample.id} lacks stance-drift metadata; pass the .eval log "
                "of a stance_drift run"
            )
        offset = (int(sample.epoch or 1) - 1) * max(n_trials, 1)
        for rec in (sample.store or {}).get(TRIALS_KEY) or []:
            yield TrialRecord(
                proposition=str(meta.get("proposition", meta["topic_id"])),
                topic_id=str(meta["topic_id"]),
                key=sample_prefix(sample.id),
                proposition_index=int(meta.get("proposition_index", 0)),
                stance=int(meta["initial_stance"]),
                trial=int(rec["trial"]) + offset,
                record=rec,
            )


@dataclass
class ArgumentSource:
    """Arguments of an earlier run, keyed by ``(proposition text, stance)`` then trial index."""

    variant: str
    words_limit: int
    arguments: dict[tuple[str, int], dict[int, str]]


def read_arguments(path: str | Path) -> ArgumentSource:
    """The generated arguments of a stance-drift log (for ``arguments_from``)."""
    path = Path(path)
    log = _read(path)
    out: dict[tuple[str, int], dict[int, str]] = {}
    for tr in iter_trials(log, path):
        argument = tr.record.get("argument")
        if argument is not None:
            out.setdefault((tr.proposition, tr.stance), {})[tr.trial] = str(argument)
    return ArgumentSource(
        variant=str(_task_setting(log, "variant", "default")),
        words_limit=int(_task_setting(log, "words_limit", 100)),
        arguments=out,
    )


def sample_prefix(sample_id: Any) -> str:
    """The proposition part of a sample id ``<key>-<stance_key>`` (the whole id otherwise)."""
    text = str(sample_id)
    for key in STANCE_KEYS:
        if text.endswith(f"-{key}"):
            return text[: -len(key) - 1]
    return text


def _dataset_topics(log: EvalLog) -> list[str]:
    """Proposition keys of every sample the run was asked for (``<key>-<stance_key>`` ids)."""
    ids = getattr(log.eval.dataset, "sample_ids", None) or []
    topics: list[str] = []
    for sid in ids:
        topic = sample_prefix(sid)
        if topic != str(sid) and topic not in topics:
            topics.append(topic)
    return topics


def incomplete_samples(log: EvalLog) -> int:
    """Samples holding fewer trial records than planned (a sample that finished every planned
    trial before its limit fired is complete); without a planned count, stopped by a limit."""
    n = 0
    for sample in log.samples or []:
        store = sample.store or {}
        planned = store.get(PLANNED_KEY)
        held = len(store.get(TRIALS_KEY) or [])
        limited = getattr(sample, "limit", None) is not None
        if (held < int(planned)) if planned is not None else limited:
            n += 1
    return n


def read_drift_log(
    path: str | Path, unparsed: str = "failure", adaptive_ok: bool = False
) -> DriftRun:
    """A :class:`DriftRun` from a stance-drift log.

    A run with adaptive trials (``-T adaptive_halfwidth``) holds different numbers of trials
    per sample by design; the trials it did not run are marked in ``missing``. Under the
    ``failure`` policy, which counts missing trials as failures, reading one is an
    ``InputError`` unless ``adaptive_ok`` (for readers that honour ``missing``, such as
    ``inspect-stance plan``); ``exclude`` leaves them out and reads it correctly.

    ``probs[s, t, i]`` is trial ``t``'s stance-order vector (all-NaN when unparsed; for
    ``multiple_extraction`` built from the extraction vectors by
    :func:`~inspect_stance.drift.extraction.trial_vector` under ``unparsed``). Propositions are
    every proposition the run was asked for, in run order — including those whose samples never
    reached the log — and a trial with no record is NaN and marked in ``missing``.
    """
    check_policy(unparsed)
    path = Path(path)
    log = _read(path)
    variant = str(_task_setting(log, "variant", "default"))
    halfwidth = _adaptive_halfwidth(log, path, unparsed, adaptive_ok)
    rule = None if halfwidth is None else _adaptive_rule(log)
    props, cells, estimators, max_trial, replay = _collect_trials(log, path, unparsed)
    order = _proposition_order(log, path, props)
    n_trials_cfg = int(_task_setting(log, "trials", 0) or 0)
    n_epochs = int(log.eval.config.epochs or 1)
    T = max(max_trial, n_trials_cfg * n_epochs, 1)
    probs, missing, bad_extractions, mismatches = _fill_arrays(order, T, cells)
    model = log.eval.model
    return DriftRun(
        name=f"{model} / {variant}",
        probs=probs,
        propositions=[props[k][1] for k in order],
        topic_ids=[props[k][2] for k in order],
        source=str(path),
        model=model,
        variant=variant,
        missing=missing,
        estimator_counts=estimators,
        status=str(log.status),
        incomplete_samples=incomplete_samples(log),
        unparsed_extractions=bad_extractions,
        label_mismatches=mismatches,
        adaptive_halfwidth=None if halfwidth is None else float(halfwidth),
        adaptive_rule=rule,
        adaptive_policy="failure" if rule is None else rule.unparsed,
        shard=log_shard(path, log.eval),
        provenance=samples_provenance(log.samples or []),
        n_replayed=replay.count,
        replayed_since=replay.since,
    )


#: one trial of a log: proposition key, initial stance, trial, vector (None: unparsed),
#: unparsed extraction answers, label mismatches
_Cell = tuple[str, int, int, list[float] | None, int, int]


def _adaptive_halfwidth(log: EvalLog, path: Path, unparsed: str, adaptive_ok: bool) -> Any:
    """The run's ``adaptive_halfwidth`` (None without adaptive trials); ``InputError`` where
    the ``failure`` policy would count its trials not run as failures."""
    halfwidth = (log.eval.metadata or {}).get("adaptive_halfwidth")
    if halfwidth is not None and unparsed == "failure" and not adaptive_ok:
        raise InputError(
            f"log {path}: a run with adaptive trials (-T adaptive_halfwidth={halfwidth}) holds "
            "fewer trials in samples that stopped early, which the default policy would count "
            "as failures; use --exclude-unparsed (trials not run and unparsed trials left out)"
        )
    return halfwidth


def _adaptive_rule(log: EvalLog) -> SampleRule | None:
    """The stopping rule recorded in the first sample's adaptive state (``None``: none has
    one, e.g. every sample errored before its first wave)."""
    for sample in log.samples or []:
        state = (sample.store or {}).get(ADAPTIVE_KEY)
        if state and state.get("halfwidth") is not None and state.get("max_trials"):
            policy = str(state.get("unparsed") or "failure")
            return rule_for(float(state["halfwidth"]), int(state["max_trials"]), policy)
    return None


@dataclass
class Replayed:
    """Trials replayed from the trial record (no model call) and the oldest record time."""

    count: int = 0
    since: str | None = None

    def add(self, record: dict[str, Any]) -> None:
        """Count ``record`` when it was replayed (ISO times compare as text)."""
        if record.get("replayed"):
            self.count += 1
            at = record.get("recorded_at")
            if at and (self.since is None or str(at) < self.since):
                self.since = str(at)


def _collect_trials(
    log: EvalLog, path: Path, unparsed: str
) -> tuple[dict[str, tuple[int, str, str]], list[_Cell], dict[str, int], int, Replayed]:
    """Every trial record of the log: the propositions met (key -> index, text, topic id),
    one cell per trial, the count of trials by estimator, 1 + the largest trial index, and
    the trials replayed from the trial record."""
    props: dict[str, tuple[int, str, str]] = {}
    cells: list[_Cell] = []
    estimators: dict[str, int] = {}
    max_trial = 0
    replay = Replayed()
    for tr in iter_trials(log, path):
        replay.add(tr.record)
        props.setdefault(tr.key, (tr.proposition_index, tr.proposition, tr.topic_id))
        max_trial = max(max_trial, tr.trial + 1)
        rec = tr.record
        vectors = rec.get("vectors")
        vec = trial_vector(vectors if vectors is not None else [rec.get("probs")], unparsed)
        cells.append(
            (
                tr.key,
                tr.stance,
                tr.trial,
                vec,
                _unparsed_extractions(rec, vec),
                record_label_mismatches(rec),
            )
        )
        key = rec.get("estimator") or "unparsed"
        estimators[key] = estimators.get(key, 0) + 1
    return props, cells, estimators, max_trial, replay


def _proposition_order(
    log: EvalLog, path: Path, props: dict[str, tuple[int, str, str]]
) -> list[str]:
    """Proposition keys in run order, those asked for but absent from the log appended (and
    added to ``props``); ``InputError`` for a log with none."""
    order = sorted(props, key=lambda k: props[k][0])
    for topic in _dataset_topics(log):  # asked for but absent from the log
        if topic not in props:
            props[topic] = (len(props), f"(no sample in log) topic {topic}", topic)
            order.append(topic)
    if not order:
        raise InputError(
            f"log {path}: the log has no samples; pass the .eval log of a stance_drift run"
        )
    return order


def _fill_arrays(
    order: list[str], n_trials: int, cells: list[_Cell]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``probs`` ``(P, T, 5, 5)`` (NaN where unparsed or missing), ``missing`` ``(P, T, 5)``
    and the unparsed-extraction and label-mismatch counts ``(P, T, 5)`` of the cells."""
    import numpy as np

    index = {topic: k for k, topic in enumerate(order)}
    shape = (len(order), n_trials, N_STANCES)
    probs = np.full((*shape, N_STANCES), np.nan)
    missing = np.ones(shape, dtype=bool)
    bad_extractions = np.zeros(shape, dtype=np.int64)
    mismatches = np.zeros(shape, dtype=np.int64)
    for topic, stance, t, vec, n_bad, n_mismatch in cells:
        s = index[topic]
        missing[s, t, stance] = False
        bad_extractions[s, t, stance] = n_bad
        mismatches[s, t, stance] = n_mismatch
        if vec is not None:
            probs[s, t, stance] = vec
    return probs, missing, bad_extractions, mismatches


def _unparsed_extractions(rec: dict[str, Any], vec: list[float] | None) -> int:
    """A trial record's unparsed extraction answers: its ``vectors`` that are ``None`` (one
    per extraction), else 1 for an unparsed single-extraction trial."""
    vectors = rec.get("vectors")
    if isinstance(vectors, list):
        return sum(1 for v in vectors if v is None)
    return int(vec is None)
