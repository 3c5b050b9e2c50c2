"""Prompt construction's own ``compare`` options
(:attr:`inspect_stance.study.protocol.Comparer.options`), apart from the comparison's core so
that the method's record stays light."""

from __future__ import annotations

from inspect_stance.study.protocol import ReportOption

#: one lean row per shared setting x method cell (:func:`inspect_stance.construction.compare.
#: per_setting`)
PER_SETTING = ReportOption("--per-setting", "also one lean row per setting x method", kind="flag")
COMPARE_OPTIONS: tuple[ReportOption, ...] = (PER_SETTING,)
