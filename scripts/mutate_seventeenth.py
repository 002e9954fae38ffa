# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""A seventeenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 17 --each 5 --spares 4`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out.

The draws, in order:

- contract: ``AgentRun.reply``, ``Program.label``, ``prepared``,
  ``Supervision.memory_limit``, ``GameSpec.board_view``;
- environments: ``PythonGames._end``, ``GameEnv.actions_of``, ``gym_env``,
  ``PythonGames.waiting``, ``BoardEncoding.shape``;
- contest server: ``_waiting`` (the game page), ``News.next``, ``_Table.strings``,
  ``Worker._fail``, ``archive._write``;
- C core: ``write_obs`` (the batch), ``h_count`` (Halma), ``by_count`` (checkers),
  ``a_squares`` (Alquerque), ``hops_from`` (Halma).

No spare was needed. The draw came right after the practice
set ``practice_mixed.py`` (seed 1601), whose draw shares five of these functions
(``AgentRun.reply``, ``Program.label``, ``prepared``, ``PythonGames._end``,
``PythonGames.waiting``); the bugs here are none of the practice set's.

    python scripts/mutate_seventeenth.py --suite            # every mutation
    python scripts/mutate_seventeenth.py host-news-cancelled  # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CONTRACT_TESTS, CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

FAULTS = ("tests/referee/test_faults.py", "tests/referee/test_votey_faults.py")
WALLS = ("tests/referee/test_isolation.py", "tests/referee/test_program_world.py")
WEB = ("tests/web/test_api.py", "tests/host/test_pages.py", "tests/host/test_events.py")

MUTATIONS = (
    Mutation(
        "contract-empty-garbage-kept",
        "a faulty engine's empty reply falls back to its move",
        SRC + "contract/spec.py",
        "        return text if self.reply_filter is None else self.reply_filter(text)",
        "        return text if self.reply_filter is None else self.reply_filter(text) or text",
        (*CONTRACT_TESTS, *FAULTS),
    ),
    Mutation(
        "contract-label-executable",
        "a program without a name is shown by its executable alone",
        SRC + "contract/programs.py",
        '        return self.name or " ".join(self.argv)',
        "        return self.name or self.argv[0]",
        CONTRACT_TESTS,
    ),
    Mutation(
        "contract-prepared-name-about",
        "a prepared check's name and its words change places",
        SRC + "contract/probes.py",
        "            checks.append(Check(name, about, seat, start))",
        "            checks.append(Check(about, name, seat, start))",
        CONTRACT_TESTS,
    ),
    Mutation(
        "contract-memory-megabytes",
        "a memory limit in megabytes is given in millions of bytes",
        SRC + "contract/programs.py",
        "        return None if self.memory_limit_mb is None else int(self.memory_limit_mb * 2**20)",
        "        return None if self.memory_limit_mb is None else int(self.memory_limit_mb * 10**6)",
        (*CONTRACT_TESTS, *WALLS),
    ),
    Mutation(
        "contract-no-board-lookup",
        "a game without a board is refused with a lookup error",
        SRC + "contract/spec.py",
        '            raise ConfigError(f"{self.name} has no board for the browser")',
        '            raise LookupError(f"{self.name} has no board for the browser")',
        (*CONTRACT_TESTS, "tests/web/test_api.py", "tests/test_envs.py"),
    ),
    Mutation(
        "envs-end-not-terminated",
        "a Python batch's game ends without its terminated flag",
        SRC + "envs/batch.py",
        "        self.over[i] = True\n        self.arrays.terminated[i] = True\n        if winner is not None:",
        "        self.over[i] = True\n        if winner is not None:",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-actions-reversed",
        "a move's actions are given last leg first",
        SRC + "envs/aec.py",
        "        return list(self.encoding.actions_of(self.position, m))",
        "        return list(reversed(self.encoding.actions_of(self.position, m)))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-gym-options-dropped",
        "the Gymnasium environment ignores its keywords",
        SRC + "envs/__init__.py",
        "    return SingleAgentEnv(game, **kwargs)",
        "    return SingleAgentEnv(game)",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-waiting-other-seat",
        "the games waiting for a seat are those where the other is to move",
        SRC + "envs/batch.py",
        "        return [i for i, g in enumerate(self.games) if not self.over[i] and g.to_move() == seat]",
        "        return [i for i, g in enumerate(self.games) if not self.over[i] and g.to_move() != seat]",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-shape-transposed",
        "an observation is columns by rows",
        SRC + "envs/encoding.py",
        "        return (self.grid.rows, self.grid.columns, len(CHANNELS))",
        "        return (self.grid.columns, self.grid.rows, len(CHANNELS))",
        ENVS_TESTS,
    ),
    Mutation(
        "host-worker-unnamed",
        "a game being played does not say by which worker",
        HOST + "routes/public.py",
        "        return f\"being played by {game.worker or 'a worker'}\"",
        '        return "being played by a worker"',
        (*WEB, "tests/host/test_contest.py"),
    ),
    Mutation(
        "host-news-cancelled",
        "the next news is a new future only once the last was posted",
        HOST + "service.py",
        "        if self._next is None or self._next.done():",
        "        if self._next is None:",
        (
            "tests/host/test_events.py",
            "tests/host/test_stream_slots.py",
            "tests/host/test_contest.py",
        ),
    ),
    Mutation(
        "host-strings-any-list",
        "a setting of strings takes any list",
        HOST + "config.py",
        "        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):",
        "        if not isinstance(value, list):",
        ("tests/host/test_config.py",),
    ),
    Mutation(
        "host-failure-no-culprit",
        "a worker's failure report names no culprit",
        HOST + "worker.py",
        "        body = FailureBody(lease=job.lease, reason=why[:2000], culprit=culprit)",
        "        body = FailureBody(lease=job.lease, reason=why[:2000], culprit=None)",
        (
            "tests/host/test_worker_unit.py",
            "tests/host/test_workers.py",
            "tests/host/test_queue.py",
        ),
    ),
    Mutation(
        "host-every-file-executable",
        "every file an archive holds is written executable",
        HOST + "archive.py",
        "        fd = os.open(target, flags, 0o755 if executable else 0o644)",
        "        fd = os.open(target, flags, 0o755)",
        ("tests/host/test_archive.py", "tests/host/test_build.py"),
    ),
    Mutation(
        "batch-path-last-unmarked",
        "a move under way shows its cells but the last",
        CSRC + "envs.c",
        "    for (int j = 0; g->k && j <= g->k; j++) out[B->place[g->played[j]] + PATH] = 1;",
        "    for (int j = 0; g->k && j < g->k; j++) out[B->place[g->played[j]] + PATH] = 1;",
        ENVS_TESTS,
    ),
    Mutation(
        "halma-count-decided",
        "a decided Halma position's moves are counted",
        CSRC + "halma.c",
        "static int h_count(const void *vs) {\n    const HState *s = vs;\n    if (decided(s) != OUT_NONE) return 0;\n",
        "static int h_count(const void *vs) {\n    const HState *s = vs;\n",
        CORE_TESTS,
    ),
    Mutation(
        "checkers-plain-draws-ignored",
        "a game the plain-draw option decides by count is won on material",
        CSRC + "checkers.c",
        "    if (s->plain_draws || red == white) return OUT_DRAW;",
        "    if (red == white) return OUT_DRAW;",
        CORE_TESTS,
    ),
    Mutation(
        "alquerque-squares-short",
        "Alquerque's last square is never shown",
        CSRC + "alquerque.c",
        "    for (int c = 0; c < 49; c++)\n        out[c] =",
        "    for (int c = 0; c < 48; c++)\n        out[c] =",
        ENVS_TESTS,
    ),
    Mutation(
        "halma-hops-six-ways",
        "Halma's hop chains look along six directions",
        CSRC + "halma.c",
        "        for (int d = 0; d < 8; d++) {\n            if (!((t->open[d].w[w] >> bit) & 1)) continue;",
        "        for (int d = 0; d < 6; d++) {\n            if (!((t->open[d].w[w] >> bit) & 1)) continue;",
        CORE_TESTS,
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
