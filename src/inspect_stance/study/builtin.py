"""The package's methods, each registered with the protocol (:mod:`.protocol`) by its own
package's ``method`` module; importing them here registers them in this order (the order of
``report``'s folders and of ``methods()``). Each module imports its cores only when a hook is
called, so listing the methods stays light."""

from __future__ import annotations

# isort: off
import inspect_stance.drift.method  # noqa: F401 - registers stance_drift
import inspect_stance.press.method  # noqa: F401 - registers press
import inspect_stance.construction.method  # noqa: F401 - registers construction
import inspect_stance.validation.method  # noqa: F401 - registers prompt_validation
import inspect_stance.even_handedness.method  # noqa: F401 - registers even_handedness
import inspect_stance.pushback.method  # noqa: F401 - registers pushback
# isort: on
