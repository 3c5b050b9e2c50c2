"""Report notes on a run's cost and precision (the figures ``inspect-stance plan`` expands).

- a run with adaptive trials: the trials run of the most, the share of calls used and the
  half-widths the cells reached (:func:`~inspect_stance.drift.planning.study.adaptive_summary`);
- a logprob run: the precision the frequency estimator would lose on it
  (:func:`~inspect_stance.drift.planning.estimators.precision_loss`, one sampled letter per trial): the trial-variance ratio
  ``r`` and the SPR-variance ratio at the run's trials per cell.
"""

from __future__ import annotations

from inspect_stance.drift.planning.estimators import estimator_in_use, precision_loss
from inspect_stance.drift.planning.study import adaptive_summary
from inspect_stance.drift.run import DriftRun
from inspect_stance.errors import InputError


def adaptive_note(run: DriftRun, name: str) -> str | None:
    """``note: NAME: adaptive trials (...): X of Y trials run (S % of the calls) ...``."""
    if run.adaptive_halfwidth is None:
        return None

    summary = adaptive_summary(run, 1.0)
    held, most = summary["trials_run"], summary["trials_planned"]
    note = (
        f"note: {name}: adaptive trials (-T adaptive_halfwidth={run.adaptive_halfwidth:g}): "
        f"{held:,} of {most:,} trials run ({100 * held / most:.0f} % of the calls); half-width "
        f"reached per cell: mean {summary['width_reached_mean']:.3f}, max "
        f"{summary['width_reached_max']:.3f}; the trials not run are left out"
    )
    if run.incomplete_samples:
        note += (
            f"; {run.incomplete_samples} samples incomplete (errored or unfinished): complete "
            "the run with `inspect eval-retry`"
        )
    return note


def frequency_note(run: DriftRun, name: str, unparsed: str) -> str | None:
    """How much precision the run would lose without logprobs (logprob runs only)."""
    if estimator_in_use(run.estimator_counts, run.probs) != "logprobs":
        return None
    try:
        loss = precision_loss(run.probs, unparsed, run.missing)
    except InputError:
        return None  # too few propositions or empty cells: no components to compare
    if loss.within_ratio != loss.within_ratio:  # NaN: no trial noise at all
        return None
    return (
        f"note: {name}: without logprobs (one sampled letter per trial) the trial variance "
        f"would be x{loss.within_ratio:.2f} and Var(SPR) x{loss.spr_variance_ratio:.3f} at "
        f"{loss.trials:.0f} trials per cell (`inspect-stance plan` for designs)"
    )


def planning_notes(run: DriftRun, name: str, unparsed: str) -> list[str]:
    """The notes that apply to ``run``."""
    notes = [adaptive_note(run, name), frequency_note(run, name, unparsed)]
    return [n for n in notes if n]
