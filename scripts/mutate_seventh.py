"""A seventh fresh probe: 20 bugs in modules no earlier probe put a bug in (the random
agent, the platform's reasons, an outcome's words, the bitboard helpers, the
Alquerque and Chinese checkers referees' seats, the contest's ratings and rating plot,
agent options, the replay command, the tournament's options, the browser's pages,
the run-delay reading, the watchdog, the isolation levels, Halma's camp rule and
the compiled core's state check). Written before any test for them; each is put
in, tested and taken out.

    python scripts/mutate_seventh.py                # every mutation
    python scripts/mutate_seventh.py random-seed    # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import GAMES, HOST, REFEREE, SRC, Mutation, main

MUTATIONS = (
    Mutation(
        "random-seed",
        "the random agent's choices follow its seed",
        SRC + "agents/random.py",
        "        self._rng = random.Random(seed)",
        "        self._rng = random.Random(0)",
        ("tests/agents/test_agents.py", "tests/tournament/test_tournament.py"),
    ),
    Mutation(
        "fault-forfeit",
        "a game settled unplayed is lost by a fault",
        SRC + "errors.py",
        "        Reason.FORFEIT,\n",
        "",
        ("tests/host/test_settle.py", "tests/test_record.py"),
    ),
    Mutation(
        "text-fault-claim",
        "a false claim is judged again from its text on replay",
        SRC + "errors.py",
        "{Reason.ILLEGAL_MOVE, Reason.MALFORMED, Reason.FALSE_CLAIM, Reason.UNCLAIMED_WIN}",
        "{Reason.ILLEGAL_MOVE, Reason.MALFORMED, Reason.UNCLAIMED_WIN}",
        ("tests/test_record.py", "tests/referee/test_votey_faults.py"),
    ),
    Mutation(
        "explained-ending",
        "a game's own ending is explained in its own words",
        SRC + "game.py",
        "        why = self.detail or (self.reason.text if isinstance(self.reason, RuleEnd) else"
        ' "")',
        "        why = self.detail",
        ("tests/test_drop_game.py",),
    ),
    Mutation(
        "total-max",
        "the rearmost piece's distance is the largest, not the last",
        SRC + "bitboard.py",
        "        most = max(most, v)",
        "        most = v",
        (
            "tests/games/chinese_checkers/test_evaluate.py",
            "tests/games/halma/test_evaluate.py",
            "tests/agents/test_agents.py",
        ),
    ),
    Mutation(
        "alq-quit-winner",
        "only the loser of an Alquerque game is sent Quit",
        GAMES + "alquerque/referee.py",
        "        if outcome.winner is not None and outcome.winner != self.seat:",
        "        if outcome.winner is not None:",
        ("tests/games/alquerque/test_protocol.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "cc-numbering",
        "a mediator player is told its number from 1",
        GAMES + "chinese_checkers/referee.py",
        "        await self.send(str(seat + 1))",
        "        await self.send(str(seat))",
        ("tests/games/chinese_checkers/test_protocol.py",),
    ),
    Mutation(
        "cc-resume",
        "a suspended mediator player is resumed before it is sent the move",
        GAMES + "chinese_checkers/referee.py",
        "            self.transport.resume()  # the sheet: resumed before it is sent the move\n",
        "            pass\n",
        ("tests/games/chinese_checkers/test_protocol.py", "tests/referee/test_suspension.py"),
    ),
    Mutation(
        "ratings-order",
        "the contest table is in rating order",
        HOST + "ratings.py",
        "    lines.sort(key=lambda s: (-s.rating.elo, -s.points, s.name))",
        "    lines.sort(key=lambda s: (-s.points, -s.rating.elo, s.name))",
        ("tests/host/test_tallies.py", "tests/host/test_ranking.py", "tests/host/test_rounds.py"),
    ),
    Mutation(
        "ratings-inf",
        "an unbounded rating error is stored as none",
        HOST + "ratings.py",
        '                error=error if error != float("inf") else None,',
        "                error=error,",
        ("tests/host/test_rounds.py", "tests/host/test_pages.py"),
    ),
    Mutation(
        "plot-one-round",
        "a rating history of one round is drawn",
        HOST + "plot.py",
        "    span = max(1, last - first)",
        "    span = last - first",
        ("tests/host/test_rounds.py", "tests/host/test_pages.py"),
    ),
    Mutation(
        "glue-size",
        "the compiled core refuses a state of the wrong size",
        SRC + "csrc/glue.c",
        "    if (len != vt->state_size) {",
        "    if (len < vt->state_size) {",
        ("tests/test_core.py",),
    ),
    Mutation(
        "option-limit",
        "an engine option at its limit is taken, past it refused",
        SRC + "agents/spec.py",
        "                if int(value) > OPTION_LIMITS[key]:",
        "                if int(value) >= OPTION_LIMITS[key]:",
        ("tests/agents/test_agents.py", "tests/test_mistakes.py", "tests/test_cli.py"),
    ),
    Mutation(
        "replay-status",
        "arbiter replay fails when a record does not verify",
        SRC + "cli/replay.py",
        '    print(f"{count - bad} of {count} records verified")\n    return 1 if bad else 0',
        '    print(f"{count - bad} of {count} records verified")\n    return 0',
        ("tests/test_record.py", "tests/test_cli.py"),
    ),
    Mutation(
        "seed-negative",
        "a tournament's seed is a whole number from 0",
        SRC + "cli/tournament_args.py",
        'tu.add_argument("--seed", type=_nonnegative_int, default=0',
        'tu.add_argument("--seed", type=int, default=0',
        ("tests/test_mistakes.py", "tests/tournament/test_tournament.py"),
    ),
    Mutation(
        "replay-page",
        "the browser's replay address serves the replay page",
        SRC + "web/routes/pages.py",
        '    return FileResponse(STATIC / "replay.html")',
        '    return FileResponse(STATIC / "game.html")',
        ("tests/web/test_browser.py", "tests/web/test_stored_games.py"),
    ),
    Mutation(
        "schedstat-runnable",
        "a program's thread waiting for a core is seen runnable",
        REFEREE + "schedstat.py",
        '.split()[0] == b"R"',
        '.split()[0] == b"S"',
        ("tests/referee/test_schedstat.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "watchdog-cgroups",
        "the watchdog is told each program's cgroup, to remove it if the referee dies",
        REFEREE + "watchdog.py",
        "        dirs = [] if cgroup is None else [str(Path(f).parent) for f in cgroup.join_files]",
        "        dirs: list[str] = []",
        ("tests/referee/test_watchdog.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "isolation-user",
        "--isolation user gives each program a uid of its own",
        REFEREE + "isolation.py",
        "        own_uid=have.own_uid and top >= _ORDER.index(Level.USER),",
        "        own_uid=have.own_uid and top > _ORDER.index(Level.USER),",
        ("tests/referee/test_isolation.py", "tests/referee/test_uids.py"),
    ),
    Mutation(
        "halma-camp-out",
        "a Halma side with pieces at home moves one out when it can",
        GAMES + "halma/rules.py",
        "        out = {a: every[a] & ~camp for a in at_home}",
        "        out = {a: every[a] for a in at_home}",
        ("tests/games/halma/test_rules.py", "tests/test_core.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
