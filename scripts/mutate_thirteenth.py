"""A thirteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 13 --each 5 --spares 4`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out.

The draws, in order, and what became of them:

- contract: ``windows_line_ends``, ``compulsory_captures``, ``RuleOption.flag``,
  ``GameSpec.serve``, ``GameSpec.declared``;
- environments: ``GameEnv.observe``, ``CompiledStepper.position``, ``Batch.compiled``,
  ``Arrays.zeros``, ``SingleAgentEnv.__init__``;
- contest server: ``sign_out``, ``void_games``, ``LogIn.__call__``, ``process_name``,
  ``from_dict``;
- C core: ``c_evaluate`` and ``checkers_init`` (checkers), ``Batch_dealloc``,
  ``perft``, ``py_apply``.

No spare was needed. (A first draw, before ``draw_sites.py`` left out a protocol's
stubs, fell on five functions with nothing to break; the draw above is the same seed
without them.)

    python scripts/mutate_thirteenth.py --suite              # every mutation
    python scripts/mutate_thirteenth.py contract-flag-dashes # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CORE = (*CORE_TESTS, "tests/games/checkers/")

MUTATIONS = (
    Mutation(
        "contract-crlf-splitlines",
        "a #! line ending in a carriage return is named as Windows line ends",
        SRC + "contract/programs.py",
        '    first = head.split(b"\\n", 1)[0]',
        '    first = (head.splitlines() or [b""])[0]',
        ("tests/test_mistakes.py", "tests/test_contract.py", "tests/referee/"),
    ),
    Mutation(
        "contract-compulsory-no-moves",
        "a position without moves compels nothing",
        SRC + "contract/layout.py",
        '"a capture is compulsory" if legal and all(m.captures for m in legal) else None',
        '"a capture is compulsory" if all(m.captures for m in legal) else None',
        ("tests/web/", "tests/test_contract.py", "tests/games/"),
    ),
    Mutation(
        "contract-flag-dashes",
        "a rule option's flag is its name with dashes",
        SRC + "contract/spec.py",
        '        return "--" + self.name.replace("_", "-")',
        '        return "--" + self.name',
        ("tests/test_cli.py", "tests/test_mistakes.py", "tests/test_contract.py"),
    ),
    Mutation(
        "contract-serve-args",
        "a contest program is served the arguments it was started with",
        SRC + "contract/spec.py",
        "        return self.player_side().serve(agent, game, args, run)",
        "        return self.player_side().serve(agent, game, args[1:], run)",
        (
            "tests/test_cli.py",
            "tests/test_check_agent.py",
            "tests/games/",
            "tests/test_drop_game.py",
        ),
    ),
    Mutation(
        "contract-declared-detail",
        "a game's own ending read back keeps its detail",
        SRC + "contract/spec.py",
        "                return Outcome(outcome.winner, ending, outcome.detail)",
        '                return Outcome(outcome.winner, ending, "")',
        ("tests/test_drop_game.py", "tests/test_record.py", "tests/test_contract.py"),
    ),
    Mutation(
        "envs-observe-finished-mask",
        "an agent whose game is over is allowed no action",
        SRC + "envs/aec.py",
        "        to_act = agent == self.agent_selection and self.outcome is None",
        "        to_act = agent == self.agent_selection",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-position-before",
        "the compiled stepper's position is the one after the last move",
        SRC + "envs/stepping.py",
        "            self._position = self._kernel.unpack(self._games.state(0))",
        "            self._position = self._kernel.unpack(self._games.before(0))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-compiled-flag",
        "a batch says whether it steps on the compiled core",
        SRC + "envs/batch.py",
        "        return not isinstance(self._games, PythonGames)",
        "        return isinstance(self._games, PythonGames)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-mask-dtype",
        "a batch's action mask is booleans, as pgx's",
        SRC + "envs/kernel.py",
        "            np.zeros((n, actions), np.bool_),",
        "            np.zeros((n, actions), np.int8),",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-single-seat",
        "the Gymnasium learner holds the seat it asked for",
        SRC + "envs/single.py",
        "        self.me = AGENTS[seat]",
        "        self.me = AGENTS[0]",
        ENVS_TESTS,
    ),
    Mutation(
        "host-sign-out-kept",
        "signing out ends the session on the server too",
        HOST + "deps.py",
        "        sessions.end(s, secret)\n        s.commit()",
        "        sessions.end(s, secret)",
        ("tests/host/test_guards.py", "tests/host/test_keys_and_sessions.py"),
    ),
    Mutation(
        "host-void-count-all",
        "the games set aside are counted among themselves",
        HOST + "listing.py",
        'total = session.scalar(select(func.count(Game.id)).where(Game.state == "void")) or 0',
        "total = session.scalar(select(func.count(Game.id))) or 0",
        ("tests/host/test_pages.py", "tests/host/test_operations.py", "tests/host/test_settle.py"),
    ),
    Mutation(
        "host-login-success-forgets",
        "a right password forgets the address's failures at that name",
        HOST + "accounts.py",
        "        self.delays.succeeded(session, name, address)\n",
        "",
        ("tests/host/test_accounts.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "host-process-name-reused",
        "a server process's name is new each time, its id used again or not",
        HOST + "service.py",
        'return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"',
        'return f"{socket.gethostname()[:40]}-{os.getpid()}"',
        ("tests/host/test_coordination.py", "tests/host/test_processes.py"),
    ),
    Mutation(
        "host-config-unknown-kept",
        "a contest file's unknown setting is refused by name",
        HOST + "config.py",
        "    top.done()\n    return config\n",
        "    return config\n",
        ("tests/host/test_config.py",),
    ),
    Mutation(
        "checkers-mobility-bracket",
        "the compiled checkers evaluation weighs both sides' mobility alike",
        CSRC + "checkers.c",
        "W_MOBILITY * (mobility(s, p) - mobility(s, 1 - p))",
        "W_MOBILITY * mobility(s, p) - mobility(s, 1 - p)",
        CORE,
    ),
    Mutation(
        "checkers-cone-narrow",
        "a man's runaway cone widens a column each side per row",
        CSRC + "checkers.c",
        "iabs(COL[c] - COL[cell]) <= dr + 1) m |= 1u << c;",
        "iabs(COL[c] - COL[cell]) <= dr) m |= 1u << c;",
        CORE,
    ),
    Mutation(
        "batch-buffer-kept",
        "a batch freed lets go of every array it wrote into",
        CSRC + "envs.c",
        "for (int v = 0; v < B->views; v++) PyBuffer_Release(views[v]);",
        "for (int v = 0; v < B->views - 1; v++) PyBuffer_Release(views[v]);",
        ENVS_TESTS,
    ),
    Mutation(
        "perft-shared-list",
        "each ply of the compiled perft lists its moves apart",
        CSRC + "module.c",
        "perft(vt, child, depth - 1, lists + 1);",
        "perft(vt, child, depth - 1, lists);",
        CORE,
    ),
    Mutation(
        "apply-unset-bytes",
        "a position the compiled apply returns has no stray bytes",
        CSRC + "module.c",
        "    memset(out, 0, sizeof out);\n    vt->apply(s, m, out);",
        "    vt->apply(s, m, out);",
        (*CORE, *ENVS_TESTS),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
