"""A ninth fresh probe: 20 bugs in places no earlier probe put a bug in (the browser's
game, board, replay and start pages and the contest's live standings, the starter
kits in Python and C, what ``doctor`` says of the walls, a match's words, ``solve``'s
clock, the contest's schema, the fault programs, the terminal's Chinese checkers
numbers, the path moves, the scripted channel and ``host``'s words). Written before
any test for them; each is put in, tested and taken out.

    python scripts/mutate_ninth.py --suite           # every mutation
    python scripts/mutate_ninth.py game-clock-pad    # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import GAMES, HOST, REFEREE, SRC, Mutation, main

WEB = SRC + "web/static/"
BROWSER = ("tests/web/test_browser.py",)
CONTEST_BROWSER = ("tests/host/test_browser.py", "tests/host/test_browser_contest.py")
KITS = ("tests/host/test_kits.py", "tests/test_kit_command.py")

MUTATIONS = (
    Mutation(
        "game-clock-pad",
        "a clock under ten seconds a minute shows two digits (9:05.0, not 9:5.0)",
        WEB + "game.js",
        '(s % 60).toFixed(1).padStart(4, "0")',
        '(s % 60).toFixed(1).padStart(3, "0")',
        BROWSER,
    ),
    Mutation(
        "board-flip-lines",
        "a flipped board turns its lines with its points",
        WEB + "board.js",
        "const [c, d] = this.flipped ? [L.width - x2, L.height - y2] : [x2, y2];",
        "const [c, d] = this.flipped ? [L.width - x2, y2] : [x2, y2];",
        BROWSER,
    ),
    Mutation(
        "board-must-movable",
        "a piece that must capture is drawn as such, a free one as movable",
        WEB + "board.js",
        'g.classList.add(view.forced ? "must" : "movable");',
        'g.classList.add(view.forced ? "movable" : "must");',
        BROWSER,
    ),
    Mutation(
        "replay-log-part",
        "at a move of the log's own seat the transcript shows up to that reply",
        WEB + "replay.js",
        "const part = own ? replies - 1 : replies;",
        "const part = replies;",
        CONTEST_BROWSER,
    ),
    Mutation(
        "index-side-label",
        "the start page names the first seat first",
        WEB + "index.js",
        '`${n} (${i ? "second" : "first"})`',
        '`${n} (${i ? "first" : "second"})`',
        BROWSER,
    ),
    Mutation(
        "game-resign-enabled",
        "a person may resign only on their own turn",
        WEB + "game.js",
        '$("resign").disabled = !s.your_turn;',
        '$("resign").disabled = s.your_turn;',
        BROWSER,
    ),
    Mutation(
        "standings-draws-wins",
        "the live standings' wins and draws each under its own heading",
        HOST + "static/standings.js",
        'cell(row.wins, "n wide"), cell(row.draws, "n wide")',
        'cell(row.draws, "n wide"), cell(row.wins, "n wide")',
        CONTEST_BROWSER,
    ),
    Mutation(
        "kit-votey-own-piece",
        "the Python Votey kit never lands on its own piece",
        GAMES + "votey/kits/python/main.py",
        "if not on_board(tr, tc) or board.get((tr, tc)) == me:",
        "if not on_board(tr, tc):",
        KITS,
    ),
    Mutation(
        "kit-checkers-forced",
        "the C checkers kit captures when it can (capturing is compulsory)",
        GAMES + "checkers/kits/c/main.c",
        "    if (count) return; /* capturing is compulsory */",
        "    if (0) return; /* capturing is compulsory */",
        KITS,
    ),
    Mutation(
        "doctor-uids-range",
        "doctor names the last uid programs run as, not one past it",
        REFEREE + "sandbox.py",
        "{self.uids.stop - 1}, one free uid",
        "{self.uids.stop}, one free uid",
        ("tests/referee/test_protection_words.py", "tests/test_cli.py"),
    ),
    Mutation(
        "match-contest-clock",
        "a match's first line says the clock is the contest's only when it is",
        SRC + "cli/commands.py",
        'contest = " (the contest\'s)" if tc == spec.time_control else ""',
        'contest = " (the contest\'s)" if tc != spec.time_control else ""',
        ("tests/test_cli.py",),
    ),
    Mutation(
        "sprt-side-words",
        "an accepted H1 says the agent is at least elo1 stronger",
        SRC + "cli/commands.py",
        'side = "at least" if decision == "H1" else "at most"',
        'side = "at most" if decision == "H1" else "at least"',
        ("tests/test_cli.py",),
    ),
    Mutation(
        "solve-time-order",
        "solve's --move-time wins over the seconds an input.txt gives",
        SRC + "cli/solve.py",
        "seconds = args.move_time or given or 1.0",
        "seconds = given or args.move_time or 1.0",
        ("tests/test_cli.py", "tests/test_mistakes.py"),
    ),
    Mutation(
        "schema-round-index",
        "the games' phase-and-round index the round pages read",
        HOST + "models.py",
        'Index("ix_games_phase_round", "phase", "round_number"),',
        'Index("ix_games_phase_round", "phase"),',
        ("tests/host/test_schema.py", "tests/host/test_rounds.py"),
    ),
    Mutation(
        "fault-flood-short",
        "the standard-error flood writes past the transcript's cap",
        SRC + "agents/faulty.py",
        "for _ in range(STDERR_FLOOD // len(chunk)):",
        "for _ in range(STDERR_FLOOD // len(chunk) // 400):",
        ("tests/referee/test_faults.py", "tests/referee/test_transcript.py"),
    ),
    Mutation(
        "numbers-seat",
        "the Chinese checkers hole numbers are drawn as the seat asked numbers them",
        GAMES + "chinese_checkers/notation.py",
        "_star({c: str(hole(c, seat=seat)) for c in range(CELLS)}, 2)",
        "_star({c: str(hole(c, seat=0)) for c in range(CELLS)}, 2)",
        ("tests/games/chinese_checkers/test_rules.py", "tests/test_human.py", "tests/test_cli.py"),
    ),
    Mutation(
        "path-target",
        "a path move's target is the last cell it visits",
        SRC + "moves.py",
        "        return self.path[-1]",
        "        return self.path[1]",
        ("tests/games/checkers/test_rules.py", "tests/games/alquerque/test_rules.py"),
    ),
    Mutation(
        "scripted-cpu",
        "the scripted channel's CPU time adds up over its replies",
        REFEREE + "scripted.py",
        "        self._cpu += self.seconds",
        "        self._cpu = self.seconds",
        ("tests/referee/test_scripted_protocols.py", "tests/test_clock.py"),
    ),
    Mutation(
        "host-listening-where",
        "host says it listens on this machine only for every loopback name",
        SRC + "cli/host.py",
        'args.host in ("127.0.0.1", "localhost", "::1")',
        'args.host in ("127.0.0.1", "::1")',
        ("tests/host/test_contest.py", "tests/test_cli.py"),
    ),
    Mutation(
        "kit-checkers-single-jump",
        "the C checkers kit lists a single jump as a capture",
        GAMES + "checkers/kits/c/main.c",
        "if (!found && m->n > 1) add(m);",
        "if (!found && m->n > 2) add(m);",
        KITS,
    ),
)

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
