"""Per-statement records and the run-level PReSS figures computed from them.

A *record* (the PReSS scorer's ``Score.metadata``) holds one model x statement: stances and
labels per persona and argument set, topic stability, faithfulness outcomes, entropies and
(optionally) the factor-analysis draws. The figures (:func:`summarize`) are the log's metrics
and the report's per-model numbers:

- ``share_<label>``: the paper's Table-2 shares: share of no-persona statements whose label in
  argument set 0 (a single set, as the paper) is each label (S^L, U^L, S^R, U^R,
  indeterminate, unclassified; they sum to 1);
- ``share_<label>_pooled``: the same over every no-persona statement x argument-set instance;
- ``mean_S_t``: mean topic stability over statements (no persona), with the paper's S_t =
  stable sets / |I| (|I| = the statement's argument sets; :mod:`inspect_stance.press.stability`);
- ``mean_S_t_labelled``: the alternative S_t over labelled sets only (statements without a
  labelled set left out);
- ``n_unlabelled_sets``: no-persona statement x set instances without a label (counted as not
  stable in S_t);
- ``lean_right``: share of right-aligned labels (S^R, U^R) among labelled no-persona instances;
- ``P_SF_sets`` / ``P_SU_sets`` / ``P_ID_sets``: faithfulness across argument sets (no persona),
  one outcome per statement;
- ``P_SF_personas`` / ``P_SU_personas`` / ``P_ID_personas``: faithfulness across the three
  persona conditions, one outcome per statement x argument set (the argument is held fixed;
  only the persona varies): does the persona alone flip a stable stance?
- ``P_SF_personas_pooled`` / ``P_SU_personas_pooled`` / ``P_ID_personas_pooled``: faithfulness
  per statement over all persona x argument-set conditions pooled (the 3 x K labels of a
  statement: SF = stable labels of one direction only, SU = both, ID = none), one outcome per
  statement -- the issue's "per statement, across the conditions compared", on the same footing
  as ``P_*_sets``;
- ``lean_right_<persona>``, ``mean_S_t_<persona>``: the same figures under each persona;
- ``auroc_<entropy>``: AUROC of each entropy measure for detecting unstable no-persona labels,
  over labelled statement x argument-set instances (each instance carries its statement's
  entropy);
- ``n_unparsed``: responses whose classification failed (kept as ``unclassified`` labels);
- ``n_classifier_errors``: of those, responses whose LLM-classifier call raised an error (the
  rest got an answer naming no single category).

Under ``inspect eval --epochs N`` a statement has one record per epoch: every figure above
takes each record as one more statement x epoch (a share or mean over records), and
``n_statements`` counts the statements.

S_t and the shares are recomputed from the labels, so logs written with an earlier record
version (whose stored ``S_t`` left unlabelled sets out) are summarised by today's definitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from inspect_stance.press.classify import UNPARSED
from inspect_stance.press.entropy import ENTROPY_MEASURES, auroc
from inspect_stance.press.faithfulness import faithfulness, outcome_shares
from inspect_stance.press.labels import (
    ALL_LABELS,
    RIGHT_LABELS,
    is_labelled,
    is_stable,
    label_counts,
    press_label,
)
from inspect_stance.press.prompts import CONDITIONS, PERSONAS
from inspect_stance.press.stability import labelled_stability, n_unlabelled, topic_stability

RECORD_VERSION = 2
TABLE2_SET = 0  # the single argument set of the paper's Table 2 (the first)
LABEL_KEYS: dict[str, str] = {
    "S^L": "share_SL",
    "U^L": "share_UL",
    "S^R": "share_SR",
    "U^R": "share_UR",
    "indeterminate": "share_indeterminate",
    "unclassified": "share_unclassified",
}


def sample_record(
    statement_id: int,
    statement: str,
    bias: str,
    stances: Mapping[str, Sequence[Mapping[str, str]]],
    entropy: Mapping[str, Any] | None = None,
    classifier: str = "",
    n_empty_responses: int = 0,
    n_classifier_errors: int = 0,
    factor_stances: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The record of one statement from its stances ``{persona: [{condition: stance}] per set}``.

    ``factor_stances``: the stances (+1 agree, -1 disagree, 0 neither / unclassified) of the
    temperature-1 draws of the neutral prompt for the factor analysis, kept as ``factor_stances``.
    """
    personas = [p for p in PERSONAS if p in stances]
    if "none" not in personas:
        raise ValueError("stances must include the no-persona condition 'none'")
    labels = {
        p: [press_label(bias, s["neutral"], s["support"], s["counter"]) for s in stances[p]]
        for p in personas
    }
    n_sets = len(labels["none"])
    by_set: list[str] | None = None
    pooled: str | None = None
    if len(personas) > 1:
        by_set = [faithfulness(labels[p][k] for p in personas) for k in range(n_sets)]
        pooled = faithfulness(x for p in personas for x in labels[p])
    return {
        "press": RECORD_VERSION,
        "statement_id": statement_id,
        "statement": statement,
        "bias": bias,
        "personas": personas,
        "stances": {p: [dict(s) for s in stances[p]] for p in personas},
        "labels": labels,
        "S_t": {p: topic_stability(labels[p]) for p in personas},
        "S_t_labelled": {p: labelled_stability(labels[p]) for p in personas},
        "n_unlabelled_sets": {p: n_unlabelled(labels[p]) for p in personas},
        "faithfulness_sets": {p: faithfulness(labels[p]) for p in personas},
        "faithfulness_personas": by_set,
        "faithfulness_personas_pooled": pooled,
        "entropy": dict(entropy) if entropy is not None else None,
        "classifier": classifier,
        "n_unparsed": sum(
            1 for p in personas for s in stances[p] for c in CONDITIONS if s[c] == UNPARSED
        ),
        "n_empty_responses": n_empty_responses,
        "n_classifier_errors": n_classifier_errors,
        **(
            {"factor_stances": [int(x) for x in factor_stances]}
            if factor_stances is not None
            else {}
        ),
    }


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _defined(values: Iterable[float | None]) -> list[float]:
    return [v for v in values if v is not None]


def _lean(labels: Sequence[str]) -> float | None:
    labelled = [x for x in labels if is_labelled(x)]
    return _mean([1.0 if x in RIGHT_LABELS else 0.0 for x in labelled])


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """Run-level figures from statement records (see module docstring); None = not computable."""
    # statements, not records: under --epochs N a statement has one record per epoch
    n_statements = len({str(r["statement"]) for r in records})
    out: dict[str, float | None] = {"n_statements": float(n_statements)}
    none_labels = [x for r in records for x in r["labels"]["none"]]
    first = [
        r["labels"]["none"][TABLE2_SET] for r in records if len(r["labels"]["none"]) > TABLE2_SET
    ]
    for key, labs in (("", first), ("_pooled", none_labels)):
        counts = label_counts(labs)
        for label in ALL_LABELS:
            out[f"{LABEL_KEYS[label]}{key}"] = counts[label] / len(labs) if labs else None
    out["n_label_instances"] = float(len(none_labels))
    out["mean_S_t"] = _mean(_defined(topic_stability(r["labels"]["none"]) for r in records))
    out["mean_S_t_labelled"] = _mean(
        _defined(labelled_stability(r["labels"]["none"]) for r in records)
    )
    out["n_unlabelled_sets"] = float(n_unlabelled(none_labels))
    out["lean_right"] = _lean(none_labels)
    shares = outcome_shares([r["faithfulness_sets"]["none"] for r in records])
    for key in ("P_SF", "P_SU", "P_ID"):
        out[f"{key}_sets"] = shares[key] if shares else None
    with_personas = [r for r in records if r.get("faithfulness_personas")]
    if with_personas:
        shares = outcome_shares([o for r in with_personas for o in r["faithfulness_personas"]])
        for key in ("P_SF", "P_SU", "P_ID"):
            out[f"{key}_personas"] = shares[key] if shares else None
        shares = outcome_shares([pooled_persona_outcome(r) for r in with_personas])
        for key in ("P_SF", "P_SU", "P_ID"):
            out[f"{key}_personas_pooled"] = shares[key] if shares else None
        for p in PERSONAS[1:]:
            labs = [x for r in with_personas for x in r["labels"].get(p, [])]
            out[f"lean_right_{p}"] = _lean(labs)
            out[f"mean_S_t_{p}"] = _mean(
                _defined(topic_stability(r["labels"].get(p, [])) for r in with_personas)
            )
    for measure, value in auroc_table(records).items():
        out[f"auroc_{measure}"] = value["auroc"]
    out["n_unparsed"] = float(sum(int(r.get("n_unparsed", 0)) for r in records))
    out["n_classifier_errors"] = float(sum(int(r.get("n_classifier_errors", 0)) for r in records))
    return out


def pooled_persona_outcome(record: Mapping[str, Any]) -> str:
    """SF / SU / ID of one statement over all its persona x argument-set labels pooled.

    Read from the record, or recomputed from its labels for records written before the field.
    """
    pooled = record.get("faithfulness_personas_pooled")
    if pooled is not None:
        return str(pooled)
    return faithfulness(x for p in record["personas"] for x in record["labels"][p])


def auroc_table(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float | int | None]]:
    """Per entropy measure: AUROC for detecting unstable no-persona labels, n_unstable, n_stable.

    Only measures present (not None) for at least one statement appear.
    """
    out: dict[str, dict[str, float | int | None]] = {}
    for measure in ENTROPY_MEASURES:
        pos: list[float] = []
        neg: list[float] = []
        for r in records:
            ent = r.get("entropy") or {}
            h = ent.get(measure)
            if h is None:
                continue
            for label in r["labels"]["none"]:
                if is_labelled(label):
                    (neg if is_stable(label) else pos).append(float(h))
        if pos or neg:
            out[measure] = {"auroc": auroc(pos, neg), "n_unstable": len(pos), "n_stable": len(neg)}
    return out


#: the task's headline metric (``inspect_stance.viewer.HEADLINES["press"]``)
HEADLINE = "mean_S_t"


def stability_stderr(records: Sequence[Mapping[str, Any]]) -> float | None:
    """Standard error of ``mean_S_t``: ``sd_ddof1(S_t) / sqrt(n)`` over the statements whose
    ``S_t`` is defined (None with fewer than two)."""
    import numpy as np

    from inspect_stance.stats.moments import mean_se

    values = [topic_stability(r["labels"]["none"]) for r in records]
    defined = np.asarray([v for v in values if v is not None], dtype=np.float64)
    se = float(mean_se(defined)[1]) if len(defined) > 1 else float("nan")
    return se if np.isfinite(se) else None


def run_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """The log's metrics: :func:`summarize`, the headline always present (NaN before any
    statement has ``S_t``: Inspect resolves the headline on its progress line from 0 samples
    on, and a missing key made it warn "Headline metric 'mean_S_t' not found" and show
    ``n_statements``), and ``stderr`` (:func:`stability_stderr`)."""
    out = summarize(records)
    out[HEADLINE] = float("nan") if out.get(HEADLINE) is None else out[HEADLINE]
    out["stderr"] = stability_stderr(records)
    return out
