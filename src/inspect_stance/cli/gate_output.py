"""The gate's verdict for CI systems: JUnit XML (one test case per check) and GitHub Actions
workflow annotations (``::error`` for a failed check, ``::notice`` for a passed one)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_stance.printable import printable

if TYPE_CHECKING:
    from inspect_stance.stats.gate import CheckLine


def junit_xml(suite: str, checks: Sequence[CheckLine]) -> str:
    """A JUnit XML document: one ``<testsuite>``, one ``<testcase>`` per check, ``<failure>``
    for a failed one."""
    failures = sum(1 for c in checks if not c.passed)
    root = ET.Element("testsuites", tests=str(len(checks)), failures=str(failures))
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(checks)),
                       failures=str(failures), errors="0", skipped="0")  # fmt: skip
    for c in checks:
        message = printable(c.message)  # XML 1.0 has no control characters
        case = ET.SubElement(ts, "testcase", classname=suite, name=printable(c.name))
        if c.passed:
            ET.SubElement(case, "system-out").text = message
        else:
            ET.SubElement(case, "failure", message=message, type="regression").text = message
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_junit(path: str | Path, suite: str, checks: Sequence[CheckLine]) -> None:
    """Write :func:`junit_xml` to ``path``."""
    Path(path).write_text(junit_xml(suite, checks), encoding="utf-8")


def _escape_data(text: str) -> str:
    text = printable(text)  # no line break or terminal escape inside a workflow command
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(title: str, checks: Sequence[CheckLine]) -> list[str]:
    """``::error title=...::message`` per failed check, ``::notice`` per passed one (GitHub
    Actions workflow commands, data and properties escaped as GitHub specifies)."""
    out = []
    for c in checks:
        level = "notice" if c.passed else "error"
        t = _escape_property(f"{title}: {c.name}")
        out.append(f"::{level} title={t}::{_escape_data(c.message)}")
    return out
