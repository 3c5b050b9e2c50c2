"""The stance-drift report: figures computed (``analysis``), CSV frames (``frames``), text
(``render``), PNGs (``plots``, drawn by ``heatmap``), planning notes (``planning``) and the files
of ``--out`` (``write``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_stance.lazy import lazy_exports

if TYPE_CHECKING:
    from inspect_stance.drift.report.analysis import MAX_HOPS as MAX_HOPS
    from inspect_stance.drift.report.analysis import build_report as build_report
    from inspect_stance.drift.report.analysis import unique_names as unique_names
    from inspect_stance.drift.report.render import run_json as run_json
    from inspect_stance.drift.report.render import terminal_summary as terminal_summary
    from inspect_stance.drift.report.write import write_outputs as write_outputs

#: public name -> the module that defines it (imported on first use)
_EXPORTS = {
    "MAX_HOPS": "inspect_stance.drift.report.analysis",
    "build_report": "inspect_stance.drift.report.analysis",
    "unique_names": "inspect_stance.drift.report.analysis",
    "run_json": "inspect_stance.drift.report.render",
    "terminal_summary": "inspect_stance.drift.report.render",
    "write_outputs": "inspect_stance.drift.report.write",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
