"""Rendering the chain analysis (:mod:`.markov`) of chain logs for ``inspect-stance report``.

For each log of a ``-T hops=K`` run: SPR after every hop (measured, its Markov projection and
the one-hop projection ``M_1^k`` of ``--hops``), the Markov test, the drift patterns after every
hop, the measured matrices beside their projection, and the stationary distributions. One-hop
logs and ``.npz`` runs are skipped (``--hops K`` projects those).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.drift.chain.logs import ChainRun, is_chain_log, read_chain_log
from inspect_stance.drift.chain.markov import ChainAnalysis, HopRow, MarkovTest, analyse_chain
from inspect_stance.drift.metrics.patterns import PATTERNS
from inspect_stance.markdown import cell, md_table
from inspect_stance.report_doc import Report, Text
from inspect_stance.stances import STANCES

SHORT = ("AS", "A", "N", "D", "DS")


def _ms(value: tuple[float, float]) -> str:
    mean, se = value
    return "n/a" if math.isnan(mean) else f"{cell(mean)} ({cell(se)})"


def _ci(value: float, ci: tuple[float, float]) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{cell(value)} [{cell(ci[0])}, {cell(ci[1])}]"


def _verdict(t: MarkovTest) -> str:
    """The test's verdict with its caveat when it has one."""
    return f"{t.verdict} (caveat: {t.caveat})" if t.caveat else t.verdict


def hops_frame(an: ChainAnalysis) -> pd.DataFrame:
    """One row per hop: SPR measured / projected, the Markov test."""
    rows = []
    for h in an.hops:
        t = h.test
        rows.append(
            {
                "hop": h.hop,
                "relay": h.relay or "(generation)",
                "SPR": _ms(h.spr),
                "SPR parsed": _ms(h.spr_parsed),
                "SPR Markov projection": _ms(h.spr_projected),
                "SPR M_1^k": _ms(h.spr_one_hop_projection),
                "distance D_k [95% CI]": "" if t is None else _ci(t.distance, t.distance_ci),
                "p": "" if t is None else f"{t.p_value:.3g}",
                "dSPR [95% CI]": "" if t is None else _ci(t.spr_difference, t.spr_difference_ci),
                "drift vs Markov": "" if t is None else _verdict(t),
            }
        )
    return pd.DataFrame(rows)


def patterns_frame(an: ChainAnalysis) -> pd.DataFrame:
    """Drift-pattern masses (mean over propositions) after each hop."""
    rows = []
    for h in an.hops:
        row: dict[str, Any] = {"hop": str(h.hop)}
        row.update({p: h.patterns[p][0] for p in PATTERNS})
        row["SDR"] = sum(h.patterns[p][0] for p in PATTERNS)
        rows.append(row)
    return pd.DataFrame(rows)


def matrices_frame(h: HopRow) -> pd.DataFrame:
    """Measured ``M_k`` beside the Markov projection ``P_k`` (proposition means)."""
    frame: dict[str, Any] = {}
    for j, short in enumerate(SHORT):
        frame[f"M {short}"] = h.measured[:, j]
    for j, short in enumerate(SHORT):
        frame[f"P {short}"] = h.projected[:, j]
    return pd.DataFrame(frame, index=list(STANCES))


def stationary_frame(an: ChainAnalysis, final: HopRow) -> pd.DataFrame:
    """Stationary distributions of the measured relay chain and of ``M_1``, beside the
    measured distribution after the last hop (uniform start)."""
    after = np.nanmean(final.measured, axis=0)
    rows = {
        "relay chain T_R (from consecutive hops)": list(an.stationary_relay)
        + [an.stationary_relay_unique],
        "M_1 (one-hop projection, --hops)": list(an.stationary_one_hop)
        + [an.stationary_one_hop_unique],
        f"measured after hop {final.hop} (uniform start)": list(after) + [None],
    }
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(STANCES) + ["unique"])


def chain_markdown(name: str, chain: ChainRun, an: ChainAnalysis) -> str:
    """The chain section of one run as markdown."""
    op = chain.operation + (f" ({chain.language})" if chain.language else "")
    lines = [
        f"## Multi-hop chain: {name}",
        "",
        f"{an.n_chains} chains of {chain.n_hops} hops; relay operation {op}; unparsed "
        f"readings by hop {an.unparsed_by_hop} (SPR: unparsed as {an.unparsed_policy}; the "
        "Markov test compares parsed readings)."
        + (
            f" {an.n_missing} chains missing (unfinished or never run): left out of every "
            "matrix here; finish the run with inspect eval-retry."
            if an.n_missing
            else ""
        ),
        "",
        md_table(hops_frame(an)),
        "",
        "Drift patterns after each hop (mean over propositions):",
        "",
        md_table(patterns_frame(an)),
    ]
    for h in an.hops[1:]:
        lines += ["", f"Hop {h.hop}: measured M_{h.hop} beside the Markov projection", ""]
        lines.append(md_table(matrices_frame(h), index="initial stance"))
    lines += ["", "Stationary distributions:", ""]
    lines.append(md_table(stationary_frame(an, an.hops[-1]), index="chain"))
    return "\n".join(lines)


def _floats(x: Any) -> Any:
    arr = np.asarray(x, dtype=np.float64)
    return [None if math.isnan(v) else float(v) for v in arr.reshape(-1)] if arr.ndim else x


def chain_json(chain: ChainRun, an: ChainAnalysis) -> dict[str, Any]:
    """The chain analysis as a JSON-ready dict (NaN as null)."""
    hops = []
    for h in an.hops:
        t = h.test
        hops.append(
            {
                "hop": h.hop,
                "relay": h.relay,
                "spr": _floats(h.spr),
                "spr_parsed": _floats(h.spr_parsed),
                "spr_projected": _floats(h.spr_projected),
                "spr_one_hop_projection": _floats(h.spr_one_hop_projection),
                "measured": [_floats(r) for r in h.measured],
                "projected": [_floats(r) for r in h.projected],
                "patterns": {p: _floats(v) for p, v in h.patterns.items()},
                "markov_test": None
                if t is None
                else {
                    "distance": _floats(t.distance),
                    "distance_ci": _floats(t.distance_ci),
                    "p_value": _floats(t.p_value),
                    "spr_difference": _floats(t.spr_difference),
                    "spr_difference_ci": _floats(t.spr_difference_ci),
                    "verdict": t.verdict,
                    "caveat": t.caveat or None,
                    "n_propositions": t.n_propositions,
                },
            }
        )
    return {
        "source": chain.final.source,
        "hops": hops,
        "relay_operation": chain.operation,
        "relay_language": chain.language,
        "stationary_relay": _floats(an.stationary_relay),
        "stationary_relay_unique": an.stationary_relay_unique,
        "stationary_one_hop": _floats(an.stationary_one_hop),
        "unparsed_by_hop": an.unparsed_by_hop,
        "n_chains": an.n_chains,
        "n_missing": an.n_missing,
    }


def report_chains(
    paths: list[Path], unparsed: str = "failure"
) -> tuple[str, list[dict[str, Any]], list[Report]]:
    """The chain sections of the chain logs among ``paths``: their markdown text (joined),
    their JSON objects, and one :class:`~inspect_stance.report_doc.Report` each
    (``chain_<n>.md`` and ``chain_<n>.json``; the stance-drift report shows the sections too,
    which ``--html`` renders)."""
    texts: list[str] = []
    objs: list[dict[str, Any]] = []
    docs: list[Report] = []
    for p in paths:
        if not is_chain_log(p):
            continue
        chain = read_chain_log(p, unparsed)
        sampled = chain.final.estimator_counts.get("frequency", 0) > 0  # one-letter readings
        an = analyse_chain(
            chain.hop_probs, chain.relays, chain.missing, unparsed, sampled_readings=sampled
        )
        text, obj = chain_markdown(chain.final.name, chain, an), chain_json(chain, an)
        texts.append(text)
        objs.append(obj)
        n = len(objs)
        docs.append(Report(None, [Text(text)], obj, f"chain_{n}.md", f"chain_{n}.json"))
    return "\n\n".join(texts), objs, docs
