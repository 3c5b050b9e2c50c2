"""A 2-shard study on the real schedulers, in virtual environments of the Python they need:
Hawk (``hawk local eval-set --direct``, Python 3.13) and Inspect Steward (local workers, Python
3.12). The model is the local OpenAI-compatible server, so every call is counted: a scheduler
killed mid-run and started again must not pay a finished trial twice (the trial record), and
the shards' logs pool in ``inspect-stance report`` into the whole study. (Measured here: the
killed Hawk attempt had paid 61 of 120 calls, the rerun 63: its 60 and the few in flight.)

The environments are built once and kept under ``$INSPECT_STANCE_VENV_CACHE`` (default
``~/.cache/inspect-stance/venvs``); each test installs this checkout into its environment.
A test is skipped, saying why, when its Python or the package index is not there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from wire_support import API_KEY

from inspect_stance.cli import main

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(
    os.environ.get("INSPECT_STANCE_VENV_CACHE", Path.home() / ".cache/inspect-stance/venvs")
)
PROPS = [f"We should ban scheduled item {i}" for i in range(4)]
TRIALS = 3
CALLS = len(PROPS) * 5 * TRIALS * 2  # propositions x initial stances x trials x 2 calls
CONNECTIONS = 4  # calls in flight at most: a kill loses at most these


def script(model: str, body: dict) -> str:
    text = "\n".join(str(m.get("content")) for m in body["messages"])
    return "B" if "ARGUMENT-MARK" in text else "ARGUMENT-MARK: a short argument."


def _python(version: str) -> str | None:
    """A Python ``version`` interpreter that runs: pyenv's own build first (a pyenv shim on
    PATH exists for every installed version but fails unless that version is selected), then
    ``python<version>`` on PATH."""
    pyenv = sorted(Path.home().glob(f".pyenv/versions/{version}*/bin/python{version}"))
    for candidate in [*reversed([str(p) for p in pyenv]), shutil.which(f"python{version}")]:
        if (
            candidate
            and subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0
        ):
            return candidate
    return None


def _source(tmp: Path) -> Path:
    """A copy of this checkout's working tree to install from (pip builds in the source tree:
    a ``build/`` there would be found by ``inspect list tasks``)."""
    skip = shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", "logs")
    return Path(shutil.copytree(ROOT, tmp / "source", ignore=skip))


def _venv(name: str, version: str, packages: list[str], tmp: Path) -> Path:
    """``CACHE/name`` with ``packages`` and this checkout installed (built once; skip when it
    cannot be)."""
    source = _source(tmp)
    venv = CACHE / name
    marker = venv / ".inspect-stance-ready"
    if not marker.exists():
        python = _python(version)
        if python is None:
            pytest.skip(f"no Python {version} on this machine (pyenv or python{version})")
        shutil.rmtree(venv, ignore_errors=True)
        venv.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(venv / "bin/pip"), "install", "-q", *packages, str(source)],
                              capture_output=True, text=True, timeout=1800)  # fmt: skip
        if done.returncode:
            pytest.skip(f"{' '.join(packages)} does not install on Python {version}: "
                        f"{done.stderr.strip().splitlines()[-1:]}")  # fmt: skip
        marker.touch()
    subprocess.run([str(venv / "bin/pip"), "install", "-q", "--no-deps", "--force-reinstall",
                    str(source)], check=True, capture_output=True, timeout=600)  # fmt: skip
    return venv


def _env(venv: Path, server, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    return {**env, "PATH": f"{venv / 'bin'}:{env['PATH']}", "LOCAL_BASE_URL": server.base_url,
            "LOCAL_API_KEY": API_KEY, "INSPECT_CACHE_DIR": str(tmp / "cache"),
            "INSPECT_DISPLAY": "none"}  # fmt: skip


def _kill_when(proc: subprocess.Popen, server, calls: int, timeout: float = 120) -> None:
    """Kill ``proc``'s process group once the server has answered ``calls`` calls."""
    end = time.monotonic() + timeout
    while len(server.requests) < calls and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before the kill"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _pooled(capsys, folder: Path) -> dict:
    assert main(["report", str(folder), "--json"]) == 0, capsys.readouterr().err
    [run] = json.loads(capsys.readouterr().out)["runs"]
    return run


@pytest.fixture(scope="module")
def server(serve):
    return serve(script, models=("respondent",), latency=0.05)


def _job(tmp: Path, form: str) -> list[str]:
    (tmp / "props.txt").write_text("\n".join(PROPS) + "\n")
    return ["shard", "stance_drift", "--shards", "2", "--model", "openai-api/local/respondent",
            "-T", f"propositions={tmp / 'props.txt'}", "-T", f"trials={TRIALS}",
            "-T", "words_limit=20", "--format", form]  # fmt: skip


def test_hawk_local_two_shards_killed_and_rerun_pool(server, tmp_path, capsys):
    venv = _venv("hawk-py3.13", "3.13", ["hawk[cli,runner]", "uv"], tmp_path)
    argv = _hawk_job(tmp_path)
    capsys.readouterr()
    env = _env(venv, server, tmp_path)
    start = len(server.requests)
    first = subprocess.Popen(argv, cwd=tmp_path, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    _kill_when(first, server, start + CALLS // 2)
    before = len(server.requests) - start  # paid by the killed attempt
    shutil.rmtree(tmp_path / "logs")  # the killed attempt's logs (hawk local starts a new set)
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    paid = len(server.requests) - start
    # every call once, but those in flight at the kill (their answers never reached the log)
    assert CALLS <= paid <= CALLS + CONNECTIONS
    # the rerun paid only what the killed attempt had not (its generations and trials are
    # replayed from the trial record under INSPECT_CACHE_DIR)
    assert paid - before <= CALLS - before + CONNECTIONS
    run = _pooled(capsys, tmp_path / "logs")
    assert run["n_propositions"] == len(PROPS)


def _hawk_job(tmp: Path) -> list[str]:
    """``hawk local eval-set job.yaml --direct`` of the 2-shard job, its calls in flight capped."""
    assert main([*_job(tmp, "hawk"), "--out", str(tmp / "job.yaml")]) == 0
    job = yaml.safe_load((tmp / "job.yaml").read_text())
    job["models"][0]["items"][0]["args"] = {"config": {"max_connections": CONNECTIONS}}
    (tmp / "job.yaml").write_text(yaml.safe_dump(job))
    return ["hawk", "local", "eval-set", "job.yaml", "--direct"]


def test_hawk_local_killed_shards_resume_with_eval_retry(server, tmp_path, capsys):
    """The killed Hawk run's own logs are resumed with ``inspect eval-retry`` (in Hawk's
    environment): the finished samples are kept, each call is paid once, and the retried
    logs pool with the killed attempts left out."""
    from inspect_ai.log import read_eval_log

    venv = _venv("hawk-py3.13", "3.13", ["hawk[cli,runner]", "uv"], tmp_path)
    argv = _hawk_job(tmp_path)
    capsys.readouterr()
    env = _env(venv, server, tmp_path)
    start = len(server.requests)
    first = subprocess.Popen(argv, cwd=tmp_path, env=env, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    _kill_when(first, server, start + CALLS // 2)
    killed = sorted((tmp_path / "logs").rglob("*.eval"))
    assert len(killed) == 2, killed  # one log per shard, neither finished
    done = subprocess.run(["inspect", "eval-retry", *map(str, killed)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    paid = len(server.requests) - start
    assert CALLS <= paid <= CALLS + CONNECTIONS  # every call once, but those in flight
    logs = sorted((tmp_path / "logs").rglob("*.eval"))
    statuses = [read_eval_log(str(p), header_only=True).status for p in logs]
    assert statuses.count("success") == 2, statuses
    run = _pooled(capsys, tmp_path / "logs")  # the killed attempts superseded, said on stderr
    assert run["n_propositions"] == len(PROPS)


def _steward_workers(definition: Path) -> list[int]:
    """The pids of Steward's workers running ``definition`` (their environment names
    ``STEWARD_WORKER``)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
            env = (proc / "environ").read_bytes()
        except (OSError, ValueError):
            continue
        if str(definition).encode() in args and b"STEWARD_WORKER=" in env:
            pids.append(int(proc.name))
    return sorted(pids)


def test_steward_local_workers_two_shards_killed_worker_resumes(server, tmp_path, capsys):
    venv = _venv("steward-py3.12", "3.12", ["inspect-steward"], tmp_path)
    work = tmp_path / "work"
    env = _env(venv, server, tmp_path)
    subprocess.run(["steward", "init", str(work)], check=True, env=env, capture_output=True)
    definition = work / "evalset.py"
    assert main([*_job(tmp_path, "eval-set"), "--log-dir", "logs", "--out", str(definition)]) == 0
    capsys.readouterr()
    text = definition.read_text().replace(
        "max_tasks=N,", f"max_tasks=N, max_connections={CONNECTIONS},"
    )
    definition.write_text(text)
    server.latency = 0.3  # slow enough that a worker is killed mid-run
    start = len(server.requests)
    launch = subprocess.Popen(["steward", "launch", "evalset.py", "--no-timer"], cwd=work,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    end = time.monotonic() + 180
    while len(server.requests) - start < 10 and time.monotonic() < end:
        time.sleep(0.1)
    [victim, *_] = _steward_workers(definition)
    os.kill(victim, signal.SIGKILL)
    launch.wait(timeout=180)
    server.latency = 0.05
    end = time.monotonic() + 240
    while _finished(list((work / "logs").glob("*.eval"))) < 2 and time.monotonic() < end:
        # a turn of the supervision loop reaps the killed worker and starts it again
        subprocess.run(["steward", "tend"], cwd=work, env=env, capture_output=True, timeout=120)
        time.sleep(2)
    assert _finished(list((work / "logs").glob("*.eval"))) == 2
    paid = len(server.requests) - start
    assert CALLS <= paid <= CALLS + CONNECTIONS  # the killed worker's calls in flight at most
    run = _pooled(capsys, work / "logs")
    assert run["n_propositions"] == len(PROPS)


def _finished(logs: list[Path]) -> int:
    from inspect_ai.log import read_eval_log

    return sum(1 for p in logs if read_eval_log(str(p), header_only=True).status == "success")
