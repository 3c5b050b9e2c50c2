"""The transition matrix the stance-drift end-to-end tests give the simulated respondent.

``TRUTH[s, t]``: the probability that an argument written for stance ``s`` is read back as
stance ``t`` (``stance_sim`` with ``-M transition=T.json``): the known answer the measured
SPR, patterns and success rates are checked against. ``TRUE_SPR`` is its mean diagonal.
"""

from __future__ import annotations

import numpy as np

TRUTH = np.array(
    [
        [0.85, 0.10, 0.05, 0.00, 0.00],
        [0.30, 0.50, 0.10, 0.10, 0.00],
        [0.00, 0.15, 0.70, 0.10, 0.05],
        [0.00, 0.05, 0.15, 0.60, 0.20],
        [0.00, 0.00, 0.00, 0.10, 0.90],
    ]
)
TRUE_SPR = float(np.mean(np.diag(TRUTH)))
