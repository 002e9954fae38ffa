"""A fifteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 15 --each 5 --spares 4`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out.

The draws, in order:

- contract: ``HopChains._leads_to``, ``two_sides``, ``keep_outcome``,
  ``WholePaths.continuations``, ``HopChains._chained``;
- environments: ``PythonStepper.act``, ``GameEnv._illegal``, ``PythonStepper.mask``,
  ``PythonGames._draw``, ``Batch._position``;
- contest server: ``listing._cut``, ``irregular_games``, ``Language.commands``,
  ``unrate``, ``export._progress``;
- C core: ``bor`` (Halma), ``moves_from`` (Votey), ``py_perft``, ``step_game`` (the
  batch), ``quiesce`` (the search).

No spare was needed. The draw came after two practice sets (``practice_contract.py``,
``practice_host.py``) and the tests their misses asked for; ``keep_outcome`` had a
test of its own from that work, committed before the draw. The bugs below are new
ones, none of either practice set.

    python scripts/mutate_fifteenth.py --suite           # every mutation
    python scripts/mutate_fifteenth.py host-cut-exact-page # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CORE = (*CORE_TESTS, "tests/test_perft_files.py")
CONTRACT = ("tests/test_contract.py", "tests/web/test_api.py", "tests/test_envs.py")

MUTATIONS = (
    Mutation(
        "contract-landing-not-an-end",
        "a hop's landing that is itself where the move may end is offered",
        SRC + "contract/layout.py",
        "            if at in ends:\n                return True",
        "            if at in ends and at != land:\n                return True",
        CONTRACT,
    ),
    Mutation(
        "contract-two-sides-swapped",
        "each seat's pieces are shown as its own",
        SRC + "contract/layout.py",
        "    return {str(c): str(p) for p in (0, 1) for c in bits(s.pieces[p])}",
        "    return {str(c): str(1 - p) for p in (0, 1) for c in bits(s.pieces[p])}",
        CONTRACT,
    ),
    Mutation(
        "contract-draw-not-kept",
        "a contest without clock rulings keeps every outcome the rules give",
        SRC + "contract/spec.py",
        "    return ended\n",
        "    return ended if ended is None or ended.winner is not None else None\n",
        ("tests/test_contract.py", "tests/test_cli.py", "tests/games/alquerque/test_protocol.py"),
    ),
    Mutation(
        "contract-last-click-only",
        "a move's clicks are matched from the first, not by the last alone",
        SRC + "contract/layout.py",
        "            if tuple(p[:n]) != tuple(clicks):",
        "            if n and (len(p) < n or p[n - 1] != clicks[-1]):",
        CONTRACT,
    ),
    Mutation(
        "contract-first-hop-unchecked",
        "every click after the first is a hop on from the one before, the first hop too",
        SRC + "contract/layout.py",
        "itertools.pairwise(clicks))",
        "itertools.pairwise(clicks[1:]))",
        CONTRACT,
    ),
    Mutation(
        "envs-leg-taken-for-a-move",
        "an action ends a move only where the move has no action after it",
        SRC + "envs/stepping.py",
        "        done = [m for acts, m in self._moves if len(acts) == k + 1]",
        "        done = [m for acts, m in self._moves if len(acts) >= k + 1]",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-illegal-rewards-offender",
        "an illegal action loses the game for the side that played it",
        SRC + "envs/aec.py",
        "        self._finish(Outcome(1 - seat, Reason.ILLEGAL_MOVE, why), (seat, why))",
        "        self._finish(Outcome(seat, Reason.ILLEGAL_MOVE, why), (seat, why))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-mask-first-actions",
        "the mask holds the actions that may follow those played",
        SRC + "envs/stepping.py",
        "            out[list(self._next)] = 1",
        "            out[[acts[0] for acts, _ in self._moves]] = 1",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-draw-not-advanced",
        "each game's generator moves on with every draw",
        SRC + "envs/batch.py",
        "        self.draws[i] = (base, j + 1)",
        "        self.draws[i] = (base, j)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-position-before",
        "the engine answers from the game's position as it stands",
        SRC + "envs/batch.py",
        "        return unpack(self._games.state(i))  # type: ignore[no-any-return]",
        "        return unpack(self._games.before(i))  # type: ignore[no-any-return]",
        ENVS_TESTS,
    ),
    Mutation(
        "host-cut-exact-page",
        "a page holding exactly the last games links to no older page",
        HOST + "listing.py",
        "    more = len(ordered) > size",
        "    more = len(ordered) >= size",
        ("tests/host/test_pages.py", "tests/host/test_contest.py", "tests/host/test_tallies.py"),
    ),
    Mutation(
        "host-irregular-winners-version",
        "an entrant's games lost by a fault name its own version",
        HOST + "rounds.py",
        "case((Game.winner == 0, Game.second_id), else_=Game.first_id)",
        "case((Game.winner == 0, Game.first_id), else_=Game.second_id)",
        (
            "tests/host/test_rounds.py",
            "tests/host/test_tallies.py",
            "tests/host/test_operations.py",
        ),
    ),
    Mutation(
        "host-run-command-unfilled",
        "a language's run command has its placeholders filled in",
        HOST + "languages.py",
        "fill(self.compile), fill(self.run)",
        "fill(self.compile), self.run",
        ("tests/host/test_config.py", "tests/host/test_kits.py", "tests/host/test_about.py"),
    ),
    Mutation(
        "host-unrate-keeps-mark",
        "a round played again is rated again",
        HOST + "ratings.py",
        "    rnd.rated = None\n",
        "",
        ("tests/host/test_settle.py", "tests/host/test_ranking.py", "tests/host/test_plot.py"),
    ),
    Mutation(
        "host-progress-every-job",
        "an export's progress is its own",
        HOST + "export.py",
        "update(ExportJob).where(ExportJob.id == job.id).values(done=done)",
        "update(ExportJob).values(done=done)",
        ("tests/host/test_export.py", "tests/host/test_coordination.py"),
    ),
    Mutation(
        "halma-bor-three-words",
        "a union of two boards holds every cell of both",
        CSRC + "halma.c",
        "for (int i = 0; i < 4; i++) a.w[i] |= b.w[i];",
        "for (int i = 0; i < 3; i++) a.w[i] |= b.w[i];",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "votey-own-pieces-block",
        "a move may pass over its own pieces, not the enemy's",
        CSRC + "votey.c",
        "!(BETWEEN[cell][d][k] & enemy)) {",
        "!(BETWEEN[cell][d][k] & occupied)) {",
        (*CORE, *ENVS_TESTS),
    ),
    Mutation(
        "perft-most-refused",
        "perft to its greatest depth is counted",
        CSRC + "module.c",
        "    if (depth > PERFT_MOST) {",
        "    if (depth >= PERFT_MOST) {",
        CORE,
    ),
    Mutation(
        "batch-reset-unreported",
        "a game that ends and begins again by itself is reported ended",
        CSRC + "envs.c",
        "        ((uint8_t *)B->terminated.buf)[i] = 1; /* the end is reported",
        "        ((uint8_t *)B->terminated.buf)[i] = 0; /* the end is reported",
        ENVS_TESTS,
    ),
    Mutation(
        "quiesce-cut-late",
        "quiescence stops at the first move that reaches beta",
        CSRC + "search.c",
        "                alpha = score;\n                if (alpha >= beta) break;",
        "                alpha = score;\n                if (alpha > beta) break;",
        CORE,
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
