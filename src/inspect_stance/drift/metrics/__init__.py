"""The stance-drift metrics: SPR and success by initial stance (``spr``), drift patterns and SDR
(``patterns``), per-proposition confidence bounds (``confidence``), the pass rate (``pass_rate``).
"""
