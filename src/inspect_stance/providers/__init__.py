"""Inspect model providers shipped with inspect-stance (registered via the entry point).

These are known-answer instruments for validating pipelines, not models.
"""
