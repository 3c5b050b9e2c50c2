"""Every relative link in README.md and docs/*.md resolves: the file exists (from the linking
document's folder), and a ``#fragment`` names a heading of the target (GitHub's anchors:
lower case, punctuation but ``-`` and ``_`` dropped, spaces as ``-``, a repeated heading
``-1``, ``-2``...). Links inside code blocks and inline code are not links; ``http(s):`` and
``mailto:`` links are not checked (no network in tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_IMAGE = re.compile(r"\!\[[^\]]*\]\(\s*<?([^)\s>]+)>?\s*\)")
_REF_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
_HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def _prose(text: str) -> str:
    """``text`` without fenced code blocks and inline code."""
    return _INLINE_CODE.sub("", _FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading's text (inline markup dropped)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "")  # code and emphasis marks
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings (repeats numbered as GitHub does) and HTML anchors."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out: set[str] = set()
    for m in _HEADING.finditer(text):
        base = anchor(m.group(2))
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    out.update(_HTML_ANCHOR.findall(text))
    return out


def links(path: Path) -> list[str]:
    """The link targets of ``path`` (inline links, images and reference definitions)."""
    text = _prose(path.read_text(encoding="utf-8"))
    return [*_LINK.findall(text), *_IMAGE.findall(text), *_REF_DEF.findall(text)]


def broken(path: Path) -> list[str]:
    """``path``'s relative links that do not resolve, with why."""
    out = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto:
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            shown = dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest
            out.append(f"{target}: no such file {shown}")
            continue
        if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            out.append(f"{target}: no heading #{fragment} in {dest.name}")
    return out


def test_the_anchor_rule_on_known_headings():
    assert anchor("Install details") == "install-details"
    assert anchor("Pooling: every command reads one study as one run") == (
        "pooling-every-command-reads-one-study-as-one-run"
    )
    assert anchor("The simulated respondent (`stance_sim/respondent`)") == (
        "the-simulated-respondent-stance_simrespondent"
    )
    assert anchor("Gating in CI") == "gating-in-ci"


def test_a_broken_link_is_found(tmp_path: Path):
    (tmp_path / "a.md").write_text("# Top\n\n[ok](a.md#top) [bad](b.md) [frag](a.md#nowhere)\n"
                                   "`[code](c.md)`\n")  # fmt: skip
    assert links(tmp_path / "a.md") == ["a.md#top", "b.md", "a.md#nowhere"]
    found = broken(tmp_path / "a.md")
    assert len(found) == 2
    assert found[0].startswith("b.md: no such file")
    assert found[1] == "a.md#nowhere: no heading #nowhere in a.md"


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc: Path):
    assert broken(doc) == []
