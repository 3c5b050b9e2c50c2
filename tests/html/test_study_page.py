"""``report PATH... --html FILE`` over runs of several methods: one page, a section per method in
registry order after a contents list, each section's figures the very files its report wrote
(decoded), each run named by its ``--label``; every report command takes ``--label RUN=NAME``
(routed through ``report`` too); every registered method declares its page.

The runs are small runs of the simulated models (a few seconds in all); the page is parsed with
the standard library's HTML parser (the browser checks are ``test_browser.py``, slow tier)."""

from __future__ import annotations

import base64
import contextlib
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from inspect_stance.cli import main
from inspect_stance.html import png_size
from inspect_stance.study import methods
from inspect_stance.study.page import FigureNote, Page

ROOT = Path(__file__).resolve().parents[2]
#: the run of each method (file names are the labels' RUN), and the name each is given
LABELS = {
    "drift.npz": "Drift run α",
    "press.eval": "Press run",
    "construction.eval": "Construction run",
    "validation.eval": "Validation run",
    "even.eval": "Even run",
    "pushback.eval": "Pushback run",
}
METHOD_OF = {"drift.npz": "stance_drift", "press.eval": "press",
             "construction.eval": "construction", "validation.eval": "prompt_validation",
             "even.eval": "even_handedness", "pushback.eval": "pushback"}  # fmt: skip


def _eval(name: str, folder: Path, **kw: object) -> Path:
    from inspect_ai import eval as inspect_eval

    [log] = inspect_eval(log_dir=str(folder / name), display="none", **kw)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return Path(log.location)


def _press_log(path: Path) -> Path:
    """A hand-made PReSS log (records as score metadata, as ``tests/press/test_report.py``
    writes them): three statements, two argument sets, one stable and one unstable label."""
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalSample,
        EvalSpec,
        write_eval_log,
    )
    from inspect_ai.scorer import Score

    from inspect_stance.press.summary import sample_record

    keep = {"neutral": "agree", "support": "agree", "counter": "agree"}
    flip = {"neutral": "agree", "support": "agree", "counter": "disagree"}
    records = [sample_record(i, f"Statement {i}", "left", {"none": [keep, flip if i == 2 else keep]})
               for i in (1, 2, 3)]  # fmt: skip
    spec = EvalSpec(created="2026-01-01T00:00:00+00:00", task="press", dataset=EvalDataset(),
                    model="m/press-target", config=EvalConfig())  # fmt: skip
    samples = [EvalSample(id=i, epoch=1, input="x", target="",
                          scores={"s": Score(value=0, metadata=r)})
               for i, r in enumerate(records, 1)]  # fmt: skip
    path.parent.mkdir(parents=True)
    write_eval_log(EvalLog(eval=spec, samples=samples, status="success"), str(path))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One small run of each method, under the names of :data:`LABELS` (simulated models; PReSS
    hand-made, its simulated run takes longer)."""
    from inspect_ai.model import get_model

    tmp = tmp_path_factory.mktemp("runs")
    made = {
        "press.eval": _press_log(tmp / "press" / "hand.eval"),
        "construction.eval": _eval(
            "construction", tmp, tasks="inspect_stance/prompt_construction",
            task_args={"templates_per_setting": 1, "prompts_per_setting": 1, "topics": "1003",
                       "intents": "opinion"},
            model="construction_sim/target",
            model_roles={"judges": ["construction_sim/judge_exact",
                                    "construction_sim/judge_noisy"],
                         "prompter": "construction_sim/prompter"}),
        "validation.eval": _eval(
            "validation", tmp, tasks="inspect_stance/prompt_validation",
            task_args={"topics": "1003", "intents": "opinion"},
            model_roles={"prompter": "construction_sim/prompter",
                         "annotators": ["annotator_sim/lexical", "annotator_sim/contrarian"]}),
        "even.eval": _eval("even", tmp, tasks="inspect_stance/even_handedness",
                           task_args={"template_categories": "humor", "limit": 4},
                           model=get_model("even_sim/target", seed=1),
                           model_roles={"graders": ["even_sim/grader"]}),
        "pushback.eval": _eval("pushback", tmp, tasks="inspect_stance/pushback",
                               task_args={"limit_propositions": 3, "styles": "plain",
                                          "turns": 2},
                               model="pushback_sim/target"),
    }  # fmt: skip
    out = {}
    for name, log in made.items():
        (tmp / name.split(".")[0] / "named").mkdir()
        out[name] = shutil.copy(log, tmp / name.split(".")[0] / "named" / name)
    (tmp / "drift").mkdir()
    rng = np.random.default_rng(0)
    np.savez(tmp / "drift" / "drift.npz", probs=rng.dirichlet(np.ones(5), size=(2, 3, 5)))
    out["drift.npz"] = tmp / "drift" / "drift.npz"
    return {k: Path(v) for k, v in out.items()}


def _main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


class Page_(HTMLParser):
    """The page's sections (id -> their figures' data URIs, run names, headings) and contents."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, dict[str, list[str]]] = {}
        self.contents: list[str] = []
        self.ids: list[str] = []
        self._current: str | None = None
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "section" and a.get("class") == "study":
            self._current = str(a["id"])
            self.sections[self._current] = {"figures": [], "runs": [], "text": []}
        elif tag == "a" and "contents" in self._in and self._current is None:
            self.contents.append(str(a["href"]).lstrip("#"))
        elif tag == "img" and self._current:
            self.sections[self._current]["figures"].append(str(a["src"]))
        if tag in ("nav", "strong", "table"):
            self._in.append(a.get("class") or tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self._current = None
        if tag in ("nav", "strong", "table") and self._in:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if self._current and data.strip():
            key = "runs" if self._in[-2:] == ["runs", "strong"] else "text"
            self.sections[self._current][key].append(data.strip())


@pytest.fixture(scope="module")
def study(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    """``report DIR --out OUT --html page.html`` over one run of each method (and a copy of
    one log, which is set aside), every run labelled."""
    tmp = tmp_path_factory.mktemp("study")
    folder = tmp / "runs"
    folder.mkdir()
    for name, path in runs.items():
        shutil.copy(path, folder / name)
    shutil.copy(runs["press.eval"], folder / "press_again.eval")
    labels = [a for run, name in LABELS.items() for a in ("--label", f"{run}={name}")]
    html = tmp / "page.html"
    code, out, err = _main(["report", str(folder), "--out", str(tmp / "out"),
                            "--html", str(html), *labels])  # fmt: skip
    parsed = Page_()
    text = html.read_text(encoding="utf-8") if html.is_file() else ""
    parsed.feed(text)
    return {"code": code, "out": out, "err": err, "root": tmp / "out", "page": parsed,
            "text": text}  # fmt: skip


def test_one_page_with_a_section_per_method_in_registry_order(study: dict) -> None:
    assert study["code"] == 0, study["err"]
    order = [m.name for m in methods()]
    assert list(study["page"].sections) == order  # all five methods are present
    assert study["page"].contents == order  # the contents list links every section
    assert len(study["page"].ids) == len(set(study["page"].ids))
    titles = {m.name: m.page.title for m in methods() if m.page}
    for name, section in study["page"].sections.items():
        assert titles[name] in section["text"], name


def test_each_section_embeds_its_reports_figures_decoded(study: dict) -> None:
    """Every PNG the method's report wrote to OUT/<task>/ is in its section, byte for byte."""
    for m in methods():
        files = sorted((study["root"] / m.folder).glob("*.png"))
        assert files, m.name
        uris = study["page"].sections[m.name]["figures"]
        decoded = [base64.b64decode(u.split(",", 1)[1]) for u in uris]
        assert sorted(decoded) == sorted(f.read_bytes() for f in files), m.name
        assert all(png_size(d)[0] > 0 for d in decoded)


def test_labels_name_the_runs_of_their_own_section(study: dict) -> None:
    for run, label in LABELS.items():
        method = METHOD_OF[run]
        for name, section in study["page"].sections.items():
            assert (label in section["runs"]) == (name == method), (run, name)
    # the method's own report names the run by its label too (validation pools its runs)
    assert "Press run" in (study["root"] / "press" / "report.md").read_text()
    construction = study["root"] / "prompt_construction" / "construction_report.md"
    assert "Construction run" in construction.read_text()


def test_out_keeps_each_methods_folder_and_set_aside_lines_are_printed(study: dict) -> None:
    for m in methods():
        assert m.page is not None and (study["root"] / m.folder / m.page.markdown).is_file()
    aside = [x for x in study["err"].splitlines() if "set aside" in x]
    assert len(aside) == 1 and "press_again.eval" in aside[0]
    assert not re.search(r'(src|href)="(https?:)?//', study["text"]), "the page fetches nothing"


def test_without_out_the_reports_go_to_a_temporary_folder(runs, tmp_path, monkeypatch):
    folder = tmp_path / "two"
    folder.mkdir()
    for name in ("construction.eval", "validation.eval"):
        shutil.copy(runs[name], folder / name)
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(["report", str(folder), "--html", "p.html"])
    assert code == 0, err
    parsed = Page_()
    parsed.feed((tmp_path / "p.html").read_text(encoding="utf-8"))
    assert list(parsed.sections) == ["construction", "prompt_validation"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.html", "two"]  # nothing else
    assert "temporary folder" in out


@pytest.mark.parametrize("run", list(LABELS))
def test_report_routes_label_to_each_methods_own_report(runs, run, tmp_path):
    """``report FOLDER --label RUN=NAME --html`` over one method's run: the method's own page,
    the run named NAME in its run table and (but prompt validation, whose tables pool the runs)
    in its report."""
    html = tmp_path / "p.html"
    code, _, err = _main(["report", str(runs[run].parent), "--out", str(tmp_path / "out"),
                          "--label", f"{run}={LABELS[run]}", "--html", str(html)])  # fmt: skip
    assert code == 0, err
    parsed = Page_()
    text = html.read_text(encoding="utf-8")
    method = next(m for m in methods() if m.name == METHOD_OF[run])
    assert method.page is not None and f"<title>{method.page.title}" in text
    runs_table = text.split('class="runs"', 1)[1].split("</table>", 1)[0]
    assert f"<strong>{LABELS[run]}</strong>" in runs_table
    parsed.feed(text)
    assert not parsed.sections  # one method: its own page, no sections
    folder = (
        tmp_path / "out" if METHOD_OF[run] == "stance_drift" else tmp_path / "out" / method.folder
    )
    if METHOD_OF[run] != "prompt_validation":
        assert LABELS[run] in (folder / method.page.markdown).read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["press-report", "construction-report", "validation-report",
                                     "even-handedness-report", "report"])  # fmt: skip
def test_a_label_naming_no_run_is_one_line(runs, command, tmp_path):
    run = next(r for r, m in METHOD_OF.items()
               if next(x for x in methods() if x.name == m).report_command == command)  # fmt: skip
    code, _, err = _main([command, str(runs[run]), "--out", str(tmp_path / "o"),
                          "--label", "nope.eval=X"])  # fmt: skip
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and "--label nope.eval" in lines[0], err


def test_every_registered_method_declares_its_page():
    for m in methods():
        assert isinstance(m.page, Page), f"{m.name}: register it with page=Page(...)"
        assert m.page.title and m.page.markdown.endswith(".md")
        for pattern, note in m.page.notes.items():
            re.compile(pattern)
            assert isinstance(note, FigureNote) and note.title and note.how_to_read, pattern


def test_the_page_layer_names_no_method():
    """Adding a method needs no edit to html/ or the --html command code: neither names one."""
    files = [
        *(ROOT / "src/inspect_stance/html").glob("*.py"),
        ROOT / "src/inspect_stance/cli/html.py",
        ROOT / "src/inspect_stance/cli/report.py",
    ]
    for m in methods():
        # ``report`` is every method's command, and stance drift's own report command too
        words = {m.name, *m.tasks} | ({m.report_command} - {"report"})
        for f in files:
            text = f.read_text(encoding="utf-8")
            found = [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
            assert not found, f"{f.name} names {found}"
