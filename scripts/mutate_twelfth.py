"""A twelfth fresh probe: 20 bugs in places no earlier probe put a bug in: the
referee's move events, transcripts' names, the watchdog's thaw, the local seat's
clock and the run delay read from the kernel; the environments' last move after a
reset, an action's words and the registered ids; the compiled search's mate scores
from its table, the compiled environments' view of Votey, checkers and Halma; the
contest server's private database files and database URL, the live moves a worker
posts, the rating plot's band, a live page's slot and the kits' files; a record's
move times and a clock's seconds. Written before any test for them; each is put in,
tested and taken out.

    python scripts/mutate_twelfth.py --suite             # every mutation
    python scripts/mutate_twelfth.py events-shown-seat   # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CORE = CORE_TESTS
REFEREE = ("tests/referee/", "tests/test_cli.py", "tests/test_human.py")

MUTATIONS = (
    Mutation(
        "events-shown-seat",
        "a move is shown in the numbering of the seat asked for",
        SRC + "referee/events.py",
        "        return one_line(self.texts[seat])",
        "        return one_line(self.texts[0])",
        (*REFEREE, "tests/test_race.py", "tests/games/"),
    ),
    Mutation(
        "transcript-seat-number",
        "a transcript's file is named for its seat counted from 1",
        SRC + "referee/transcript.py",
        'self.path = Path(directory) / f"{seat + 1}-{safe}.log"',
        'self.path = Path(directory) / f"{seat}-{safe}.log"',
        (*REFEREE, "tests/host/test_pages.py", "tests/tournament/"),
    ),
    Mutation(
        "watchdog-frozen-left",
        "the watchdog thaws a frozen cgroup so its processes die",
        SRC + "referee/watchdog.py",
        '(("freezer.state", "THAWED"), ("cgroup.freeze", "0"))',
        '(("freezer.state", "THAWED"), ("cgroup.freeze", "1"))',
        ("tests/referee/test_watchdog.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "local-seat-clock-swapped",
        "a built-in engine is charged the clock its contest charges",
        SRC + "referee/seat.py",
        "        wall = self.supervision.charging is Charging.WALL\n"
        "        t0 = time.perf_counter() if wall else time.thread_time()",
        "        wall = self.supervision.charging is Charging.CPU\n"
        "        t0 = time.perf_counter() if wall else time.thread_time()",
        (*REFEREE, "tests/agents/test_deadlines.py", "tests/test_clock.py"),
    ),
    Mutation(
        "schedstat-run-delay-field",
        "a thread's wait for a core is schedstat's second field, not its time on one",
        SRC + "referee/schedstat.py",
        "total += int(f.read().split()[1])",
        "total += int(f.read().split()[0])",
        ("tests/referee/test_schedstat.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "stepping-last-kept",
        "a new game forgets the last move of the one before",
        SRC + "envs/stepping.py",
        "    def begin(self, s: S) -> None:\n        self._last = None\n        self._enter(s)",
        "    def begin(self, s: S) -> None:\n        self._enter(s)",
        ENVS_TESTS,
    ),
    Mutation(
        "encoding-action-text",
        "an action is told from its leg's start to its end",
        SRC + "envs/encoding.py",
        'return f"{self._labels[a]} to {self._labels[b]}"',
        'return f"{self._labels[b]} to {self._labels[a]}"',
        ENVS_TESTS,
    ),
    Mutation(
        "registration-skips-new",
        "every shipped game's id is registered unless it is already",
        SRC + "envs/registration.py",
        "        if env_id(game) not in registry:",
        "        if env_id(game) in registry:",
        ENVS_TESTS,
    ),
    Mutation(
        "search-mated-from-table",
        "a loss read from the table is as far as the ply it is read at",
        CSRC + "search.c",
        "            else if (es <= -MATE_ZONE)\n                es += ply;",
        "            else if (es <= -MATE_ZONE)\n                es -= ply;",
        CORE,
    ),
    Mutation(
        "votey-squares-second",
        "the compiled Votey view marks the second player's pieces as the second's",
        CSRC + "votey.c",
        "((s->p[1] >> c) & 1) * PIECE_SECOND);\n}\n\nstatic int v_path",
        "((s->p[1] >> c) & 1) * PIECE_FIRST);\n}\n\nstatic int v_path",
        ENVS_TESTS,
    ),
    Mutation(
        "checkers-king-square",
        "the compiled checkers view crowns the square the king is on",
        CSRC + "checkers.c",
        "((s->kings >> c) & 1) * PIECE_KING);",
        "((s->kings >> (c + 1)) & 1) * PIECE_KING);",
        ENVS_TESTS,
    ),
    Mutation(
        "halma-path-start",
        "the compiled Halma path begins at the move's start",
        CSRC + "halma.c",
        "    out[0] = (uint8_t)(m >> 8);",
        "    out[0] = (uint8_t)(m >> 7);",
        ENVS_TESTS,
    ),
    Mutation(
        "storage-shm-open",
        "SQLite's shared-memory file is narrowed to the server too",
        HOST + "storage.py",
        'for suffix in ("-wal", "-shm"):',
        'for suffix in ("-wal",):',
        ("tests/host/test_private.py", "tests/host/test_deployment.py"),
    ),
    Mutation(
        "storage-url-query",
        "a SQLite URL's options are not part of its file's name",
        HOST + "storage.py",
        'path = url.split("///", 1)[1].split("?", 1)[0]',
        'path = url.split("///", 1)[1]',
        ("tests/host/test_private.py", "tests/host/test_deployment.py"),
    ),
    Mutation(
        "wire-live-moves-flood",
        "a worker posts at most 500 live moves a call",
        HOST + "wire.py",
        "moves: list[LiveMove] = Field(max_length=500)",
        "moves: list[LiveMove] = Field(max_length=MAX_LIVE_PLIES)",
        ("tests/host/test_wire.py",),
    ),
    Mutation(
        "plot-band-low",
        "the rating plot's range reaches down to the band's bottom",
        HOST + "plot.py",
        "lows = [p.elo - p.error for p in finite]",
        "lows = [p.elo + p.error for p in finite]",
        ("tests/host/test_rounds.py", "tests/host/test_pages.py"),
    ),
    Mutation(
        "events-slot-kept",
        "a live page's slot is given back when the page goes",
        HOST + "events.py",
        "                await asyncio.shield(asyncio.to_thread(self.slots.give_back, slot))",
        "                pass",
        ("tests/host/test_stream_slots.py", "tests/host/test_contest.py"),
    ),
    Mutation(
        "kits-folder-listed",
        "a kit's files are its files, not its folders",
        HOST + "kits.py",
        "Kit(d.name, tuple(sorted(f.name for f in d.iterdir() if f.is_file())), d)",
        "Kit(d.name, tuple(sorted(f.name for f in d.iterdir())), d)",
        ("tests/host/test_kits.py",),
    ),
    Mutation(
        "record-negative-time",
        "a record's move times are never negative",
        SRC + "record.py",
        "not 0 <= t < math.inf",
        "not t < math.inf",
        ("tests/test_record.py",),
    ),
    Mutation(
        "clock-sixty-seconds",
        "a time written m:ss has fewer than 60 seconds",
        SRC + "clock.py",
        "not 0 <= float(secs) < 60",
        "not 0 <= float(secs) <= 60",
        ("tests/test_clock.py",),
    ),
)

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
