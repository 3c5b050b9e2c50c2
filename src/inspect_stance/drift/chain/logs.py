"""Read the chain variant's logs (``stance_drift -T hops=K``) into per-hop arrays, in one pass.

A chain log is a ``stance_drift`` log whose task arguments hold ``hops > 1``; each trial record
carries ``hops``, one record per hop (:mod:`inspect_stance.solvers.stance_chain`), and the
final hop's fields at its top level, so :func:`inspect_stance.drift.inputs.load_run` reads the
chain's final hop as an ordinary :class:`~inspect_stance.drift.run.DriftRun` (what ``gate``,
``compare`` and ``plan`` read). :func:`read_chain_log` gives every hop; :meth:`ChainRun.hop_run`
one hop as a ``DriftRun``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from inspect_stance.drift.logs import _read, iter_trials, read_drift_log
from inspect_stance.drift.run import DriftRun
from inspect_stance.drift.transition import FloatArray
from inspect_stance.errors import InputError
from inspect_stance.stances import N_STANCES

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog


@dataclass
class ChainRun:
    """Every hop of a chain run: ``hop_probs[h-1, s, t, i]`` is the stance-order vector read
    after hop ``h`` (all-NaN when unparsed or missing); ``missing[s, t, i]`` marks chains
    absent from the log (an unfinished chain is absent: only finished chains are stored)."""

    final: DriftRun
    hop_probs: FloatArray
    missing: np.ndarray
    relays: list[str | None]
    operation: str
    language: str | None

    @property
    def n_hops(self) -> int:
        """Hops per chain ``K``."""
        return int(self.hop_probs.shape[0])

    def hop_run(self, hop: int) -> DriftRun:
        """Hop ``hop`` (1..K) as a :class:`DriftRun` (hop ``K`` equals :attr:`final`)."""
        if not 1 <= hop <= self.n_hops:
            raise ValueError(f"hop {hop} is not in 1..{self.n_hops}")
        f = self.final
        return DriftRun(
            name=f"{f.name} / hop {hop}",
            probs=self.hop_probs[hop - 1],
            propositions=f.propositions,
            topic_ids=f.topic_ids,
            source=f.source,
            model=f.model,
            variant=f.variant,
            missing=self.missing,
            status=f.status,
            incomplete_samples=f.incomplete_samples,
        )


def chain_hops(log: EvalLog) -> int:
    """The ``hops`` task argument of a read log (1 for a one-hop run)."""
    args = log.eval.task_args or {}
    meta = log.eval.metadata or {}
    try:
        return int(args.get("hops", meta.get("hops", 1)) or 1)
    except (TypeError, ValueError):
        return 1


def is_chain_log(path: str | Path) -> bool:
    """Whether ``path`` is the log of a chain run (``hops > 1``); ``False`` for an ``.npz``."""
    if Path(path).suffix not in (".eval", ".json"):
        return False
    from inspect_ai.log import read_eval_log

    return chain_hops(read_eval_log(str(path), header_only=True)) > 1


def _relay_names(log: EvalLog, k: int) -> list[str | None]:
    """Hop ``h``'s relay name as recorded in the trials (the first record that names it)."""
    names: list[str | None] = [None] * k
    for sample in log.samples or []:
        for rec in (sample.store or {}).get("trials") or []:
            for hop in rec.get("hops") or []:
                h = int(hop.get("hop", 0))
                if 1 <= h <= k and names[h - 1] is None:
                    names[h - 1] = hop.get("relay")
        if all(n is not None for n in names[1:]):
            break
    return names


def read_chain_log(path: str | Path, unparsed: str = "failure") -> ChainRun:
    """A :class:`ChainRun` from a chain log (one pass over the samples); ``InputError`` when
    the log is not a chain run."""

    path = Path(path)
    log = _read(path)
    k = chain_hops(log)
    if k < 2:
        raise InputError(f"log {path} is a one-hop run (hops=1); pass the log of a -T hops=K run")
    final = read_drift_log(path, unparsed)
    index = {p: n for n, p in enumerate(final.propositions)}  # a run repeats no proposition
    hop_probs = np.full((k,) + final.probs.shape, np.nan)
    for tr in iter_trials(log, path):
        s = index.get(tr.proposition, -1)
        if s < 0 or tr.trial >= final.probs.shape[1]:
            continue
        for hop in tr.record.get("hops") or []:
            h = int(hop.get("hop", 0))
            if 1 <= h <= k and hop.get("probs") is not None:
                hop_probs[h - 1, s, tr.trial, tr.stance] = np.asarray(
                    hop["probs"], dtype=np.float64
                )[:N_STANCES]
    meta = log.eval.metadata or {}
    return ChainRun(
        final=final,
        hop_probs=hop_probs,
        missing=final.missing_mask,
        relays=_relay_names(log, k),
        operation=str(meta.get("relay_operation", "paraphrase")),
        language=meta.get("relay_language"),
    )
