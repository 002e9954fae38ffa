# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""A nineteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 19 --each 5 --spares 3`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
and each got the one plausible bug below. Written before any test for them; each is
put in, tested and taken out.

The contract has three functions no probe used; its other draws are functions an
earlier probe used (``again``), each with a new bug, never the earlier one.

The draws, in order:

- contract: ``GameSpec.own_encoding``, ``HopChains.move_path``, ``split_command``,
  ``GameSpec.of_folder`` (again), ``Drops.move_path`` (again: passed over, its one
  line has no plausible bug left that is not an earlier probe's or practice set's),
  and the first spare, ``win_draw_loss`` (again);
- environments: ``Batch.step``, ``BoardEncoding.actions_of``, ``GameEnv._finish``,
  ``BoardEncoding.action``, ``Batch.init``;
- contest server: ``Token.key_id``, ``login_delays._name``, ``candidates._wdl``,
  ``Token.parse``, ``win_without_play``;
- C core: ``steps`` (checkers), ``line_sets`` (Votey), ``a_noisy`` (Alquerque),
  ``shape`` (Votey), ``a_evaluate`` (Alquerque).

Practice sets had put bugs in ``own_encoding``, ``HopChains.move_path``, ``_finish``,
``action``, ``init`` and ``steps``; the bugs here are none of theirs. A bug in the C
core is judged by its game's rules tests too.

    python scripts/mutate_nineteenth.py --suite                 # every mutation
    python scripts/mutate_nineteenth.py host-name-case-kept     # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import (
    BOARD_TESTS,
    CONTRACT_TESTS,
    CORE_TESTS,
    CSRC,
    ENVS_TESTS,
    HOST,
    SRC,
    TOY_TESTS,
    Mutation,
    main,
)

WORKERS = (
    "tests/host/test_worker_tokens.py",
    "tests/host/test_worker_unit.py",
    "tests/host/test_guards.py",
)

MUTATIONS = (
    Mutation(
        "contract-own-encoding-by-board",
        "a game's own encoding is looked for where it has a board",
        SRC + "contract/spec.py",
        "        return None if self.encoding is None else self.encoding()(rules)",
        "        return None if self.board is None else self.encoding()(rules)",
        (*ENVS_TESTS, *TOY_TESTS),
    ),
    Mutation(
        "contract-hop-path-no-origin",
        "a chain as played is drawn from its first landing",
        SRC + "contract/layout.py",
        "            return (m.origin, *m.hops)",
        "            return (*m.hops,)",
        (*BOARD_TESTS, "tests/games/halma/test_rules.py"),
    ),
    Mutation(
        "contract-blank-command-taken",
        "a command of blanks is not refused as empty",
        SRC + "contract/programs.py",
        '    if not argv:\n        raise ConfigError(f"invalid command {command!r}: it is empty")',
        '    if not command:\n        raise ConfigError(f"invalid command {command!r}: it is empty")',
        (*CONTRACT_TESTS, "tests/test_mistakes.py", "tests/test_bad_input.py"),
    ),
    Mutation(
        "contract-guide-dropped",
        "a game folder's guide for contestants is not found",
        SRC + "contract/spec.py",
        '            guide=folder / "contestants.md" if (folder / "contestants.md").is_file() else None,',
        "            guide=None,",
        (*CONTRACT_TESTS, *TOY_TESTS, "tests/host/test_about.py"),
    ),
    Mutation(
        "contract-plain-score-swapped",
        "the plain score is given seat by seat the wrong way round",
        SRC + "contract/spec.py",
        "    return outcome.points(0), outcome.points(1)",
        "    return outcome.points(1), outcome.points(0)",
        (*CONTRACT_TESTS, "src/arbiter/contract/spec.py", "tests/tournament/test_score.py"),
    ),
    Mutation(
        "envs-answer-before-step",
        "the engine answers before the learners' actions are played",
        SRC + "envs/batch.py",
        "        self._games.step(chosen)\n        self._answer()\n        return self._arrays",
        "        self._answer()\n        self._games.step(chosen)\n        return self._arrays",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-legs-reversed",
        "a move's actions are numbered from its last leg",
        SRC + "envs/encoding.py",
        "        return tuple(self.action(leg) for leg in self.legs(s, m))",
        "        return tuple(self.action(leg) for leg in reversed(self.legs(s, m)))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-winner-punished",
        "the winner is given -1 and the loser 1",
        SRC + "envs/aec.py",
        "                0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)",
        "                0.0 if outcome.winner is None else (1.0 if outcome.winner != seat else -1.0)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-action-rows-short",
        "a leg's number counts its start in rows one cell short",
        SRC + "envs/encoding.py",
        "        return leg[0] * self.cells + leg[1]",
        "        return leg[0] * (self.cells - 1) + leg[1]",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-answer-before-init",
        "the engine answers before the games are set up",
        SRC + "envs/batch.py",
        "        self._games.init()\n        self._answer()\n        return self._arrays",
        "        self._answer()\n        self._games.init()\n        return self._arrays",
        ENVS_TESTS,
    ),
    Mutation(
        "host-key-id-of-secret",
        "a worker is known by its secret, not its public key",
        HOST + "request_signing.py",
        "        return _b64(_public_raw(self.private.public_key()))",
        "        return _b64(self.seed)",
        WORKERS,
    ),
    Mutation(
        "host-name-case-kept",
        "failed log-ins are counted per name as typed, letter case and all",
        HOST + "login_delays.py",
        '    return "@" + name.lower()[: FIELD - 1]',
        '    return "@" + name[: FIELD - 1]',
        ("tests/host/test_accounts.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "host-wdl-draws-losses-swapped",
        "an evaluation's record lists its losses as draws and its draws as losses",
        HOST + "candidates.py",
        "    return scores.count(1.0), scores.count(0.5), scores.count(0.0)",
        "    return scores.count(1.0), scores.count(0.0), scores.count(0.5)",
        (
            "tests/host/test_candidates.py",
            "tests/host/test_marks_and_candidates.py",
            "tests/host/test_pages.py",
        ),
    ),
    Mutation(
        "host-token-seed-any-length",
        "a token's secret of any length is taken",
        HOST + "request_signing.py",
        "        if not contest or len(key) != 32 or len(seed) != 32:",
        "        if not contest or len(key) != 32 or not seed:",
        WORKERS,
    ),
    Mutation(
        "host-bye-worth-a-loss",
        "a game won without play is worth what its loser scores",
        HOST + "ranking.py",
        "    return spec.score(rules, rules.initial(), Outcome(0, Reason.FORFEIT))[0]",
        "    return spec.score(rules, rules.initial(), Outcome(0, Reason.FORFEIT))[1]",
        ("tests/host/test_ranking.py", "tests/host/test_rounds.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        "checkers-steps-through-own",
        "checkers' steps are blocked by the enemy's pieces only",
        CSRC + "checkers.c",
        "        for (unsigned dirs = step_dirs(s, p, cell, occupied); dirs; dirs &= dirs - 1) {",
        "        for (unsigned dirs = step_dirs(s, p, cell, s->p[1 - p]); dirs; dirs &= dirs - 1) {",
        (*CORE_TESTS, "tests/games/checkers/test_rules.py"),
    ),
    Mutation(
        "votey-line-sets-top-kept",
        "Votey's set of the fullest lines is not cleared before it is filled",
        CSRC + "votey.c",
        "        for (int k = 0; k <= top; k++) on[k] = 0;",
        "        for (int k = 0; k < top; k++) on[k] = 0;",
        (*CORE_TESTS, "tests/games/votey/test_rules.py"),
    ),
    Mutation(
        "alquerque-noisy-all-moves",
        "Alquerque's quiet search looks at every move, not captures alone",
        CSRC + "alquerque.c",
        "    return paths_finish(captures(vs), CODE, out, cap);\n}\n\nstatic void a_apply",
        "    return paths_finish(moves(vs), CODE, out, cap);\n}\n\nstatic void a_apply",
        (*CORE_TESTS, "tests/games/alquerque/test_rules.py"),
    ),
    Mutation(
        "votey-shape-centre-truncated",
        "Votey's centre of mass is rounded down, not to the nearest",
        CSRC + "votey.c",
        "    int cr = (2 * row_sum + n) / (2 * n), cc = (2 * col_sum + n) / (2 * n);",
        "    int cr = row_sum / n, cc = col_sum / n;",
        (*CORE_TESTS, "tests/games/votey/test_rules.py"),
    ),
    Mutation(
        "alquerque-pressure-mobility-swapped",
        "Alquerque's pressure reads each side's own mobility for the other's",
        CSRC + "alquerque.c",
        "    score += pressure(own, enemy, m1) - pressure(enemy, own, m0);",
        "    score += pressure(own, enemy, m0) - pressure(enemy, own, m1);",
        (*CORE_TESTS, "tests/games/alquerque/test_rules.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
