"""The stance-drift report: figures computed (``analysis``), CSV frames (``frames``), text
(``render``), PNGs (``plots``, drawn by ``heatmap``), planning notes (``planning``) and the files
of ``--out`` (``write``).
"""
