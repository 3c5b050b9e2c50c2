"""The method protocol: what every command asks of a method (:mod:`.protocol`), the four
registered methods (:mod:`.methods`), and the sorting of inputs by method (:mod:`.inputs`).

Public names: :class:`Method`, :func:`register_method`, :func:`methods`, :func:`method_named`,
:func:`method_of_task`, :func:`sort_inputs`, :class:`SortedInputs`.
"""

from inspect_stance.study.inputs import SortedInputs, sort_inputs
from inspect_stance.study.protocol import Method, register_method
from inspect_stance.study.registry import method_named, method_of_task, methods

__all__ = [
    "Method",
    "SortedInputs",
    "method_named",
    "method_of_task",
    "methods",
    "register_method",
    "sort_inputs",
]
