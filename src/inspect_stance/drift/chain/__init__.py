"""The multi-hop chain variant (``-T hops=K``): relay prompts (``relay_prompts``), the projection
of one-hop matrices (``hops``), the measured k-hop matrices and Markov test (``markov``), chain
logs (``logs``) and their report section (``report``).
"""
