"""The Inspect entry point is quiet: importing it loads no heavy library and changes nothing in
the ``inspect`` process until one of the package's tasks is created."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("scipy.stats", "pandas", "matplotlib", "statsmodels")


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_entry_point_loads_no_heavy_library() -> None:
    out = _run(
        "import sys, inspect_stance._registry; "
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"loaded by the entry point: {out.stdout.strip()}"


def test_entry_point_loads_no_numpy() -> None:
    """numpy alone adds ~0.08 s to every ``inspect`` command (benchmarks/import_time.py): the
    cores the scorers call import it inside their functions, and type-only names stay under
    ``if TYPE_CHECKING:``."""
    out = _run(
        "import sys, inspect_stance._registry; "
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.startswith('numpy.'))[:5])"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"numpy loaded by the entry point: {out.stdout.strip()}"


# Loaded on first use, not by the entry point: the simulated providers' modules (numpy, the
# simulators' tables; each provider is registered by a factory that imports its class when Inspect
# creates the model) and the tasks' solvers (each task function imports its solvers).
DEFERRED = (
    "inspect_stance.construction.simulator",
    "inspect_stance.drift.relay_simulator",
    "inspect_stance.drift.simulator",
    "inspect_stance.even_handedness.simulator",
    "inspect_stance.press.simulator",
    "inspect_stance.pushback.simulator",
    "inspect_stance.validation.simulator",
) + tuple(
    f"inspect_stance.solvers.{name}"
    for name in (
        "stance_drift",
        "stance_chain",
        "press",
        "prompt_construction",
        "prompt_validation",
        "judge_validation",
        "even_handedness",
        "pushback",
    )
)


def test_entry_point_defers_providers_and_solvers() -> None:
    out = _run(
        "import sys, inspect_stance._registry; "
        f"print(','.join(m for m in {DEFERRED!r} if m in sys.modules))"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"loaded by the entry point: {out.stdout.strip()}"


def test_deferred_providers_are_still_registered() -> None:
    """Each simulator is found by name after the entry point alone, and its class loads then."""
    out = _run(
        "import sys, inspect_stance._registry; from inspect_ai.model import get_model; "
        "m = get_model('stance_sim/respondent'); "
        "print(type(m.api).__name__, 'inspect_stance.drift.simulator' in sys.modules)"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "StanceSimAPI True"


def test_even_sim_is_registered_by_the_entry_point() -> None:
    """``even_sim`` is found by name after the entry point alone, and its class loads then."""
    out = _run(
        "import sys, inspect_stance._registry; from inspect_ai.model import get_model; "
        "print('inspect_stance.even_handedness.simulator' in sys.modules, end=' '); "
        "m = get_model('even_sim/target'); "
        "print(type(m.api).__name__, 'inspect_stance.even_handedness.simulator' in sys.modules)"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False EvenSim True"


def test_entry_point_leaves_other_packages_eval_alone() -> None:
    """``inspect eval other.py --epochs 0`` with the package installed: loading the entry point
    neither exits nor replaces the process's excepthook."""
    out = _run(
        "import sys; sys.argv = ['inspect', 'eval', 'other_pkg/task.py', '--epochs', '0']; "
        "hook = sys.excepthook; import inspect_stance._registry; "
        "print('same-hook' if sys.excepthook is hook else 'replaced')"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "same-hook"


def test_own_task_still_refuses_epochs_zero() -> None:
    """Creating one of the package's tasks under ``inspect eval ... --epochs 0`` exits 2 with one
    line."""
    out = _run(
        "import sys; sys.argv = ['inspect', 'eval', 'inspect_stance/stance_drift', '--epochs', "
        "'0']; from inspect_stance.tasks.stance_drift import stance_drift; stance_drift()"
    )
    assert out.returncode == 2, out.stderr
    assert "--epochs 0" in out.stderr
    assert "Traceback" not in out.stderr
