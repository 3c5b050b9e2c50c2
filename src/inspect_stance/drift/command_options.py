"""Stance drift's own options of the shared commands (``report``, ``compare``, ``gate``)."""

from __future__ import annotations

from inspect_stance.study.protocol import ReportOption

#: drop unparsed/missing trials (``report``, ``compare`` and ``gate``; their
#: :class:`~inspect_stance.study.protocol.ReportOption`)
EXCLUDE_UNPARSED = ReportOption(
    "--exclude-unparsed",
    "drop unparsed/missing trials instead of counting them as failures",
    kind="flag",
)
