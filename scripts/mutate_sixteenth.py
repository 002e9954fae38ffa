"""A sixteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 16 --each 5 --spares 4`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out.

The draws, in order:

- contract: ``keep_move``, ``GameSpec.program_seat``, ``Program.from_command``,
  ``prepared``, ``Supervision.disk_limit``;
- environments: ``CompiledStepper.begin``, ``PythonGames.step``,
  ``PythonGames.__init__``, ``CompiledStepper.__init__``, ``Batch.random_actions``;
- contest server: ``play_page``, ``_Table.choice``, ``logout``, ``file_sha256``,
  ``register``;
- C core: ``over`` (Alquerque), ``Searcher_begin``, ``Searcher_dealloc``,
  ``codes_list``, ``enter`` (the batch).

No spare was needed. The draw came after the fifteenth probe's misses had their tests
and after the person's clock in games against entrants (``20e544b``); nothing was
written for these functions between the draw and this file.

    python scripts/mutate_sixteenth.py --suite             # every mutation
    python scripts/mutate_sixteenth.py host-sha-first-chunk  # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CONTRACT_TESTS, CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

WALLS = ("tests/referee/test_isolation.py", "tests/referee/test_program_world.py")
ACCOUNTS = ("tests/host/test_accounts.py", "tests/host/test_guards.py")

MUTATIONS = (
    Mutation(
        "contract-late-move-replaced",
        "a contest without clock rulings plays the first legal move for an engine out of time",
        SRC + "contract/spec.py",
        '    """The compliance of a contest with no clock rulings: the engine\'s move stands."""\n'
        "    return m\n",
        '    """The compliance of a contest with no clock rulings: the engine\'s move stands."""\n'
        "    return game.legal_moves(s)[0] if out_of_time else m\n",
        (*CONTRACT_TESTS, "tests/test_envs.py"),
    ),
    Mutation(
        "contract-seat-own-supervision",
        "a program's seat is watched as its game watches, whatever supervision is given",
        SRC + "contract/spec.py",
        "        return self.referee_side().program_seat(program, supervision=supervision)",
        "        return self.referee_side().program_seat(program, supervision=self.supervision)",
        (*CONTRACT_TESTS, *WALLS, "tests/host/test_versus.py"),
    ),
    Mutation(
        "contract-name-first-word",
        "a program made from a command is named by its executable",
        SRC + "contract/programs.py",
        '        return cls(argv, cwd, name or " ".join(argv), shown)',
        "        return cls(argv, cwd, name or argv[0], shown)",
        CONTRACT_TESTS,
    ),
    Mutation(
        "contract-prepared-seat-first",
        "a check from a prepared position gives the program the first seat",
        SRC + "contract/probes.py",
        "        Check(name, about, 0, start)\n",
        "        Check(name, about, seed % 2, start)\n",
        (*CONTRACT_TESTS, "tests/test_conformance.py"),
    ),
    Mutation(
        "contract-disk-kib",
        "a disk limit in megabytes is given in kibibytes",
        SRC + "contract/programs.py",
        "        return None if self.disk_limit_mb is None else int(self.disk_limit_mb * 2**20)",
        "        return None if self.disk_limit_mb is None else int(self.disk_limit_mb * 2**10)",
        (*CONTRACT_TESTS, *WALLS),
    ),
    Mutation(
        "envs-begin-keeps-last",
        "a compiled stepper begun on a new position keeps the last move of the old",
        SRC + "envs/stepping.py",
        "        self._position, self._last, self._moved = s, None, False\n"
        "        self._games.set(0, self._kernel.pack(s))",
        "        self._position = s\n        self._games.set(0, self._kernel.pack(s))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-terminated-carried",
        "a game restarted by itself stays terminated into the next step",
        SRC + "envs/batch.py",
        "            self.arrays.terminated[i] = self.over[i]\n",
        "",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-draws-shared",
        "every game of a Python batch draws from the first game's generator",
        SRC + "envs/batch.py",
        "        self.draws = [(draws_base(seed, i), 0) for i in range(n)]",
        "        self.draws = [(draws_base(seed, 0), 0) for i in range(n)]",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-mask-copied",
        "the compiled stepper keeps a copy of the batch's mask, not a view of it",
        SRC + "envs/stepping.py",
        "self._arrays.legal_action_mask[0].view(np.int8)",
        "self._arrays.legal_action_mask[0].copy().view(np.int8)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-random-clipped",
        "a finished game's random action is clipped to 0",
        SRC + "envs/batch.py",
        "        self._games.random(out)\n        return out",
        "        self._games.random(out)\n        return np.maximum(out, 0)",
        ENVS_TESTS,
    ),
    Mutation(
        "host-play-page-no-token",
        "the board page against an entrant carries no CSRF token",
        HOST + "routes/versus.py",
        '    return HTMLResponse(headed_page("game.html", host.config.name, meta))',
        '    return HTMLResponse(headed_page("game.html", host.config.name, ""))',
        ("tests/host/test_guards.py", "tests/host/test_versus.py"),
    ),
    Mutation(
        "host-choice-any-case",
        "a contest file's choice is matched in any case and kept as written",
        HOST + "config.py",
        "        value = self.text(key, default)\n        if value not in options:",
        "        value = self.text(key, default)\n        if value.lower() not in options:",
        ("tests/host/test_config.py",),
    ),
    Mutation(
        "host-logout-unchecked",
        "signing out takes no CSRF token (nothing to steal)",
        HOST + "routes/accounts.py",
        '@router.post("/logout", dependencies=[Checked])',
        '@router.post("/logout")',
        (*ACCOUNTS, "tests/host/test_keys_and_sessions.py"),
    ),
    Mutation(
        "host-sha-first-chunk",
        "a stored program's hash covers its first mebibyte",
        HOST + "programs.py",
        "        while chunk := f.read(1 << 20):\n            digest.update(chunk)",
        "        if chunk := f.read(1 << 20):\n            digest.update(chunk)",
        ("tests/host/test_programs.py", "tests/host/test_build.py", "tests/host/test_workers.py"),
    ),
    Mutation(
        "host-used-code-taken",
        "an invitation code is refused only when unknown",
        HOST + "accounts.py",
        "        if invitation is None or invitation.used_by is not None:",
        "        if invitation is None:",
        ACCOUNTS,
    ),
    Mutation(
        "alquerque-tie-ply-late",
        "the compiled Alquerque game goes on at the tie's ply",
        CSRC + "alquerque.c",
        "    return !s->p[s->to_move] || s->ply >= end;",
        "    return !s->p[s->to_move] || s->ply > end;",
        CORE_TESTS,
    ),
    Mutation(
        "search-halt-kept",
        "a search halted once stays halted for the next move",
        CSRC + "search.c",
        "    S->next_check = 0;\n    S->halted = 0;\n",
        "    S->next_check = 0;\n",
        (*CORE_TESTS, "tests/agents/test_deadlines.py", "tests/agents/test_agents.py"),
    ),
    Mutation(
        "search-table-kept",
        "a searcher's table is not freed with it",
        CSRC + "search.c",
        "    PyMem_RawFree(S->table);\n",
        "",
        CORE_TESTS,
    ),
    Mutation(
        "codes-32-bits",
        "a move's code handed to Python is cut to 32 bits",
        CSRC + "glue.c",
        "PyLong_FromUnsignedLongLong(moves[i])",
        "PyLong_FromUnsignedLongLong((uint32_t)moves[i])",
        CORE_TESTS,
    ),
    Mutation(
        "batch-reward-other-seat",
        "a game the batch finds over is scored from the other side",
        CSRC + "envs.c",
        "        reward(B, i, vt->to_move(s), g->over);\n        return 1;",
        "        reward(B, i, 1 - vt->to_move(s), g->over);\n        return 1;",
        ENVS_TESTS,
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
