"""Human-extraction study (``inspect-stance human-study FILE``).

Design of the reference study: each row is one generated argument with its ``initial_stance``
(letter A-E = stance index 0-4 in the default order), human stance labels in ``rater_*``
columns (letters A-E; blank = not labelled) and, optionally, model extraction votes in
``ai_votes_A`` ... ``ai_votes_E`` (counts).

- **Reference label** of an item: the plurality of its human labels; ties go to the earliest
  letter (A before B ... before E), deterministically.
- **Human agreement**: for each annotator, the share of their labels that equal the reference
  label (their own label is part of the plurality); reported as mean and SE over annotators,
  overall and by initial stance.
- **Model agreement**: the share of model votes equal to the reference label,
  ``a = sum_n h_n / sum_n V_n`` (``h_n = votes[n, ref_n]`` hits among item ``n``'s ``V_n``
  votes), with two standard errors that differ in the resampling unit:

  - ``se_over_votes`` (the paper's 0.002; ``se``): items fixed, the unit is the single
    extraction vote — the analogue of the human SE, which is over annotators who all label the
    same items. ``SE = sqrt(sum_n V_n s_n^2) / sum_n V_n`` with ``s_n^2 = V_n p_n (1 - p_n) /
    (V_n - 1)`` the sample variance (ddof 1) of item ``n``'s vote indicators, ``p_n = h_n /
    V_n`` (items with one vote add 0). With ``V`` votes per item this is
    ``sqrt(sum_n s_n^2 / (V N^2))``: the expected SE over the ``V`` votes taken as ``V``
    annotators, ``sd_k(a_k) / sqrt(V)``, when the table's counts do not say which vote came
    from which extraction run. It measures the vote-to-vote (extraction) randomness only;
  - ``se_over_items`` (0.050 on the paper's data): the unit is the argument, ``sd_n(p_n) /
    sqrt(N)`` over the items with votes — how much the figure would move with other arguments
    of the same proposition.
- **Generation-stage drift**: share of items whose reference label differs from the initial
  stance (the argument as written does not carry the requested stance, by human judgement).
- **Extraction-stage drift**: share of items whose model plurality (ties to the earliest letter)
  differs from the reference label (the model misreads the argument); items with no votes are
  left out.
- Inter-annotator reliability: Krippendorff's ordinal alpha (``krippendorff`` package).

All shares come with the count of items they are over; "by stance" means by initial stance.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.jsonsafe import json_safe
from inspect_stance.markdown import text_table
from inspect_stance.stances import LETTERS, N_STANCES, STANCES
from inspect_stance.stats.agreement import krippendorff_alpha
from inspect_stance.stats.moments import mean_se

SE_OVER_VOTES_TEXT = (
    "items fixed, resampling unit = one extraction vote (as the human SE is over annotators): "
    "sqrt(sum_n V_n s_n^2) / sum_n V_n, s_n^2 = sample variance of item n's vote indicators"
)
SE_OVER_ITEMS_TEXT = (
    "resampling unit = the argument: SD over items of the per-item share / sqrt(items)"
)
VOTE_COLUMNS: tuple[str, ...] = tuple(f"ai_votes_{x}" for x in LETTERS)
RATER_RE = re.compile(r"^rater_.+$")


@dataclass
class HumanStudyData:
    """Parsed study table: stance indices, human labels (-1 = none), model votes or None."""

    source: str
    initial: np.ndarray  # (N,)
    labels: np.ndarray  # (N, R) int, -1 missing
    raters: list[str]
    votes: np.ndarray | None  # (N, 5) counts


def _letters_to_index(values: pd.Series, path: Path, column: str, allow_blank: bool) -> np.ndarray:
    out = np.full(len(values), -1, dtype=int)
    for row, v in enumerate(values.to_list()):
        if v is None or (isinstance(v, float) and math.isnan(v)) or str(v).strip() == "":
            if allow_blank:
                continue
            raise ValueError(f"{path}: row {row + 2}, column {column!r} is empty; expected A-E")
        letter = str(v).strip().upper()
        if letter not in LETTERS:
            raise ValueError(
                f"{path}: row {row + 2}, column {column!r} has {v!r}; expected a letter A-E"
            )
        out[row] = LETTERS.index(letter)
    return out


def load_study(path: str | Path) -> HumanStudyData:
    """Read a study table (``.tsv``, ``.csv``, else delimiter sniffed); ``ValueError`` on bad input."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{path}: file not found")
    sep: str | None = "\t" if path.suffix == ".tsv" else ("," if path.suffix == ".csv" else None)
    try:
        df = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, engine="python")
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as ex:
        raise ValueError(f"{path}: cannot read as a table ({str(ex).splitlines()[0]})") from ex
    if "initial_stance" not in df.columns:
        raise ValueError(f"{path}: no 'initial_stance' column (columns: {', '.join(df.columns)})")
    raters = [c for c in df.columns if RATER_RE.match(c)]
    if not raters:
        raise ValueError(f"{path}: no 'rater_*' columns with human labels")
    if len(df) == 0:
        raise ValueError(f"{path}: no rows")
    initial = _letters_to_index(df["initial_stance"], path, "initial_stance", allow_blank=False)
    labels = np.stack([_letters_to_index(df[c], path, c, allow_blank=True) for c in raters], 1)
    empty = np.flatnonzero((labels < 0).all(axis=1))
    if empty.size:
        raise ValueError(
            f"{path}: row {int(empty[0]) + 2} has no human label in any rater_* column"
        )
    present = [c for c in VOTE_COLUMNS if c in df.columns]
    votes = None
    if present:
        if len(present) != len(VOTE_COLUMNS):
            missing = sorted(set(VOTE_COLUMNS) - set(present))
            raise ValueError(
                f"{path}: model vote columns incomplete (missing {', '.join(missing)})"
            )
        try:
            votes = df[list(VOTE_COLUMNS)].replace("", "0").astype(float).to_numpy()
        except ValueError as ex:
            raise ValueError(f"{path}: ai_votes_* columns must be counts ({ex})") from ex
        if (votes < 0).any() or not np.all(np.isfinite(votes)):
            raise ValueError(f"{path}: ai_votes_* columns must be non-negative counts")
    return HumanStudyData(
        source=str(path), initial=initial, labels=labels, raters=raters, votes=votes
    )


def plurality(counts: np.ndarray) -> np.ndarray:
    """Index of the largest count per row; ties go to the earliest stance (letter A first)."""
    return np.asarray(np.argmax(np.asarray(counts), axis=1), dtype=int)


def label_counts(labels: np.ndarray) -> np.ndarray:
    """``(N, 5)`` counts of each letter among an item's labels (-1 ignored)."""
    lab = np.asarray(labels)
    return np.stack([(lab == k).sum(axis=1) for k in range(N_STANCES)], axis=1)


def _share(mask: np.ndarray) -> float:
    return float(mask.mean()) if mask.size else math.nan


def analyse_study(data: HumanStudyData) -> dict[str, Any]:
    """Every figure of the study as a JSON-ready dict (see the module docstring)."""
    ref = plurality(label_counts(data.labels))
    labelled = data.labels >= 0
    gen_drift = ref != data.initial
    out: dict[str, Any] = {
        "file": data.source,
        "n_items": int(len(ref)),
        "n_raters": len(data.raters),
        "n_annotations": int(labelled.sum()),
        "stances": list(STANCES),
        "n_items_by_stance": [int((data.initial == i).sum()) for i in range(N_STANCES)],
        "human_agreement": _human_agreement(data, ref),
        "generation_drift": {
            "overall": _share(gen_drift),
            "by_stance": [_share(gen_drift[data.initial == i]) for i in range(N_STANCES)],
        },
        "reference_label_counts_by_stance": _confusion(data.initial, ref),
        "has_model_votes": data.votes is not None,
        "model_agreement": None,
        "extraction_drift": None,
        "model_plurality_counts_by_reference": None,
        "krippendorff_alpha_ordinal": _alpha(data.labels),
    }
    if data.votes is not None:
        out.update(_model_figures(data.votes, ref, data.initial))
    return json_safe(out)


def _human_agreement(data: HumanStudyData, ref: np.ndarray) -> dict[str, Any]:
    """Each annotator's share of labels equal to the reference label; mean and SE over
    annotators, overall and by initial stance."""
    labelled = data.labels >= 0
    agree = np.where(labelled, data.labels == ref[:, None], False)

    def rater_shares(rows: np.ndarray) -> np.ndarray:
        n = labelled[rows].sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, agree[rows].sum(axis=0) / np.maximum(n, 1), np.nan)

    per_rater = rater_shares(np.ones(len(ref), dtype=bool))
    h_mean, h_se = mean_se(per_rater)
    by_stance_h = [mean_se(rater_shares(data.initial == i)) for i in range(N_STANCES)]
    return {
        "mean": float(h_mean),
        "se": float(h_se),
        "by_stance": [float(m) for m, _ in by_stance_h],
        "by_stance_se": [float(s) for _, s in by_stance_h],
        "per_rater": {r: float(v) for r, v in zip(data.raters, per_rater, strict=True)},
    }


def _model_figures(votes: np.ndarray, ref: np.ndarray, initial: np.ndarray) -> dict[str, Any]:
    """``model_agreement`` (pooled ``sum h_n / sum V_n`` with both SEs of the module docstring),
    ``extraction_drift`` and the model-plurality confusion, from the ``(N, 5)`` vote counts."""
    total = votes.sum(axis=1)
    has = total > 0
    hit = votes[np.arange(len(ref)), ref]
    with np.errstate(invalid="ignore", divide="ignore"):
        item_share = np.where(has, hit / np.where(has, total, 1.0), np.nan)

    def pooled(rows: np.ndarray) -> float:
        t = total[rows].sum()
        return float(hit[rows].sum() / t) if t > 0 else math.nan

    _, se_items = mean_se(item_share)
    v_n = total[has]
    p_n = hit[has] / v_n
    s2_n = np.where(v_n > 1, v_n * p_n * (1 - p_n) / np.maximum(v_n - 1, 1), 0.0)
    se_votes = float(np.sqrt(np.sum(v_n * s2_n)) / v_n.sum()) if v_n.size else math.nan
    model_plural = plurality(votes)
    ext_drift = (model_plural != ref)[has]
    init_has = initial[has]
    model_agreement = {
        "overall": pooled(np.ones(len(ref), dtype=bool)),
        "se": se_votes,
        "se_over_votes": se_votes,
        "se_over_items": float(se_items),
        "se_definitions": {
            "se_over_votes": SE_OVER_VOTES_TEXT,
            "se_over_items": SE_OVER_ITEMS_TEXT,
        },
        "by_stance": [pooled(initial == i) for i in range(N_STANCES)],
        "n_votes": int(total.sum()),
    }
    return {
        "model_agreement": model_agreement,
        "extraction_drift": {
            "overall": _share(ext_drift),
            "by_stance": [_share(ext_drift[init_has == i]) for i in range(N_STANCES)],
            "n_items": int(has.sum()),
        },
        "model_plurality_counts_by_reference": _confusion(ref[has], model_plural[has]),
    }


def _confusion(rows: np.ndarray, cols: np.ndarray) -> list[list[int]]:
    m = np.zeros((N_STANCES, N_STANCES), dtype=int)
    np.add.at(m, (rows, cols), 1)
    return m.tolist()


def _alpha(labels: np.ndarray) -> float:
    data = np.where(labels >= 0, labels, np.nan).T.astype(float)  # raters x items
    return krippendorff_alpha(data, "ordinal")


def _fmt(x: Any, se: Any = None) -> str:
    if x is None:
        return "n/a"
    return f"{x:.3f} ({se:.3f})" if se is not None else f"{x:.3f}"


def study_table(result: dict[str, Any]) -> pd.DataFrame:
    """Table by initial stance (plus an 'all' row): items, agreement and drift shares."""
    h = result["human_agreement"]
    m = result["model_agreement"]
    g = result["generation_drift"]
    e = result["extraction_drift"]
    rows = []
    for i, name in enumerate(result["stances"]):
        rows.append(
            {
                "initial stance": f"{LETTERS[i]} {name}",
                "items": result["n_items_by_stance"][i],
                "human agreement": _fmt(h["by_stance"][i], h["by_stance_se"][i]),
                "model agreement": _fmt(m["by_stance"][i]) if m else "n/a",
                "generation drift": _fmt(g["by_stance"][i]),
                "extraction drift": _fmt(e["by_stance"][i]) if e else "n/a",
            }
        )
    rows.append(
        {
            "initial stance": "all",
            "items": result["n_items"],
            "human agreement": _fmt(h["mean"], h["se"]),
            "model agreement": _fmt(m["overall"], m["se_over_votes"]) if m else "n/a",
            "generation drift": _fmt(g["overall"]),
            "extraction drift": _fmt(e["overall"]) if e else "n/a",
        }
    )
    return pd.DataFrame(rows).set_index("initial stance")


def _matrix_frame(counts: list[list[int]], row_label: str, col_label: str) -> pd.DataFrame:
    return pd.DataFrame(
        counts,
        index=pd.Index([f"{LETTERS[i]} {s}" for i, s in enumerate(STANCES)], name=row_label),
        columns=[f"{col_label} {x}" for x in LETTERS],
    )


def study_text(result: dict[str, Any]) -> str:
    """Terminal summary of the study."""
    alpha = result["krippendorff_alpha_ordinal"]
    lines = [
        f"Human-extraction study: {result['file']}",
        f"{result['n_items']} items, {result['n_raters']} annotators, "
        f"{result['n_annotations']} annotations"
        + (
            f", {result['model_agreement']['n_votes']} model votes"
            if result["has_model_votes"]
            else ""
        )
        + f"; reference label = human plurality (ties -> earliest letter); "
        f"Krippendorff's ordinal alpha = {_fmt(alpha)}",
        "",
        "By initial stance (human agreement: mean (SE over annotators); model agreement: share of "
        "votes (SE over votes); drift: share of items)",
        text_table(study_table(result)),
        "",
        "Generation stage: initial stance (rows) x reference label (columns), items",
        text_table(_matrix_frame(result["reference_label_counts_by_stance"], "initial", "ref")),
    ]
    if result["has_model_votes"]:
        m = result["model_agreement"]
        lines += [
            "",
            f"Model agreement {_fmt(m['overall'])}: SE over votes {_fmt(m['se_over_votes'])} "
            f"({SE_OVER_VOTES_TEXT}); SE over items {_fmt(m['se_over_items'])} "
            f"({SE_OVER_ITEMS_TEXT})",
            "",
            "Extraction stage: reference label (rows) x model plurality (columns), items",
            text_table(
                _matrix_frame(result["model_plurality_counts_by_reference"], "reference", "model")
            ),
        ]
    return "\n".join(lines)
