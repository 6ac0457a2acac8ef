"""Runs a command (the test suite) and prints, once it ends, the wall time it took and the CPU time it and every
process it started used: `python tests/timed.py COMMAND...`. Exits with the command's code."""

from __future__ import annotations

import resource
import subprocess
import sys
import time


def main(command: list[str]) -> int:
    began = time.perf_counter()
    code = subprocess.call(command)
    wall = time.perf_counter() - began
    used = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its children, once waited for
    cpu = used.ru_utime + used.ru_stime
    print(f"time: {wall / 60:.1f} min wall ({wall:.0f} s), {cpu / 60:.1f} min CPU ({cpu:.0f} s)", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
