"""An eighth fresh probe: 20 bugs in modules no earlier probe put a bug in (the referee
loop's take-back and its telling, the ``kit``, ``serve`` commands, the check-agent
positions, the checkers checks, the contest's export, log-in and password pages, its
database, the browser's move entry and errors, the compiled core's move lists and path
order, Chinese checkers' evaluation, a program's pipes, the PettingZoo wrapper, the
choice of core and the Halma program's ply count). Written before any test for them;
each is put in, tested and taken out.

    python scripts/mutate_eighth.py                  # every mutation
    python scripts/mutate_eighth.py takeback-seat    # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CSRC, GAMES, HOST, REFEREE, SRC, Mutation, main

MUTATIONS = (
    Mutation(
        "takeback-seat",
        "a take-back returns to before the asking seat's own last move",
        REFEREE + "match.py",
        "        if game.to_move(ply.state) == p:",
        "        if game.to_move(ply.state) != p:",
        ("tests/test_human.py", "tests/web/test_api.py"),
    ),
    Mutation(
        "told-after-end",
        "a seat that cannot be told a move after the game is over changes nothing",
        REFEREE + "match.py",
        "                if self.out is None:\n                    self.out = forfeit(q, e)\n",
        "                if True:\n                    self.out = forfeit(q, e)\n",
        ("tests/referee/test_scripted_protocols.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "kit-rules",
        "a kit written into a folder has the game's rules beside it",
        SRC + "cli/kit.py",
        "        if guide is not None and RULES not in files:",
        "        if guide is not None and RULES in files:",
        ("tests/test_kit_command.py",),
    ),
    Mutation(
        "serve-db-missing",
        "arbiter serve --db with no such file is refused, not made",
        SRC + "cli/serve.py",
        "        if not Path(args.db).is_file():",
        "        if Path(args.db).is_dir():",
        ("tests/test_mistakes.py", "tests/web/test_serve_process.py", "tests/test_cli.py"),
    ),
    Mutation(
        "probe-seed",
        "a prepared check's position is the same every time (seeded)",
        SRC + "contract/probes.py",
        "    rng = random.Random(seed)",
        "    rng = random.Random()",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "multi-jump-check",
        "the multi-jump check's position has a jump of two or more captures",
        GAMES + "checkers/probes.py",
        "any(len(m.captures) >= 2",
        "any(len(m.captures) >= 1",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "export-sources-played",
        "an export's sources are those of the versions that played",
        HOST + "export.py",
        "select(Version).where(Version.id.in_(played))",
        "select(Version)",
        ("tests/host/test_export.py",),
    ),
    Mutation(
        "export-failed-file",
        "a failed export offers no file",
        HOST + "export.py",
        '    if job.state != "done" or not job.file:',
        "    if not job.file:",
        ("tests/host/test_export.py", "tests/host/test_operations.py"),
    ),
    Mutation(
        "password-own-session",
        "a new password ends every other session but the one that set it",
        HOST + "routes/accounts.py",
        'keep=secret if isinstance(secret, str) else ""',
        'keep=""',
        ("tests/host/test_guards.py", "tests/host/test_contest.py", "tests/host/test_accounts.py"),
    ),
    Mutation(
        "login-wait-status",
        "a log-in refused for its delay is 429, a wrong password 401",
        HOST + "routes/accounts.py",
        '        status = 429 if "wait" in str(e) else 401',
        "        status = 401",
        ("tests/host/test_contest.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "sqlite-foreign-keys",
        "SQLite holds the contest's foreign keys",
        HOST + "db.py",
        'cursor.execute("PRAGMA foreign_keys=ON")',
        'cursor.execute("PRAGMA foreign_keys=OFF")',
        (
            "tests/host/test_keys_and_sessions.py",
            "tests/host/test_accounts.py",
            "tests/host/test_rounds.py",
            "tests/host/test_tallies.py",
        ),
    ),
    Mutation(
        "click-complete",
        "clicks are a complete move when they make a legal move",
        SRC + "web/routes/play.py",
        '"complete": found.move is not None',
        '"complete": not found.next',
        ("tests/web/test_api.py",),
    ),
    Mutation(
        "move-list-regrow",
        "a compiled move list too short for a position is grown and made again",
        CSRC + "lists.c",
        "        if (n <= m->cap) return n;",
        "        return n;",
        ("tests/test_core.py", "tests/agents/test_search_nodes.py"),
    ),
    Mutation(
        "path-order",
        "the compiled paths of many moves are sorted as Python sorts them",
        CSRC + "paths.h",
        "    return path_less(a, b) ? -1 : path_less(b, a) ? 1 : 0;",
        "    return path_less(a, b) ? 1 : path_less(b, a) ? -1 : 0;",
        ("tests/test_core.py", "tests/agents/test_search_nodes.py"),
    ),
    Mutation(
        "cc-trapped-target",
        "Chinese checkers' trapped marbles are the opponent's in this side's target",
        GAMES + "chinese_checkers/evaluate.py",
        "    target = HOMES[1 - p]",
        "    target = HOMES[p]",
        ("tests/test_core.py", "tests/games/chinese_checkers"),
    ),
    Mutation(
        "pipes-owner",
        "a program with a uid of its own owns all three of its pipes",
        REFEREE + "program_pipes.py",
        "            for pair in self._pairs():",
        "            for pair in self._pairs()[:1]:",
        ("tests/referee/test_program_world.py", "tests/referee/test_isolation.py"),
    ),
    Mutation(
        "env-wrapper",
        "envs.env gives PettingZoo's order-enforcing wrapper",
        SRC + "envs/__init__.py",
        "    return wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))",
        "    return raw_env(game, **kwargs)",
        ("tests/test_envs.py",),
    ),
    Mutation(
        "pure-zero",
        "ARBITER_PURE=0 leaves the compiled core in use",
        SRC + "core.py",
        'os.environ.get("ARBITER_PURE", "") not in ("", "0")',
        'os.environ.get("ARBITER_PURE", "") not in ("",)',
        ("tests/test_core.py", "tests/test_cli.py", "tests/test_layers.py"),
    ),
    Mutation(
        "web-mistake-status",
        "a mistake in a browser's request is a 400, not a server error",
        SRC + "web/app.py",
        "    return _error(400, str(e))",
        "    return _error(500, str(e))",
        ("tests/web/test_api.py", "tests/web/test_stored_games.py"),
    ),
    Mutation(
        "halma-game-plies",
        "a Halma program counts two plies a move over a GAME",
        GAMES + "halma/player.py",
        "    return 2 * moves + seat",
        "    return moves + seat",
        ("tests/games/halma/test_protocol.py", "tests/test_check_agent.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
