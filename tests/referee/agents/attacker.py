"""A contest program that attacks its referee, then plays one Votey move and leaves.

Usage: attacker.py REPORT_TAG TARGETS COLOUR

TARGETS is a JSON file naming the key, the record file, the database, the referee's
directory and another program's file (named there, not on the command line: the
files a command names are the program's own, which it may read).

It tries everything a hostile program could do to the referee that runs it and
writes what it reached to its standard error, a line ``REPORT_TAG ["attack", "what"]``
for each attack: ``blocked (why)`` or what it got. It never does harm that
could not be undone if a wall were missing: the signal it sends is 0 (a check of
permission), what it writes is appended or a new file (``planted-by-attacker.txt``),
in its own program's folder, arbiter's package and the Python it runs on.
"""

import glob
import importlib.util
import json
import os
import sys

tag, targets, colour = sys.argv[1:4]
with open(targets) as f:
    key, record, database, referee_dir, other = json.load(f)
if colour == "2":
    sys.stdin.readline()  # black's first move: the other program is running now
found: dict[str, object] = {}


def attempt(name: str, action) -> None:
    try:
        found[name] = action()
    except OSError as e:
        found[name] = f"blocked ({e.strerror})"


def read(path: str) -> str:
    with open(path, "rb") as f:
        return f.read(200).decode("utf-8", "replace")


def append(path: str) -> str:
    with open(path, "ab") as f:
        f.write(b"\nUPDATE games SET winner = 1;\n")
    return "written"


def signal_others() -> str:
    """The processes other than its own it may signal (signal 0: a check, no harm)."""
    others = []
    for path in glob.glob("/proc/[0-9]*"):
        pid = int(path.rsplit("/", 1)[1])
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
            others.append(pid)
        except OSError:
            continue
    return f"may signal {others}" if others else "blocked (none)"


def secret_from_environs() -> str:
    """Any process's environment that holds the referee's secret."""
    for path in glob.glob("/proc/[0-9]*/environ"):
        try:
            with open(path, "rb") as f:
                if b"ARBITER_TEST_SECRET" in f.read():
                    return f"read {path}"
        except OSError:
            continue
    return "blocked (not found)"


def other_boxes() -> str:
    """Files of other programs' boxes in the temporary directory."""
    mine = os.path.realpath(os.getcwd())
    for box in glob.glob("/tmp/arbiter-game-*/work"):
        if os.path.realpath(box) == mine:
            continue
        try:
            return f"listed {box}: {sorted(os.listdir(box))[:3]}"
        except OSError:
            continue
    return "blocked (none readable)"


def plant(folder: str) -> str:
    """Makes a file in ``folder`` (the test removes it if a wall was missing)."""
    with open(os.path.join(folder, "planted-by-attacker.txt"), "x") as f:
        f.write("planted\n")
    return "written"


def package_folder() -> str:
    spec = importlib.util.find_spec("arbiter")
    assert spec is not None and spec.origin is not None
    return os.path.dirname(spec.origin)


attempt("parent environ", lambda: read(f"/proc/{os.getppid()}/environ"))
attempt("any environ", secret_from_environs)
attempt("key", lambda: read(key))
attempt("record read", lambda: read(record))
attempt("record write", lambda: append(record))
attempt("database read", lambda: read(database))
attempt("database write", lambda: append(database))
attempt("referee dir write", lambda: append(os.path.join(referee_dir, "planted.txt")))
attempt("referee dir list", lambda: sorted(os.listdir(referee_dir)))
attempt("other program's file", lambda: read(other))
attempt("other boxes", other_boxes)
attempt("signal parent", lambda: os.kill(os.getppid(), 0) or "may signal")
attempt("signal others", signal_others)
attempt("own program file write", lambda: append(os.path.abspath(sys.argv[0])))
attempt("own program folder write", lambda: plant(os.path.dirname(os.path.abspath(sys.argv[0]))))
attempt("arbiter package write", lambda: plant(package_folder()))
attempt("python write", lambda: plant(os.path.dirname(os.__file__)))
found["processes seen"] = len(glob.glob("/proc/[0-9]*"))
found["uid"] = os.getuid()
for name, what in found.items():
    print(tag, json.dumps([name, str(what)[:120]]), file=sys.stderr, flush=True)

print("1214" if colour == "1" else "2838", flush=True)
