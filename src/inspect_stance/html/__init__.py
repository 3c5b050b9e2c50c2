"""One self-contained HTML page per study (``inspect-stance report ... --html FILE``).

The page is rendered by Jinja2 from ``templates/report.html.j2`` (package data) out of what a
report command already wrote to its output folder: the markdown report (its tables, turned into
HTML by markdown-it-py) and every PNG figure (embedded as base64 ``data:`` URIs, each with a
short "how to read this"), plus one row per run read from its log header (name, task, model,
settings, a link to the log and the ``inspect view`` command that opens it; an ``.npz`` run:
its name and file). Nothing is fetched from the network when the page is opened.

Reusable by any command: :func:`render_page` takes plain data; :func:`write_page` reads an
output folder as a :class:`~inspect_stance.study.page.Page` says (the method's, or
``compare``'s); :func:`study_section` and :func:`write_sections_page` put the reports of several
methods on one page (``templates/sections.html.j2``: a contents list, then one section each).
"""

from __future__ import annotations

import base64
import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from inspect_stance import __version__
from inspect_stance.html.body import IMAGE_REF, markdown_html
from inspect_stance.runs import log_info, name_runs, npz_info, role_model_names
from inspect_stance.study.page import FigureNote, Page

__all__ = [
    "IMAGE_REF",
    "Figure",
    "FigureNote",
    "Page",
    "RunRow",
    "Section",
    "figure",
    "markdown_html",
    "png_size",
    "render_page",
    "render_sections",
    "run_rows",
    "study_figures",
    "study_section",
    "write_page",
    "write_sections_page",
    "write_study_page",
]


@dataclass
class Figure:
    """One embedded figure."""

    file: str
    title: str
    data_uri: str
    width: int
    height: int
    how_to_read: str = ""


@dataclass
class RunRow:
    """One run of the page's run table."""

    name: str
    task: str
    model: str
    file: str
    href: str
    view_hint: str
    samples: str = ""
    created: str = ""
    roles: str = ""
    settings: dict[str, str] = field(default_factory=dict)


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG from its IHDR chunk; ValueError when it is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def figure(path: Path, how_to_read: str = "", title: str | None = None) -> Figure:
    """A PNG file as an embedded figure (``data:image/png;base64,...``)."""
    data = path.read_bytes()
    width, height = png_size(data)
    return Figure(
        file=path.name,
        title=title or path.stem.replace("_", " "),
        data_uri="data:image/png;base64," + base64.b64encode(data).decode("ascii"),
        width=width,
        height=height,
        how_to_read=how_to_read,
    )


def note_for(name: str, notes: Mapping[str, FigureNote | str]) -> FigureNote | None:
    """The note of the first regular expression (a key of ``notes``) that matches the file name;
    a plain string is a how-to-read text without a title."""
    for pattern, note in notes.items():
        if re.search(pattern, name):
            return note if isinstance(note, FigureNote) else FigureNote("", note)
    return None


def how_to_read_for(name: str, notes: Mapping[str, FigureNote | str]) -> str:
    """The how-to-read text of the figure file ``name`` ("" when no note matches)."""
    note = note_for(name, notes)
    return note.how_to_read if note else ""


def figure_title(kind: str, alt: str, per_run: bool, runs: Sequence[str], stem: str) -> str:
    """A figure's heading: what it shows (``kind``) and which run. A per-run figure names the
    run its markdown image text names (``alt``); a figure over every run names the single run,
    or says how many runs; without a note, the image text or the file name is all there is."""
    if not kind:
        return alt or stem.replace("_", " ")
    if per_run:
        return f"{kind} — {alt or stem}"
    if len(runs) == 1:
        return f"{kind} — {runs[0]}"
    if len(runs) == 2:
        return f"{kind} — both runs"
    return f"{kind} — all {len(runs)} runs" if runs else kind


def _short(value: Any, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_rows(logs: Sequence[str | Path], labels: Mapping[str, str] | None = None) -> list[RunRow]:
    """One row per Inspect log (header only) or ``.npz`` run, named as ``compare`` names runs
    (:func:`inspect_stance.runs.name_runs`: model, then differing settings, tags, ``--label``)."""

    paths = [Path(p) for p in logs]
    infos = [npz_info(p) if p.suffix == ".npz" else log_info(p) for p in paths]
    names = name_runs(infos, labels or {})
    return [
        _npz_row(path, name) if path.suffix == ".npz" else _log_row(path, name)
        for path, name in zip(paths, names, strict=True)
    ]


def _npz_row(path: Path, name: str) -> RunRow:
    """The row of an ``.npz`` run: no log, so no task, model or settings."""
    href = path.resolve().as_uri()
    return RunRow(name, "(.npz run)", "", path.name, href, "no Inspect log: arrays only")


def _log_row(path: Path, name: str) -> RunRow:
    """The row of an Inspect log, from its header."""
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(path), header_only=True)
    ev = header.eval
    roles = ", ".join(f"{r}={','.join(m)}" for r, m in role_model_names(ev.model_roles).items())
    samples = header.results.total_samples if header.results else None
    model = str(ev.model)
    if model == "none/none":  # a task run without a target model: its roles are the models
        name = name.replace("none/none", str(ev.task).split("/")[-1], 1)
        model = "(no target model)"
    return RunRow(
        name=name,
        task=str(ev.task),
        model=model,
        file=path.name,
        href=path.resolve().as_uri(),
        view_hint=f"inspect view --log-dir {path.resolve().parent}",
        samples="" if samples is None else str(samples),
        created=str(ev.created)[:19].replace("T", " "),
        roles=_short(roles, 200),
        settings={k: _short(v) for k, v in (ev.task_args or {}).items()},
    )


def shared_settings(runs: Sequence[RunRow]) -> tuple[dict[str, str], list[str]]:
    """The settings every run has with the same value, as (set ones, names of unset ones: value
    ``None``); the run table shows each row's other settings only."""
    if not runs:
        return {}, []
    first = runs[0].settings
    same = {k: v for k, v in first.items() if all(r.settings.get(k) == v for r in runs)}
    unset = [k for k, v in same.items() if v == "None"]
    return {k: v for k, v in same.items() if v != "None"}, unset


@dataclass
class Section:
    """One study on a page: its title, subtitle, run table, figures and report (as HTML).

    ``anchor`` prefixes the section's element ids (``""`` on a page of one study: ``logs``,
    ``figures``, ``report``, ``fig-1``...; ``m`` gives ``m-logs``...); ``level`` is the
    HTML heading level of its parts ("Runs and logs", "Figures", "Report")."""

    title: str
    subtitle: str
    runs: Sequence[RunRow]
    figures: Sequence[Figure]
    body_html: str
    anchor: str = ""
    level: int = 2
    shared: dict[str, str] = field(init=False)
    unset: list[str] = field(init=False)
    differ: bool = field(init=False)

    def __post_init__(self) -> None:
        self.shared, self.unset = shared_settings(self.runs)
        hidden = self.shared.keys() | set(self.unset)
        self.differ = any(r.settings.keys() - hidden for r in self.runs)

    def id(self, name: str) -> str:
        """The element id ``name`` within this section."""
        return f"{self.anchor}-{name}" if self.anchor else name


def _render(template: str, **values: Any) -> str:
    """``templates/<template>`` rendered with ``values`` (Jinja2, autoescaped; CSS inlined)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("inspect_stance.html", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    css = resources.files("inspect_stance.html").joinpath("templates/report.css").read_text()
    return env.get_template(template).render(css=css, version=__version__, **values)


def render_page(
    title: str,
    subtitle: str,
    runs: Sequence[RunRow],
    figures: Sequence[Figure],
    body_markdown: str,
) -> str:
    """The page of one study as one HTML string."""
    section = Section(title, subtitle, runs, figures, markdown_html(body_markdown))
    return _render("report.html.j2", title=title, subtitle=subtitle, s=section)


def render_sections(
    title: str, subtitle: str, sections: Sequence[Section], notes: Sequence[str] = ()
) -> str:
    """One page of several studies, one section each in the order given, with a contents list
    at the top and ``notes`` (e.g. a study whose report was not written) below it."""
    return _render(
        "sections.html.j2", title=title, subtitle=subtitle, sections=sections, notes=notes
    )


def study_figures(
    out_dir: Path,
    markdown: str,
    notes: Mapping[str, FigureNote | str],
    runs: Sequence[str] = (),
) -> list[Figure]:
    """Every PNG in ``out_dir``: those the markdown references first, in its order, then the
    rest by name; each titled by :func:`figure_title` from its note and image text."""
    alts: dict[str, str] = {}
    for m in IMAGE_REF.finditer(markdown):
        alts.setdefault(m.group(2), m.group(1).strip())
    files = [out_dir / f for f in alts if (out_dir / f).is_file()]
    files += sorted(p for p in out_dir.glob("*.png") if p not in files)
    figures = []
    for p in files:
        note = note_for(p.name, notes) or FigureNote("")
        alt = alts.get(p.name, "")
        title = figure_title(note.title, alt, note.per_run, runs, p.stem)
        figures.append(figure(p, note.how_to_read, title))
    return figures


def study_section(
    page: Page,
    out_dir: str | Path,
    logs: Sequence[str | Path],
    labels: Mapping[str, str] | None = None,
    anchor: str = "",
) -> Section:
    """The section of a report already written to ``out_dir`` (``page`` names its markdown file
    and figure notes; ``logs`` its runs, named with ``labels``). On a page of several studies
    (``anchor`` set) its parts are one heading level down (h3) and its report's headings two."""
    out = Path(out_dir)
    md_path = out / page.markdown
    markdown = md_path.read_text(encoding="utf-8") if md_path.is_file() else ""
    runs_read = [p for p in logs if str(p).endswith((".eval", ".json", ".npz"))]
    runs = run_rows(runs_read, labels) if runs_read else []
    figures = study_figures(out, markdown, page.notes, [r.name for r in runs])
    title = page.title
    titles = {page.task_titles.get(r.task.split("/")[-1]) for r in runs}
    if len(titles) == 1 and None not in titles:
        title = str(titles.pop())
    subtitle = (
        f"{len(runs)} run(s), {len(figures)} figure(s); tables from {page.markdown}"
        if runs
        else f"{len(figures)} figure(s); tables from {page.markdown}"
    )
    level = 3 if anchor else 2
    body = markdown_html(markdown, depth=level - 1)
    return Section(title, subtitle, runs, figures, body, anchor, level)


def _write(html_path: str | Path, text: str) -> Path:
    path = Path(html_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_page(
    html_path: str | Path,
    page: Page,
    out_dir: str | Path,
    logs: Sequence[str | Path],
    labels: Mapping[str, str] | None = None,
) -> Path:
    """Write the page of one report already written to ``out_dir``; returns its path."""
    s = study_section(page, out_dir, logs, labels)
    return _write(html_path, _render("report.html.j2", title=s.title, subtitle=s.subtitle, s=s))


def write_sections_page(
    html_path: str | Path, title: str, sections: Sequence[Section], notes: Sequence[str] = ()
) -> Path:
    """Write one page of several studies (:func:`render_sections`); returns its path."""
    runs = sum(len(s.runs) for s in sections)
    figures = sum(len(s.figures) for s in sections)
    subtitle = f"{len(sections)} method(s), {runs} run(s), {figures} figure(s)"
    return _write(html_path, render_sections(title, subtitle, sections, notes))


def write_study_page(
    html_path: str | Path,
    title: str,
    out_dir: str | Path,
    logs: Sequence[str | Path],
    notes: Mapping[str, FigureNote | str],
    markdown_file: str = "report.md",
    labels: Mapping[str, str] | None = None,
) -> Path:
    """:func:`write_page` with the page given as its parts (title, figure notes, markdown file;
    a note given as a string is a how-to-read text without a title)."""
    full = {k: v if isinstance(v, FigureNote) else FigureNote("", v) for k, v in notes.items()}
    return write_page(html_path, Page(title, markdown_file, full), out_dir, logs, labels)
