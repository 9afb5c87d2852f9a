"""Command line: ``python -m gameplay.engine check FILE…`` and ``… play --preset P …``."""

import sys

from gameplay.engine.cli import main

sys.exit(main())
