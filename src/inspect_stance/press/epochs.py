"""PReSS records under ``inspect eval --epochs N``: one statement, one record per epoch.

Each epoch's record repeats the whole experiment on its statement (its K argument sets, the
personas, the draws), so the report and ``compare`` treat a statement's epochs as replicates of
one statement, never as more statements, the headline's rule (each epoch one more item of its
statement's cluster):

- a per-statement figure is computed on each epoch's record exactly as for a run of one epoch,
  and the statement's value is the mean over its epochs (:func:`epoch_mean`); a count is summed;
- a share over statements (Table 2's instances, P_SF / P_SU / P_ID) is the mean over statements
  of each statement's share of epochs, with ``n`` counting statements; its interval treats the
  statement (x model) as the unit, whose epochs vary within it;
- a listing keeps every epoch, with an ``epoch`` column (``labels.csv``).

With one epoch every figure is the record's own, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def statement_epochs(records: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Statement text -> its records in the order given (a statement's k-th record is its epoch
    k: :func:`inspect_stance.press.logs.read_press_log` orders them so), statements in the
    order they first appear."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        out.setdefault(str(r["statement"]), []).append(r)
    return out


def n_epochs(records: Iterable[Mapping[str, Any]]) -> int:
    """The most records any statement has (the run's ``--epochs``; 1 for no record)."""
    return max((len(rs) for rs in statement_epochs(records).values()), default=1)


def epoch_mean(values: Sequence[Any]) -> Any:
    """Mean over a statement's epochs of the defined (not None) ``values``, (1/m) sum_e v_e;
    the value itself when only one is defined (an epoch's figure unchanged); None when none is."""
    defined = [v for v in values if v is not None]
    if not defined:
        return None
    if len(defined) == 1:
        return defined[0]
    return sum(float(v) for v in defined) / len(defined)


def outcome_fractions(outcomes: Sequence[str], kinds: Sequence[str]) -> dict[str, float]:
    """Share of each of ``kinds`` among one statement's ``outcomes`` (one per epoch, or per pair
    of epochs): (1/m) sum_e 1[outcome_e = kind]."""
    return {k: sum(1 for o in outcomes if o == k) / len(outcomes) for k in kinds}
