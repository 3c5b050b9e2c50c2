"""Study planning for stance drift: variance components (``variance``), designs and their predicted
SEs and cost (``design``), the precision the frequency estimator loses (``estimators``) and the
analysis behind ``inspect-stance plan`` (``study``).
"""
