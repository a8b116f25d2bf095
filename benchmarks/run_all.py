"""Run every benchmark and rewrite its results file in benchmarks/results/.

Slow (tens of minutes on a 2-core machine) and best run on an otherwise idle machine: the
figures are medians of wall or CPU time and say which machine and load they were taken on.
The planner's 200-game tables are left out (hours); `benchmarks/results/planner.md` gives
the commands that made them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUNS: list[list[str]] = [
    ["engine_bench.py", "--write"],
    ["vision_bench.py", "--write"],
    ["reader_memory.py", "--write"],
    ["referee_bench.py"],
]


def main() -> int:
    failed = 0
    for script, *args in RUNS:
        print(f"== {script} {' '.join(args)}", flush=True)
        code = subprocess.call([sys.executable, str(HERE / script), *args])
        if code != 0:
            print(f"{script} exited with {code}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
