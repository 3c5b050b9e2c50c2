"""Loading IssueBench tables (issues and writing-assistance templates) with ``datasets``.

IssueBench (Röttger et al., 2025; hub ``Paul/IssueBench``, CC-BY-4.0) has a config ``issues``
(one row per issue: ``topic_id``, ``topic_neutral``, ``topic_pro``, ``topic_con``, real user
prompts in ``top_prompts`` / ``random_prompts``, and ``tag_exclude``) and a config
``templates`` (splits ``templates_sample`` and ``templates_full``; the template text has an
``X`` slot for the issue phrasing).

A *source* is ``"package"`` (the copy shipped as package data, see
``inspect_stance/data/issuebench_NOTICE.txt``: the writing templates of ``templates_sample``;
for issues, the six default topics of :mod:`inspect_stance.construction.topics`), ``"hub"``
(``datasets.load_dataset("Paul/IssueBench", config)``, needs the network or the hub cache) or a
path to a local CSV / TSV / JSON / JSON Lines / Parquet file with the same columns, e.g.
``../shared/data/issuebench/issues.csv``.
"""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import inspect_stance.construction.defaults as D
from inspect_stance.errors import InputError
from inspect_stance.paths import HUB

if TYPE_CHECKING:
    import pandas as pd

HUB_REPO = "Paul/IssueBench"
PACKAGE = D.PACKAGE
PACKAGE_TEMPLATES = "issuebench_templates_sample.csv"
PACKAGE_TOPICS = "construction_topics.csv"
ISSUES_CONFIG = "issues"
TEMPLATES_CONFIG = "templates"
DEFAULT_TEMPLATES_SPLIT = "templates_sample"
OUT_OF_SCOPE = "out of scope"  # annot1_label of templates IssueBench's annotators rejected

ISSUE_COLUMNS: tuple[str, ...] = ("topic_id", "topic_neutral", "topic_pro", "topic_con")
# column names the template text / id may have, in order of preference
TEMPLATE_TEXT_COLUMNS: tuple[str, ...] = ("template_text", "template", "annot1_template")
TEMPLATE_ID_COLUMNS: tuple[str, ...] = ("template_id", "id")

_BUILDERS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "json", ".parquet": "parquet"}


def load_table(source: str | Path, config: str, split: str | None = None) -> pd.DataFrame:
    """Load one IssueBench table as a DataFrame.

    ``source == "hub"`` loads ``datasets.load_dataset("Paul/IssueBench", config)`` and takes
    ``split`` (or the only split); ``"package"`` reads the packaged copy; any other value is a
    local CSV / TSV / JSON / JSON Lines / Parquet file read with pandas (UTF-8, BOM tolerated;
    no ``datasets`` cache files for a local table).
    Raises :class:`~inspect_stance.errors.InputError` (a ``ValueError``) with a one-line message
    when the source cannot be read.
    """
    if str(source) == PACKAGE:
        name = PACKAGE_TEMPLATES if config == TEMPLATES_CONFIG else PACKAGE_TOPICS
        return read_package_csv(name)
    from datasets import load_dataset

    if str(source) == HUB:
        try:
            loaded: Any = load_dataset(HUB_REPO, config)
        except Exception as ex:  # network / cache problems become one line
            first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
            raise InputError(
                f"cannot load {HUB_REPO} config {config!r} from the hub ({first}); "
                f"use the packaged default ({PACKAGE}) or a local file with the same columns"
            ) from ex
        splits = list(loaded.keys())
        if split is not None and split in loaded:
            name = split
        elif len(splits) == 1:
            name = splits[0]
        else:
            raise InputError(f"{HUB_REPO} config {config!r} has splits {splits}; none is {split!r}")
        return loaded[name].to_pandas()
    path = Path(source)
    if not path.is_file():
        raise InputError(
            f"{config} source {path}: no such file; pass {PACKAGE!r}, {HUB!r} or an existing file"
        )
    builder = _BUILDERS.get(path.suffix.lower())
    if builder is None:
        raise InputError(
            f"{config} source {path}: unknown file type {path.suffix!r}; use .csv, .tsv, "
            f".json, .jsonl or .parquet"
        )
    import pandas as pd

    suffix = path.suffix.lower()
    try:
        if suffix in (".csv", ".tsv"):
            return pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", encoding="utf-8-sig")
        if suffix == ".parquet":
            return pd.read_parquet(path)
        return pd.read_json(path, lines=suffix == ".jsonl", encoding="utf-8")
    except Exception as ex:  # noqa: BLE001 - any unreadable file is one input error
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
        raise InputError(f"{config} source {path}: cannot be read ({first})") from None


def read_package_csv(name: str) -> pd.DataFrame:
    """A CSV shipped in ``inspect_stance/data`` (every column as text, no NaN conversion)."""
    import pandas as pd

    with resources.files("inspect_stance.data").joinpath(name).open("r", encoding="utf-8") as f:
        return pd.read_csv(f, dtype=str, keep_default_na=False)


def load_issues(source: str | Path = HUB) -> pd.DataFrame:
    """The IssueBench issues table with rows flagged ``tag_exclude == 1`` marked, not removed.

    Adds a boolean column ``excluded`` (True where ``tag_exclude == 1``). Raises ``ValueError``
    when a required column (:data:`ISSUE_COLUMNS`) is missing.
    """
    import pandas as pd

    table = load_table(source, ISSUES_CONFIG)
    missing = [c for c in ISSUE_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(f"issues source {source}: missing column(s) {missing}")
    table = table.copy()
    table["topic_id"] = table["topic_id"].astype(int)
    if "tag_exclude" in table.columns:
        flag = pd.to_numeric(table["tag_exclude"], errors="coerce")
        table["excluded"] = flag.fillna(0).astype(float) == 1.0
    else:
        table["excluded"] = False
    return table


def load_templates(
    source: str | Path = PACKAGE, split: str = DEFAULT_TEMPLATES_SPLIT
) -> pd.DataFrame:
    """IssueBench writing-assistance templates as a DataFrame with ``template_id``, ``template``.

    The text column is the first of :data:`TEMPLATE_TEXT_COLUMNS` present (``annot1_template``
    in the sample file), the id column the first of :data:`TEMPLATE_ID_COLUMNS` (row number
    when none). Rows annotated ``out of scope`` and empty templates are dropped here (upstream
    curation, not a filler problem); the number of out-of-scope rows is in
    ``table.attrs["out of scope"]`` (the task records it as ``issuebench_templates_out_of_scope``).
    Templates without an ``X`` slot are kept and flagged by
    :func:`inspect_stance.construction.templates.has_slot`.
    """
    import pandas as pd

    table = load_table(source, TEMPLATES_CONFIG, split)
    text_col = next((c for c in TEMPLATE_TEXT_COLUMNS if c in table.columns), None)
    if text_col is None:
        raise InputError(
            f"templates source {source}: no template column (looked for {TEMPLATE_TEXT_COLUMNS})"
        )
    id_col = next((c for c in TEMPLATE_ID_COLUMNS if c in table.columns), None)
    out = pd.DataFrame(
        {
            "template_id": table[id_col].astype(str)
            if id_col
            else [f"t{i:05d}" for i in range(len(table))],
            "template": table[text_col],
        }
    )
    in_scope = pd.Series(True, index=table.index)
    if "annot1_label" in table.columns:
        in_scope = table["annot1_label"].astype(str).str.strip() != OUT_OF_SCOPE
    out = out[in_scope]
    out = out[out["template"].notna() & (out["template"].astype(str).str.strip() != "")]
    out["template"] = out["template"].astype(str)
    out = out.reset_index(drop=True)
    out.attrs[OUT_OF_SCOPE] = int((~in_scope).sum())
    return out


def parse_prompt_list(value: object) -> list[str]:
    """Real user prompts stored in an issues cell (a Python-list literal string, or a list)."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(v) for v in value if str(v).strip()]
    if hasattr(value, "tolist"):
        return [str(v) for v in value.tolist() if str(v).strip()]
    text = str(value).strip()
    if not text or text.lower() == "nan":
        return []
    try:
        parsed = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return [text]
    if isinstance(parsed, list | tuple):
        return [str(v) for v in parsed if str(v).strip()]
    return [str(parsed)]
