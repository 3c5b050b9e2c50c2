"""No credential is written by the package: canaries in every place a user can put one.

A stance_drift run through Inspect's ``openai-api/`` provider against the local server, with a
password in the base URL's userinfo (``LOC_BASE_URL``), a key in ``LOC_API_KEY``, a key in
``-M api_key`` and one in an ``-M default_headers`` header; and a run on the simulated
respondent whose provider resolved a base URL carrying userinfo and a ``?token=`` query. Then
every byte written (the cache folder with the trial records, the log folder, each ``.eval``
member unzipped) is searched for the canaries. Record files are 0600 in 0700 folders.

Inspect itself writes the ``-M`` model args into the log header (``eval.model_args``), removing
only ``api_key``: the header canary is found there and only there (the README says so).
"""

from __future__ import annotations

import json
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.stance_drift import stance_drift

CANARIES = {
    "url_password": "CANARYpw7731",
    "url_token": "CANARYtok5521",
    "env_key": "CANARYenv9048",
    "arg_key": "CANARYarg3310",
    "header": "CANARYhdr6672",
}


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    return "The answer is B." if "WIRE-ARGUMENT" in text else "WIRE-ARGUMENT: a short one."


def _without_inspect_model_args(obj: Any) -> Any:
    """A log member without Inspect's own copy of the -M args (``eval.model_args``)."""
    if isinstance(obj, dict):
        return {
            k: _without_inspect_model_args(v)
            for k, v in obj.items()
            if not (k == "model_args" and "model_generate_config" in obj)
        }
    if isinstance(obj, list):
        return [_without_inspect_model_args(v) for v in obj]
    return obj


def written(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by name; an ``.eval`` file as its unzipped members."""
    out: dict[str, bytes] = {}
    for p in root.rglob("*"):
        if not p.is_file():
            continue
        if p.suffix == ".eval":
            with zipfile.ZipFile(p) as z:
                for name in z.namelist():
                    out[f"{p}!{name}"] = z.read(name)
        else:
            out[str(p)] = p.read_bytes()
    return out


def leaks(files: dict[str, bytes], strip_inspect_args: bool) -> list[str]:
    found = []
    for name, data in files.items():
        text = data.decode("utf-8", errors="replace")
        if strip_inspect_args and name.endswith(".json"):
            try:
                text = json.dumps(_without_inspect_model_args(json.loads(text)))
            except json.JSONDecodeError:
                pass
        found += [f"{label} in {name}" for label, c in CANARIES.items() if c in text]
    return found


@pytest.fixture()
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    cache = tmp_path / "cache"
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(cache))
    (tmp_path / "p.txt").write_text("We should ban school uniforms\n")
    return {"cache": cache, "logs": tmp_path / "logs", "props": tmp_path / "p.txt"}


def test_no_credential_is_written_anywhere(serve, places, monkeypatch):
    server = serve(script, models=("respondent",))
    host = server.base_url.split("://", 1)[1]
    monkeypatch.setenv("LOC_BASE_URL", f"http://user:{CANARIES['url_password']}@{host}")
    monkeypatch.setenv("LOC_API_KEY", CANARIES["env_key"])
    [wire] = inspect_eval(
        stance_drift(propositions=str(places["props"]), trials=2, words_limit=20),
        model="openai-api/loc/respondent",
        model_args={
            "api_key": CANARIES["arg_key"],
            "default_headers": {"Authorization": f"Bearer {CANARIES['header']}"},
        },
        log_dir=str(places["logs"]),
        display="none",
    )
    assert wire.status == "success", wire.error
    assert len(server.chat_requests("respondent")) == 20  # the credentials reached the server

    # a provider that resolved a base URL with userinfo and a token query (e.g. from its env)
    sim = get_model("stance_sim/respondent", memoize=False, api_key=CANARIES["arg_key"])
    sim.api.base_url = (
        f"https://me:{CANARIES['url_password']}@sim.invalid/v1?token={CANARIES['url_token']}"
    )
    [simulated] = inspect_eval(
        stance_drift(propositions=str(places["props"]), trials=2, words_limit=20),
        model=sim,
        log_dir=str(places["logs"]),
        display="none",
    )
    assert simulated.status == "success", simulated.error

    records = [p for p in places["cache"].rglob("*.jsonl")]
    assert len(records) == 10, "both runs kept trial records"
    for p in records:
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
    urls = {json.loads(p.read_text().splitlines()[0])["key"]["model"]["base_url"] for p in records}
    assert urls == {f"http://{host}", "https://sim.invalid/v1?token=REDACTED"}
    folders = {p.parent for p in records} | {p.parent.parent for p in records}
    for folder in folders | {next(iter(folders)).parent}:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder

    everything = {**written(places["cache"]), **written(places["logs"])}
    assert leaks(everything, strip_inspect_args=True) == []
    # what Inspect itself writes: the -M header value (not api_key) in its eval.model_args
    assert {leak.split(" in ")[0] for leak in leaks(everything, strip_inspect_args=False)} == {
        "header"
    }
