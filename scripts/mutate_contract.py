"""Fresh bugs in what a game of another shape meets, and in the parts added since the
last probe (the contract's clicks and legs, the learning environments' planes, the
walls' environment, the contest site's version marks, schedule and candidates' games,
the referee's words, the command line's refusals, the worker's first contact), each
put in, tested and taken out.

    python scripts/mutate_contract.py               # every mutation
    python scripts/mutate_contract.py drop-origins  # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import HOST, SRC, Mutation, main

DROPS = ("tests/test_drop_game.py",)
ENVS = ("tests/test_envs.py", "tests/test_drop_game.py")
MARKS = ("tests/host/test_marks_and_candidates.py",)
FINAL = ("tests/host/test_final.py",)
MISTAKES = ("tests/test_mistakes.py",)

MUTATIONS = (
    Mutation(
        "drop-origins",
        "a game of drops starts from every cell a legal move fills",
        SRC + "contract/layout.py",
        "            return Continuation(tuple(sorted(filled)), None)",
        "            return Continuation(tuple(sorted(filled))[:-1], None)",
        DROPS,
    ),
    Mutation(
        "drop-leg",
        "a drop is the leg onto the cell it fills",
        SRC + "contract/layout.py",
        "        return ((cell, cell),)",
        "        return ((cell, (cell + 1) % 42),)",
        DROPS,
    ),
    Mutation(
        "path-legs",
        "a capture chain is one leg per jump",
        SRC + "contract/layout.py",
        "return tuple(itertools.pairwise(path)) if len(path) > 1",
        "return tuple(itertools.pairwise(path))[:1] if len(path) > 1",
        ENVS,
    ),
    Mutation(
        "hop-leg",
        "a hop chain is one leg from its start to its end",
        SRC + "contract/layout.py",
        "        return ((m.origin, m.target),)",
        "        return ((m.target, m.origin),)",
        ENVS,
    ),
    Mutation(
        "king-plane",
        "a crowned piece is marked in the kings' plane",
        SRC + "envs/encoding.py",
        '            if piece.endswith("K"):',
        '            if piece.startswith("K"):',
        ENVS,
    ),
    Mutation(
        "second-plane",
        "the second seat's observations carry a plane of ones",
        SRC + "envs/encoding.py",
        "        if seat == 1:\n            out[:, :, 5] = 1",
        "        if seat == 0:\n            out[:, :, 5] = 1",
        ENVS,
    ),
    Mutation(
        "colours",
        "a piece colour the board does not draw is refused",
        SRC + "contract/layout.py",
        "            if colour not in PIECE_COLOURS:",
        "            if False:",
        DROPS,
    ),
    Mutation(
        "games-to-programs",
        "every program is told the outside games",
        SRC + "referee/supervision.py",
        'PASSED_ALWAYS = ("LANG", "LC_ALL", "TZ", "ARBITER_GAMES")',
        'PASSED_ALWAYS = ("LANG", "LC_ALL", "TZ")',
        DROPS,
    ),
    Mutation(
        "frozen-mark",
        "the final's version is marked frozen",
        HOST + "version_marks.py",
        "        elif v is frozen:",
        "        elif False:",
        (*MARKS, *FINAL),
    ),
    Mutation(
        "late-mark",
        "a version after the freeze is marked not in the final",
        HOST + "version_marks.py",
        "        elif final and v.number > (frozen.number if frozen else 0):",
        "        elif False:",
        MARKS,
    ),
    Mutation(
        "round-now",
        "a round due now is said to start now",
        HOST + "rounds.py",
        "    if due is not None and due > at:",
        "    if due is not None and due >= at:",
        FINAL,
    ),
    Mutation(
        "round-due",
        "the schedule starts a round at its time, not after",
        HOST + "rounds.py",
        "    return due is None or at >= due",
        "    return due is None or at > due",
        FINAL,
    ),
    Mutation(
        "record-clock",
        "a result on another clock is refused",
        HOST + "queue.py",
        "            record.time_control,\n        ) != (self.game, self.clock):",
        "            self.clock,\n        ) != (self.game, self.clock):",
        ("tests/host/test_queue.py",),
    ),
    Mutation(
        "candidate-owner",
        "a candidate's game is its owner's, not any signed-in person's",
        HOST + "access.py",
        "    return owner == viewer.id",
        "    return owner is not None",
        MARKS,
    ),
    Mutation(
        "candidate-section",
        "an entrant's candidate section holds its own candidates' games only",
        HOST + "listing.py",
        'Round.phase == "candidate", Round.candidate_id.in_(tested))',
        'Round.phase == "candidate")',
        MARKS,
    ),
    Mutation(
        "twin-agents",
        "two agents of one name are refused",
        SRC + "cli/tournament.py",
        "            if other.name == name and same_games:",
        "            if False:",
        MISTAKES,
    ),
    Mutation(
        "board-row",
        "a checkers board row is eight digits 0-4",
        SRC + "games/checkers/player.py",
        '            if len(row) != 8 or not set(row) <= set("01234"):',
        "            if len(row) != 8:",
        (*MISTAKES, "tests/games/checkers/test_protocol.py"),
    ),
    Mutation(
        "tc-cut-short",
        "a time control cut short after '+' is named",
        SRC + "clock.py",
        '            if rest.endswith(("/", "+")):',
        '            if rest.endswith("/"):',
        MISTAKES,
    ),
    Mutation(
        "late-by",
        "a late reply is said late by the time past its limit",
        SRC + "referee/pipe.py",
        "            late = time.monotonic() - started - wall_limit",
        "            late = time.monotonic() - started",
        ("tests/referee/test_process.py",),
    ),
    Mutation(
        "starved",
        "a runnable program given no CPU is starved, not idle",
        SRC + "referee/pipe.py",
        "    if share < 0.05 and not runnable and wait < 0.05:",
        "    if share < 0.05 and wait < 0.05:",
        (SRC + "referee/pipe.py",),
    ),
    Mutation(
        "first-contact",
        "a worker whose first server is no contest stops",
        HOST + "server_link.py",
        "                if isinstance(e, Stranger) and not self.met:",
        "                if False:",
        (
            "tests/host/test_workers.py::test_a_worker_sent_to_a_server_that_is_no_contest_stops_with_one_line",
        ),
    ),
    Mutation(
        "white-first",
        "PGN's Result puts White's score first",
        SRC + "play/portable.py",
        '    return spec.seat_names.index("white")',
        "    return 0",
        ("tests/play/test_portable.py",),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
