"""Shared test settings: the test game is registered with the games."""

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter import core
from arbiter.games import GAMES_VARIABLE, register
from tests.fakegame import RACE, RACE_FILES
from tests.runs import RUN

register(RACE)
register(RACE_FILES)
# the toy game is one folder and this one line; programs that run it find it too
os.environ[GAMES_VARIABLE] = "nim=tests.nim,connect4=tests.connect4"
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH")])
)

# the misbehaving agent scripts and the test game's program are programs, not test modules
collect_ignore_glob = ["referee/agents/*.py", "fakegame/program.py"]

# records written by the tests are sealed with a key of their own, never the user's
_KEY_DIR = tempfile.mkdtemp(prefix="arbiter-key-")
atexit.register(shutil.rmtree, _KEY_DIR, ignore_errors=True)
os.environ["ARBITER_RECORD_KEY"] = os.path.join(_KEY_DIR, "key")


def pytest_configure(config: pytest.Config) -> None:
    """Compiles arbiter's modules to bytecode once, before any test starts a program.

    An editable install has no bytecode of its own, and where PYTHONDONTWRITEBYTECODE
    is set (as on some CI machines) nothing writes it: every program the tests start
    (``arbiter agent`` once a move in Halma, hundreds of them) would compile arbiter
    again, about 70 ms each. :mod:`compileall` writes it whatever that setting says,
    and skips modules already compiled."""
    import compileall
    import re

    # pytest keeps its rewritten test modules as bytecode too (each worker rewrote
    # them all again: 3 s of CPU a process)
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput"):  # the controller, before the workers start
        # starter kits are contestants' sources, shipped as they are
        kits = re.compile(r"[/\\]kits[/\\]")
        compileall.compile_dir(os.path.dirname(core.__file__), quiet=1, rx=kits)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``early`` first, the rest in their order: the longest tests
    then start at once and the others fill the workers around them (the schedule's
    idle workers take from the busy ones), where a long test started last would run
    alone."""
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


BOTH_PATHS = ("test_rules", "test_openspiel", "test_pydraughts", "test_perft_files")
"""The rules and reference tests, run once on each core (compiled and pure)."""


SLOW_ON_PURE = ("test_pydraughts",)
"""Reference tests whose pure-path run checks what the compiled run checks (the two
cores are held to each other by tests/test_core.py) at many times its cost: with -m
slow, or where there is no compiled core."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    name = metafunc.module.__name__.rsplit(".", 1)[-1]
    if name in BOTH_PATHS:
        slow = name in SLOW_ON_PURE and core.available()
        pure = pytest.param("pure", marks=pytest.mark.slow) if slow else "pure"
        metafunc.parametrize("core_path", ["compiled", pure], indirect=True)


@pytest.fixture(autouse=True)
def core_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The core that rules engines made in the test use: the default, or (for the
    modules of BOTH_PATHS) each of the compiled and the pure-Python one. Where CI
    sets ``ARBITER_CORE=required`` a missing compiled core fails instead of skipping."""
    path = getattr(request, "param", "default")
    if path == "pure":
        with core.forced_pure():
            yield path
        return
    if path == "compiled":
        monkeypatch.delenv("ARBITER_PURE", raising=False)
        if not core.available():
            if os.environ.get("ARBITER_CORE") == "required":
                pytest.fail(f"the compiled core is required here: {core.describe()}")
            pytest.skip("the compiled core is not built")
    yield path


def pytest_sessionfinish(session, exitstatus) -> None:  # type: ignore[no-untyped-def]
    """After the whole suite, nothing it started may still run: no descendant of this
    process (but the watchdog, which ends with it) and no faulty program anywhere.
    Run in parallel (pytest-xdist), each worker answers for its own descendants and
    the controller, once every worker is done, for this run's faulty programs anywhere
    (their tags hold :data:`tests.runs.RUN`)."""
    import time

    import psutil

    from arbiter.referee.watchdog import WATCHDOG

    worker = hasattr(session.config, "workerinput")
    controller = not worker and session.config.pluginmanager.hasplugin("dsession")
    watchdog = WATCHDOG.pid
    deadline = time.monotonic() + 5
    while True:
        left = []
        for p in [] if controller else psutil.Process().children(recursive=True):
            try:
                if p.pid != watchdog and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
            except psutil.Error:
                continue
        for p in [] if worker else psutil.process_iter(["cmdline", "status"]):
            try:
                words = p.info["cmdline"] or ()
                ours = any(w.startswith(RUN) for w in words)  # another run's are its own
                if "--fault-tag" in words and ours and p.info["status"] != psutil.STATUS_ZOMBIE:
                    left.append(f"{p.pid} {' '.join(words)[:120]}")
            except psutil.Error:
                continue
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    if left:
        print("\nprocesses left running by the tests:\n  " + "\n  ".join(left))
        session.exitstatus = 1
