"""A Votey test agent that misbehaves on purpose.

Usage: votey_script.py MODE PIDFILE COLOR

It appends its pid (and those of any children it starts) to PIDFILE, then acts
by MODE. Black plays the lines of MODE's script; white echoes what it reads to
PIDFILE.moves so tests can see what the referee sent it.
"""

import os
import sys
import time

mode, pidfile, color = sys.argv[1], sys.argv[2], sys.argv[3]


def note(text: str) -> None:
    with open(pidfile, "a") as f:
        f.write(text + "\n")


note(f"pid {os.getpid()}")


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def hear() -> str:
    line = sys.stdin.readline()
    with open(pidfile + ".moves", "a") as f:
        f.write(line if line else "<eof>\n")
    return line.strip()


def burn(seconds: float) -> None:
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        pass


def play_legal(before: float, after: float) -> None:
    """Black playing random legal moves, burning CPU before and after each reply."""
    import random

    from arbiter.games.votey import SPEC

    game, rng = SPEC.make(), random.Random(1)
    s = game.initial()
    while game.outcome(s) is None:
        burn(before)
        m = rng.choice(game.legal_moves(s))
        say(SPEC.contest.move_text(game, s, m, seat=0))
        s = game.apply(s, m)
        burn(after)
        line = hear()
        if game.outcome(s) is not None or line in ("", "-1") or line.startswith("-"):
            break
        s = game.apply(s, SPEC.notation.resolve_move(line, s, seat=0))
    sys.exit(0)


if mode == "steady":  # 0.3 s of CPU before every move
    play_legal(0.3, 0.0)
if mode == "ponder":  # 1.5 s of CPU right after every reply, on the opponent's time
    play_legal(0.0, 1.5)
if mode == "listen":  # white: read everything until the end of input
    while hear() not in ("", "-1"):
        pass
    sys.exit(0)
if mode == "play0":  # white as the sheet's development play(): writes 0 before reading
    say("0")
    hear()
    say("2123")
elif mode == "illegal":
    say("1418")
elif mode == "malformed":
    say("move 14 to 34")
elif mode == "false-claim":
    say("-1434")
elif mode in ("win", "unclaimed"):  # from the Figure 3 position, black to move
    say("-2454" if mode == "win" else "2454")
hear()
time.sleep(600)
