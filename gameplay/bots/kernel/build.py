"""Build the playout kernel in place: ``python gameplay/bots/kernel/build.py`` (``make kernel``).

It compiles ``_kernel.c`` with the C compiler and the headers of the Python that runs this
script (both on every machine the project runs on), next to the source, so the package imports
it; no package is downloaded.
"""

import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "_kernel.c"


def target() -> Path:
    return HERE / ("_kernel" + sysconfig.get_config_var("EXT_SUFFIX"))


def main() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    include = sysconfig.get_paths()["include"]
    command = [*compiler, "-O2", "-Wall", "-shared", "-fPIC", f"-I{include}", str(SOURCE),
               "-o", str(target())]
    print(" ".join(command), flush=True)
    sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()
