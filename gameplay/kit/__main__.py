import sys

from gameplay.kit.cli import main

sys.exit(main())
