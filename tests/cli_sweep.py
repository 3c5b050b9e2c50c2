"""Run many ``inspect`` CLI invocations cheaply: import Inspect and the package once, then
fork one child per invocation that runs the ``inspect`` console script's ``main()``.

The child does what the interpreter does with the real script: an uncaught exception goes to
``sys.excepthook`` (Inspect's, wrapped by the package's) and exits with status 1;
``SystemExit`` exits with its code. stdout and stderr are captured through pipes.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Any


@dataclass
class Result:
    """What one CLI invocation printed and returned."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def _run_child(args: list[str], out_fd: int, err_fd: int) -> None:
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    code = 0
    try:
        from inspect_ai._cli.main import main

        sys.argv = ["inspect", *args]
        # what loading the package's entry point does in the real script (the parent loaded
        # it before forking, with its own argv)
        from inspect_stance.inspect_cli import check_inspect_argv

        check_inspect_argv()
        main()
    except SystemExit as ex:
        code = ex.code if isinstance(ex.code, int) else (0 if ex.code is None else 1)
    except BaseException:  # noqa: BLE001 - as the interpreter: the hook, then status 1
        sys.excepthook(*sys.exc_info())
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _collect(args: list[str], rc: int, out: Any, err: Any) -> Result:
    out.seek(0)
    err.seek(0)
    result = Result(
        args, rc, out.read().decode(errors="replace"), err.read().decode(errors="replace")
    )
    out.close()
    err.close()
    return result


def run_many(
    invocations: list[list[str]], cwd: str, timeout: float = 30.0, jobs: int = 2
) -> list[Result]:
    """Run each argument list as ``inspect <args>`` in a forked child, at most ``jobs`` at a
    time (2: the default tier's two cores); results in the order of ``invocations``."""
    import signal
    import time

    # import once, before forking, in the real script's order: Inspect's main() sets its
    # exception hook first, then loads the entry point (which wraps that hook)
    import inspect_ai._cli.main  # noqa: F401
    from inspect_ai._util.error import set_exception_hook

    set_exception_hook()
    import inspect_stance._registry  # noqa: F401

    results: dict[int, Result] = {}
    running: dict[int, tuple[int, Any, Any, float]] = {}  # pid -> (index, out, err, deadline)
    pending = list(enumerate(invocations))
    old = os.getcwd()
    os.chdir(cwd)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                k, args = pending.pop(0)
                out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
                pid = os.fork()
                if pid == 0:  # child
                    _run_child(args, out.fileno(), err.fileno())
                running[pid] = (k, out, err, time.monotonic() + timeout)
            for pid, (k, out, err, deadline) in list(running.items()):
                done, status = os.waitpid(pid, os.WNOHANG)
                if not done and time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)  # a case that hangs is killed (-9)
                    done, status = os.waitpid(pid, 0)
                if done:
                    del running[pid]
                    rc = os.waitstatus_to_exitcode(status)
                    results[k] = _collect(invocations[k], rc, out, err)
            time.sleep(0.02)
    finally:
        os.chdir(old)
    return [results[k] for k in range(len(invocations))]


def sweep(invocations: list[list[str]], cwd: str, env: dict[str, str]) -> list[Result]:
    """Run :func:`run_many` in a fresh Python process (away from the test runner's threads)."""
    import json
    import subprocess

    proc = subprocess.run(
        [sys.executable, __file__, cwd],
        input=json.dumps(invocations),
        capture_output=True,
        text=True,
        env=env,
        timeout=60 + 35 * len(invocations),
    )
    if proc.returncode != 0:
        raise RuntimeError(f"cli sweep failed: {proc.stderr[-3000:]}")
    return [Result(**r) for r in json.loads(proc.stdout)]


if __name__ == "__main__":
    import json
    from dataclasses import asdict

    cases = json.loads(sys.stdin.read())
    results = run_many(cases, sys.argv[1])
    sys.stdout.write(json.dumps([asdict(r) for r in results]))
