"""Prompt validation: do the study's prompts read as real, clear and on the side they claim?

Inspect-free core of the ``prompt_validation`` task: ``options`` (its ``-T`` parameters),
``samples`` (its sample list), ``real_prompts`` (real prompts to compare against), ``annotation``
(annotator answers), ``realism`` / ``clarity`` / ``detection`` (the three studies), ``analysis``
(their figures), ``human`` (human annotations), ``render`` / ``plots`` / ``report`` (the report).
It shares the settings, templates and topics of :mod:`inspect_stance.construction`.
"""
