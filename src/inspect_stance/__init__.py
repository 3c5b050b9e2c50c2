"""inspect-stance: stance evaluations for Inspect AI.

The modules under ``inspect_stance`` (data loading, prompt texts, statistics, reports) do not
import Inspect; the Inspect solvers, scorers, tasks and model providers live in
``inspect_stance.solvers``, ``inspect_stance.scorers``, ``inspect_stance.tasks`` and
``inspect_stance.providers``.
"""

__version__ = "0.1.0"
