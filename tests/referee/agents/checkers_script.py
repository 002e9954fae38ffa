"""A checkers test engine that misbehaves on purpose.

Usage: checkers_script.py MODE PIDFILE COLOR

Appends its pid to PIDFILE and the boards it reads to PIDFILE.boards, then acts by
MODE on the first board (crash: on the second).
"""

import os
import sys
import time

mode, pidfile, color = sys.argv[1], sys.argv[2], sys.argv[3]
with open(pidfile, "a") as f:
    f.write(f"pid {os.getpid()}\n")


def board() -> bool:
    rows = [sys.stdin.readline() for _ in range(8)]
    with open(pidfile + ".boards", "a") as f:
        f.write("".join(rows) if all(rows) else "<eof>\n")
    return all(rows)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if not board():
    sys.exit(0)
if mode == "illegal":
    say("1-5")
elif mode == "malformed":
    say("9 to 13")
elif mode == "burn":
    while True:
        pass
elif mode == "crash":
    say("9-13")
    board()
    sys.exit(2)
board()
time.sleep(600)
