"""``python -m inspect_stance.cli ARGS``: the same as ``inspect-stance ARGS``."""

import sys

from inspect_stance.cli import main

sys.exit(main())
