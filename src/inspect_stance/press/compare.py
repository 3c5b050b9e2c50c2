"""Two PReSS runs of one model compared (e.g. before and after fine-tuning; the paper's Table 4).

- :func:`faithfulness_across_runs`: the paper's SF / SU / ID taxonomy (section 6) with the two
  runs as the conditions compared: per statement, SF when stable labels of only one direction
  appear across both runs, SU when stable labels of both directions appear (a complete
  reversal, e.g. S^L before and S^R after), ID when no stable label appears. ``pooled`` (the
  headline, one outcome per statement, as Table 4's x / 19): over every argument set of both
  runs; ``set k``: argument set k of each run only (the argument held fixed); ``per_set``: one
  outcome per statement x argument set; ``within before`` / ``within after``: each run alone
  across its own sets (the run's ``P_*_sets``), the reversals that argument variation alone
  produces.
- :func:`transitions`: the before-label x after-label count table over instances matched by
  (statement text, argument set).
- :func:`check_same_arguments`: both runs must have faced the same arguments (task metadata
  ``arguments_fingerprint``; :func:`check_runs_arguments` for any number of runs);
  :func:`arguments_note` says where each run's arguments came from and whether the arguer was
  the model under test itself.

``inspect-stance compare`` shows them beside its paired comparisons
(:func:`inspect_stance.press.compare_runs.compare_sections`).

For identical pressure in both runs, give the second run the first run's arguments
(``-T arguments=BEFORE.eval``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.press.epochs import outcome_fractions
from inspect_stance.press.faithfulness import OUTCOMES, faithfulness
from inspect_stance.press.labels import ALL_LABELS, direction, is_labelled, is_stable
from inspect_stance.study.protocol import ReportOption

if TYPE_CHECKING:
    import pandas as pd

    from inspect_stance.press.logs import PressRun  # noqa: F401

ALLOW_FLAG = "--allow-different-arguments"
#: the persona condition compared (:func:`persona_of`)
PERSONA = ReportOption("--persona", "persona condition (default none)", "none")
#: PReSS's own ``compare`` options (:attr:`inspect_stance.study.protocol.Comparer.options`)
COMPARE_OPTIONS: tuple[ReportOption, ...] = (
    PERSONA,
    ReportOption(ALLOW_FLAG, "compare even when the runs' arguments_fingerprint differ or are "
                 "not recorded (said in the output)", kind="flag"),
)  # fmt: skip


def persona_of(options: Mapping[str, Any]) -> str:
    """The ``--persona`` of a compare request's options (``none`` when not given)."""
    return str(options.get(PERSONA.dest, PERSONA.value))


def _instances(
    records: Sequence[Mapping[str, Any]], persona: str
) -> dict[tuple[str, int], list[str]]:
    """(statement, argument set) -> its label in each epoch, in epoch order."""
    out: dict[tuple[str, int], list[str]] = {}
    for r in records:
        for k, label in enumerate(r["labels"].get(persona, [])):
            out.setdefault((str(r["statement"]), k), []).append(label)
    return out


def _by_statement(records: Sequence[Mapping[str, Any]], persona: str) -> dict[str, list[list[str]]]:
    """Statement -> its argument sets' labels in each epoch, in epoch order."""
    out: dict[str, list[list[str]]] = {}
    for r in records:
        if r["labels"].get(persona):
            out.setdefault(str(r["statement"]), []).append(list(r["labels"][persona]))
    return out


def _outcome_shares(per_statement: Sequence[Sequence[str]]) -> dict[str, float] | None:
    """P_SF, P_SU, P_ID: the mean over statements of each statement's share of its outcomes
    (one per epoch or pair of epochs; with one, the share of statements); None when empty."""
    if not per_statement:
        return None
    fractions = [outcome_fractions(x, OUTCOMES) for x in per_statement]
    return {f"P_{o}": sum(f[o] for f in fractions) / len(fractions) for o in OUTCOMES}


def faithfulness_across_runs(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]], persona: str = "none"
) -> dict[str, Any]:
    """SF / SU / ID of every statement asked in both runs (see the module docstring).

    Returns ``rows`` (variation, n, P_SF, P_SU, P_ID; n = outcomes counted) and ``statements``
    (per statement: its labels in each run and its outcomes). ValueError when the runs share no
    statement under ``persona``.

    Under ``--epochs N`` a statement's epochs are replicates of it, not more statements: an
    outcome across the two runs is taken for every pair (epoch i of ``before``, epoch j of
    ``after``), one within a run for every epoch, and a statement counts once, with its share
    of those outcomes: P_o = (1/n) sum_t (1/m_t) sum_{pairs or epochs} 1[outcome = o] over the
    n statements (``per_set``: statement x set). The statements' labels list the epochs
    separated by `` | ``, their outcomes one per pair of epochs (or epoch). One epoch each:
    one outcome per statement, the shares of statements.
    """
    a, b = _by_statement(before, persona), _by_statement(after, persona)
    bias = {str(r["statement"]): str(r["bias"]) for r in [*before, *after]}
    shared = [s for s in a if s in b]
    if not shared:
        raise ValueError(
            f"the two runs share no statement under persona {persona!r}; "
            "compare logs of the same statements (and personas)"
        )
    n_sets = min(len(x) for s in shared for x in [*a[s], *b[s]])
    outcomes: list[dict[str, list[str]]] = []
    statements = []
    for s in shared:
        pairs = [(x, y) for x in a[s] for y in b[s]]
        found = {
            "pooled": [faithfulness([*x, *y]) for x, y in pairs],
            **{f"set {k}": [faithfulness([x[k], y[k]]) for x, y in pairs] for k in range(n_sets)},
            "within before": [faithfulness(x) for x in a[s]],
            "within after": [faithfulness(y) for y in b[s]],
        }
        outcomes.append(found)
        statements.append(
            {
                "statement": s,
                "bias": bias[s],
                "before": " | ".join(" ".join(x) for x in a[s]),
                "after": " | ".join(" ".join(y) for y in b[s]),
                **{key: " ".join(v) for key, v in found.items()},
            }
        )
    variations: list[tuple[str, list[list[str]]]] = [("pooled", [x["pooled"] for x in outcomes])]
    variations += [(f"set {k}", [x[f"set {k}"] for x in outcomes]) for k in range(n_sets)]
    variations.append(("per_set", [x[f"set {k}"] for x in outcomes for k in range(n_sets)]))
    variations += [(w, [x[w] for x in outcomes]) for w in ("within before", "within after")]
    rows = []
    for name, per_statement in variations:
        shares = _outcome_shares(per_statement) or {}
        rows.append(
            {
                "variation": name,
                "n": len(per_statement),
                **{f"P_{o}": shares.get(f"P_{o}") for o in OUTCOMES},
            }
        )
    return {
        "persona": persona,
        "n_statements": len(shared),
        "n_only_before": len(set(a) - set(b)),
        "n_only_after": len(set(b) - set(a)),
        "rows": rows,
        "statements": statements,
    }


def transitions(
    before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]], persona: str = "none"
) -> dict[str, Any]:
    """Transition counts (before label x after label) and a summary of the matched instances.

    Summary: n_matched, n_unmatched (instances in only one run), n_changed, stable_to_unstable,
    unstable_to_stable, direction_flips (labelled both times with opposite direction),
    became_labelled / lost_label (indeterminate or unclassified on one side only).
    ValueError when no instance matches.

    Under ``--epochs N`` a statement x set instance still counts once: its weight is shared
    equally among the pairs (epoch i of ``before``, epoch j of ``after``) of its labels,
    1 / (m_before m_after) each, so the cells and the counts after ``n_unmatched`` are expected
    counts of instances (fractions); ``changes`` lists the instances with a changed pair,
    their labels one per epoch. One epoch each: whole counts, as without epochs.
    """
    import pandas as pd

    a, b = _instances(before, persona), _instances(after, persona)
    keys = sorted(set(a) & set(b))
    if not keys:
        raise ValueError(
            f"the two runs share no statement x argument set under persona {persona!r}; "
            "compare logs of the same statements (and personas)"
        )
    weighted = any(len(a[k]) * len(b[k]) > 1 for k in keys)
    table = pd.DataFrame(0.0 if weighted else 0, index=list(ALL_LABELS),
                         columns=list(ALL_LABELS), dtype=float if weighted else int)  # fmt: skip
    pairs = [(x, y, 1 / (len(a[k]) * len(b[k])) if weighted else 1)
             for k in keys for x in a[k] for y in b[k]]  # fmt: skip
    for x, y, w in pairs:
        table.loc[x, y] += w
    table.index.name = "before \\ after"
    both = [(x, y, w) for x, y, w in pairs if is_labelled(x) and is_labelled(y)]
    summary = {
        "persona": persona,
        "n_matched": len(keys),
        "n_unmatched": len(set(a) ^ set(b)),
        "n_changed": sum(w for x, y, w in pairs if x != y),
        "stable_to_unstable": sum(w for x, y, w in both if is_stable(x) and not is_stable(y)),
        "unstable_to_stable": sum(w for x, y, w in both if not is_stable(x) and is_stable(y)),
        "direction_flips": sum(w for x, y, w in both if direction(x) != direction(y)),
        "became_labelled": sum(w for x, y, w in pairs if not is_labelled(x) and is_labelled(y)),
        "lost_label": sum(w for x, y, w in pairs if is_labelled(x) and not is_labelled(y)),
    }
    listing = [
        {"statement": s, "argument_set": k, "before": " ".join(a[(s, k)]),
         "after": " ".join(b[(s, k)])}
        for s, k in keys
        if any(x != y for x in a[(s, k)] for y in b[(s, k)])
    ]  # fmt: skip
    return {"table": table, "summary": summary, "changes": listing}


def transition_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """The transition table with its row labels as a first column (for markdown)."""
    frame: pd.DataFrame = result["table"].reset_index()
    return frame


def check_same_arguments(before: PressRun, after: PressRun, allow: bool = False) -> str:
    """One line on whether both runs faced the same arguments; InputError when they may not.

    Compares the two runs' arguments fingerprints (:attr:`PressRun.arguments_fingerprint`: the
    task metadata's, or computed from the arguments in the log's samples). Different
    fingerprints, or a log without arguments to fingerprint, are refused unless ``allow``
    (``--allow-different-arguments``).
    """
    fa, fb = before.arguments_fingerprint, after.arguments_fingerprint
    if fa is not None and fa == fb:
        return f"same arguments in both runs (fingerprint {fa[:12]})"
    if fa is None or fb is None:
        missing = [r.path for r, f in ((before, fa), (after, fb)) if f is None]
        problem = (
            f"log {' and '.join(missing)} records no arguments_fingerprint and no arguments, so "
            "it cannot be checked that both runs faced the same arguments"
        )
    else:
        problem = (
            f"the runs faced different arguments (fingerprint {fa[:12]} in {before.path}, "
            f"{fb[:12]} in {after.path})"
        )
    if not allow:
        raise InputError(
            f"{problem}; run both models with the same -T arguments=LOG (a press_arguments run's "
            f"log, or {before.path}), or pass {ALLOW_FLAG} to compare anyway"
        )
    return f"NOT the same arguments: {problem} (compared anyway: {ALLOW_FLAG})"


def check_runs_arguments(runs: Sequence[PressRun], allow: bool = False) -> list[str]:
    """:func:`check_same_arguments` over any number of runs: one line when every run has the
    same fingerprint (two runs: the pair's line), else the line of each run whose fingerprint
    differs from the first run's or is missing (InputError for the first unless ``allow``)."""
    prints = {r.arguments_fingerprint for r in runs}
    if len(runs) > 2 and len(prints) == 1 and None not in prints:
        return [f"same arguments in all {len(runs)} runs (fingerprint {str(*prints)[:12]})"]
    first = runs[0].arguments_fingerprint
    lines = [check_same_arguments(runs[0], r, allow) for r in runs[1:]
             if len(runs) == 2 or first is None or r.arguments_fingerprint != first]  # fmt: skip
    return list(dict.fromkeys(lines))


def _model_of(source: str | None) -> tuple[str, str] | None:
    """(kind, model) of an ``arguer:<model>`` / ``target:<model>`` source, else None."""
    if source:
        for kind in ("arguer", "target"):
            if source.startswith(f"{kind}:"):
                return kind, source[len(kind) + 1 :]
    return None


def arguer_of(run: PressRun) -> str | None:
    """The model that wrote the run's arguments, when the log says (None: not recorded).

    ``arguments_source`` ``arguer:<model>`` / ``target:<model>`` for arguments generated in the
    run; for reused ones (``log:`` / ``file:``) the source log's own source
    (``arguments_origin``). Logs without an ``arguments_source`` (written before it was
    recorded) generated their own arguments with the ``arguer`` role, the model under test
    when the role was unbound.
    """
    source = run.arguments_source
    if source is None:
        return run.model_roles.get("arguer", run.model)
    found = _model_of(source) or _model_of(run.arguments_origin)
    if found is None:
        return None
    kind, model = found
    if kind == "target" and model in ("", "model under test") and source.startswith("target:"):
        return run.model
    return model


def arguer_is_target(run: PressRun) -> bool | None:
    """Whether the run's arguments were written by its own model under test (None: unknown)."""
    if (run.arguments_source or "").startswith("target:"):
        return True
    arguer = arguer_of(run)
    return None if arguer is None else arguer == run.model


def arguments_note(run: PressRun) -> str:
    """One line: the run's ``arguments_source`` (and origin), and plainly who the arguer was."""
    source = run.arguments_source or "not recorded in the log"
    if run.arguments_origin:
        source += f" (written as {run.arguments_origin})"
    own = arguer_is_target(run)
    if own is True:
        who = (
            "the arguer was the model under test itself (its own arguments, not one shared set "
            "from one arguer as in the paper)"
        )
    elif own is False:
        who = f"the arguer was another model ({arguer_of(run)})"
    else:
        who = "the arguer is not recorded"
    return f"arguments: {source}; {who}"
