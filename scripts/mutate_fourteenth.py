"""A fourteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 14 --each 5 --spares 4`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out.

The draws, in order:

- contract: ``HopChains.__init__``, ``Loader.__call__``, ``GameSpec.probe_checks``,
  ``GameSpec.__post_init__``, ``win_draw_loss``;
- environments: ``PythonStepper._enter``, ``GameEnv.last_move``, ``env_id``, ``batch``,
  ``PythonGames.init``;
- contest server: ``contest_supervision``, ``tidy_builds``, ``export.write``,
  ``pairing._matching``, ``Token.make``;
- C core: ``c_path`` (checkers), ``pop128`` and ``low128`` (Chinese checkers),
  ``mobility`` (Votey), ``Batch_play``.

No spare was needed. The contract has only 27 functions a probe may still draw, and
before this draw every one of them had been exercised by a practice set of mutants
kept outside ``scripts/`` (so as not to take them out of the draw); the bugs below are
new ones, none of that set.

    python scripts/mutate_fourteenth.py --suite              # every mutation
    python scripts/mutate_fourteenth.py contract-loader-cache # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CORE = (*CORE_TESTS, "tests/test_perft_files.py")

MUTATIONS = (
    Mutation(
        "contract-hops-cached",
        "a piece's single hops are worked out in the position asked about",
        SRC + "contract/layout.py",
        "        self.hops = hops\n        self.make = make\n        self.neighbours = neighbours",
        "        cache: dict[tuple[int, int], set[int]] = {}\n"
        "        self.hops = lambda s, start, at: (\n"
        "            cache.setdefault((start, at), hops(s, start, at))\n"
        "        )\n"
        "        self.make = make\n        self.neighbours = neighbours",
        ("tests/web/test_api.py", "tests/test_contract.py", "tests/test_envs.py"),
    ),
    Mutation(
        "contract-loader-cache",
        "each game's part is loaded from its own module",
        SRC + "contract/spec.py",
        "    def __call__(self) -> Any:\n"
        "        found = importlib.import_module(self.module)\n"
        "        return found if self.name is None else getattr(found, self.name)",
        "    def __call__(self) -> Any:\n"
        "        if self.name is not None and self.name in _LOADED:\n"
        "            return _LOADED[self.name]\n"
        "        found = importlib.import_module(self.module)\n"
        "        if self.name is None:\n"
        "            return found\n"
        "        return _LOADED.setdefault(self.name, getattr(found, self.name))\n\n\n"
        "_LOADED: dict[str, Any] = {}",
        ("tests/web/test_api.py", "tests/test_contract.py", "tests/test_envs.py"),
    ),
    Mutation(
        "contract-probes-last-dropped",
        "check-agent runs every probe its game declares",
        SRC + "contract/spec.py",
        "        return [] if self.probes is None else self.probes()(self)",
        "        return [] if self.probes is None else self.probes()(self)[:-1]",
        ("tests/test_check_agent.py", "tests/test_contract.py"),
    ),
    Mutation(
        "contract-endings-by-text",
        "two endings of one game may not share a name",
        SRC + "contract/spec.py",
        "        names = [e.name for e in self.endings]",
        "        names = [e.text for e in self.endings]",
        ("tests/test_drop_game.py", "tests/test_contract.py"),
    ),
    Mutation(
        "contract-score-seats-swapped",
        "the plain score gives each seat its own points",
        SRC + "contract/spec.py",
        "    return outcome.points(0), outcome.points(1)",
        "    return outcome.points(1), outcome.points(0)",
        ("tests/test_cli.py", "tests/tournament/", "tests/play/"),
    ),
    Mutation(
        "envs-ended-by-moves",
        "a position the rules decided is over though moves are left",
        SRC + "envs/stepping.py",
        "        self._ended = self.rules.outcome(s) is not None\n"
        "        legal = [] if self._ended else self.rules.legal_moves(s)",
        "        legal = self.rules.legal_moves(s)\n        self._ended = not legal",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-last-move-hidden-at-end",
        "the last move stays known when it ends the game",
        SRC + "envs/aec.py",
        "        return self._step.last_move\n",
        "        return self._step.last_move if self.outcome is None else None\n",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-id-version",
        "a game's Gymnasium id carries the environments' version",
        SRC + "envs/registration.py",
        '    return f"{NAMESPACE}/{env_name(game)}-v{VERSION}"',
        '    return f"{NAMESPACE}/{env_name(game)}-v{VERSION + 1}"',
        ENVS_TESTS,
    ),
    Mutation(
        "envs-batch-of-none",
        "a batch of no games is refused",
        SRC + "envs/batch.py",
        "    return Batch(game, n, **kwargs)",
        "    return Batch(game, max(n, 1), **kwargs)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-init-rewards-kept",
        "a batch begun again gives no rewards",
        SRC + "envs/batch.py",
        "    def init(self) -> None:\n        self.arrays.rewards[:] = 0\n",
        "    def init(self) -> None:\n",
        ENVS_TESTS,
    ),
    Mutation(
        "host-supervision-disk-memory",
        "a contest's programs may write its disk limit",
        HOST + "config.py",
        "        disk_limit_mb=float(disk_mb),",
        "        disk_limit_mb=float(memory_mb),",
        (
            "tests/host/test_config.py",
            "tests/host/test_about.py",
            "tests/host/test_worker_unit.py",
            "tests/host/test_contest.py",
        ),
    ),
    Mutation(
        "host-tidy-unpacked-deleted",
        "an accepted build that could not be packed is kept",
        HOST + "intake.py",
        "            except ProgramError:\n                continue",
        "            except ProgramError:\n                pass",
        ("tests/host/test_programs.py",),
    ),
    Mutation(
        "host-export-readable",
        "an export is its owner's alone until it is served",
        HOST + "export.py",
        "        partial.chmod(0o600)\n",
        "",
        ("tests/host/test_export.py", "tests/host/test_private.py"),
    ),
    Mutation(
        "host-matching-weight-only",
        "a Swiss round pairs as many entrants as it can",
        HOST + "pairing.py",
        "max_cardinality=True",
        "max_cardinality=False",
        ("tests/host/test_pairing.py", "tests/host/test_rounds.py"),
    ),
    Mutation(
        "host-token-short-seed",
        "a worker's token carries a 32-byte secret",
        HOST + "request_signing.py",
        "        return cls(contest, contest_key, secrets.token_bytes(32))",
        "        return cls(contest, contest_key, secrets.token_bytes(16))",
        ("tests/host/test_worker_tokens.py", "tests/host/test_worker_unit.py"),
    ),
    Mutation(
        "checkers-path-step-bits",
        "a checkers step's path ends where the step goes",
        CSRC + "checkers.c",
        "        out[1] = (uint8_t)STEP[cell][(m >> 9) & 3];",
        "        out[1] = (uint8_t)STEP[cell][(m >> 10) & 3];",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "cc-pop128-shift",
        "a 128-bit count counts the high word's bits",
        CSRC + "chinese_checkers.c",
        "__builtin_popcountll((uint64_t)(b >> 64))",
        "__builtin_popcountll((uint64_t)(b >> 63))",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "votey-mobility-captures-as-moves",
        "Votey's mobility weighs captures apart from moves",
        CSRC + "votey.c",
        "    return W_MOBILITY * m + W_CAPTURE * c;",
        "    return W_MOBILITY * (m + c);",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "batch-play-unchecked-index",
        "play(i, action) refuses a game not in the batch",
        CSRC + "envs.c",
        '    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "play(i, action)");\n'
        "    if (!index_arg(B, args[0], &i)) return NULL;",
        '    if (nargs != 2) return PyErr_Format(PyExc_TypeError, "play(i, action)");\n'
        "    i = PyLong_AsSsize_t(args[0]);\n"
        "    if (i == -1 && PyErr_Occurred()) return NULL;",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "cc-low128-offset",
        "the lowest set bit of a 128-bit set in its high word is numbered from 64",
        CSRC + "chinese_checkers.c",
        "    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));",
        "    return lo ? __builtin_ctzll(lo) : __builtin_ctzll((uint64_t)(b >> 64));",
        (*CORE, *ENVS_TESTS),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
