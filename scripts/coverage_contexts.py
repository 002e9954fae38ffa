"""Runs the test suite under coverage with each line's tests recorded, in the processes
the tests start too: the data ``mutate_sweep.py`` chooses a mutant's tests from.

In the suite's own processes pytest-cov names the test running (``--cov-context=test``).
A server, a worker or a command a test starts is measured through
``coverage.process_startup``, which coverage's own ``.pth`` file calls in every Python
process that inherits ``COVERAGE_PROCESS_START``; its static context is the
``PYTEST_CURRENT_TEST`` it inherited, the test that started it. (Contestants' programs
start with the referee's own short environment and are not measured.)

    python scripts/coverage_contexts.py [PYTEST ARGS ...]

writes ``.coverage`` at the repository's root; exits with pytest's status.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--cov=arbiter"]
PYTEST += ["--cov-context=test", "--cov-report="]


def main(args: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="arbiter-coverage-") as work:
        rc, started = Path(work) / "rc", Path(work) / "started"
        rc.write_text(f"[run]\nparallel = true\nsource = arbiter\ndata_file = {work}/.coverage\n")
        # a static context hides pytest-cov's own: only the started processes have one,
        # and they save at os._exit (a command's quick exit) and SIGTERM (a server's end)
        started.write_text(
            rc.read_text() + "context = ${PYTEST_CURRENT_TEST-}\npatch = _exit\nsigterm = true\n"
        )
        env = {**os.environ, "COVERAGE_PROCESS_START": str(started)}
        done = subprocess.run(
            [*PYTEST, f"--cov-config={rc}", *args], cwd=ROOT, env=env, check=False
        )
        whole = coverage.Coverage(data_file=str(ROOT / ".coverage"))
        whole.erase()
        whole.combine([str(f) for f in Path(work).glob(".coverage*")], keep=False)
        whole.save()
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
