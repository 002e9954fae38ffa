"""The test game's contest program: ``program.py lines|files MODE [SEED]``.

MODE is a built-in engine (``random``, ``greedy``, ``alphabeta``), run through the
game's agent side; or a misbehaviour: ``ponder`` plays
the first legal move and then burns 0.25 s of CPU after each reply; ``lazy`` moves
only its lead token and burns 0.12 s of CPU before each reply.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arbiter.agents.registry import make_agent
from arbiter.contract import AgentRun
from tests.fakegame import RACE, RACE_FILES
from tests.fakegame.notation import format_move, resolve_move


def burn(seconds: float) -> None:
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        pass


def misbehave(mode: str) -> None:
    game = RACE.make()
    seat = int(sys.stdin.readline()) - 1
    s = game.initial()
    while game.outcome(s) is None:
        if game.to_move(s) == seat:
            moves = game.legal_moves(s)
            if mode == "lazy":
                burn(0.12)
                lead = max if seat == 0 else min
                front = lead(m.origin for m in moves)
                moves = [m for m in moves if m.origin == front] or moves
            m = moves[0]
            print(format_move(m, seat=seat), flush=True)
            if mode == "ponder":
                burn(0.25)
        else:
            line = sys.stdin.readline()
            if not line:
                return
            m = resolve_move(line, s, seat=seat)
        s = game.apply(s, m)


def main() -> int:
    shape, mode = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    spec = RACE if shape == "lines" else RACE_FILES
    if mode in ("ponder", "lazy"):
        misbehave(mode)
        return 0
    agent = make_agent(spec, mode)
    run = AgentRun(spec.time_control, sys.stdin, sys.stdout, sys.stderr, seed=seed)
    return spec.serve(agent, spec.make(), [], run)


if __name__ == "__main__":
    sys.exit(main())
