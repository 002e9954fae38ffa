"""A tenth fresh probe: 20 bugs in places no earlier probe put a bug in: the kept
tallies and their fault counts, a worker's signed call and its download, an upload's
language, the contest file's calendar, the frozen standings, the operations view,
the live streams' bound, a contestant's public pages and records, the Gymnasium
environment's reward and the observation's path, a program's checks and its wall
backstop, the compiled Votey and Alquerque kernels, the Python Alquerque kit and
checkers' jumps. Written before any test for them; each is put in, tested and taken
out.

    python scripts/mutate_tenth.py --suite                 # every mutation
    python scripts/mutate_tenth.py tallies-faults-seat     # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CSRC, GAMES, HOST, SRC, Mutation, main

CORE = ("tests/test_core.py", "tests/agents/test_search_nodes.py")
PAGES = ("tests/host/test_pages.py", "tests/host/test_contest.py")

MUTATIONS = (
    Mutation(
        "tallies-faults-seat",
        "a pair's tally counts the first seat's fault losses as the first's",
        HOST + "tallies.py",
        "        int(irregular and winner == 1),\n        int(irregular and winner == 0),",
        "        int(irregular and winner == 0),\n        int(irregular and winner == 1),",
        ("tests/host/test_tallies.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        "tallies-kept-empty",
        "a pair whose games were all taken out leaves the kept tallies",
        HOST + "tallies.py",
        'return PairTallies(self._rows[self._rows[:, COLUMNS.index("games")] > 0])',
        'return PairTallies(self._rows[self._rows[:, COLUMNS.index("games")] >= 0])',
        ("tests/host/test_tallies.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        "signing-body",
        "a worker's signature covers the call's body",
        HOST + "request_signing.py",
        '("arbiter worker call", method.upper(), target, digest, at, nonce, instance, contest)',
        '("arbiter worker call", method.upper(), target, at, nonce, instance, contest)',
        ("tests/host/test_worker_tokens.py", "tests/host/test_workers.py"),
    ),
    Mutation(
        "archive-language-tie",
        "an archive with as many files of two languages is the one its main file names",
        HOST + "archive.py",
        "chosen = next((key for key in tied if key in mains), tied[0])",
        "chosen = tied[0]",
        ("tests/host/test_archive.py", "tests/host/test_programs.py"),
    ),
    Mutation(
        "config-closes-equal",
        "a contest file whose uploads close when they open is refused",
        HOST + "config.py",
        "if opens is not None and closes is not None and closes <= opens:",
        "if opens is not None and closes is not None and closes < opens:",
        ("tests/host/test_config.py",),
    ),
    Mutation(
        "standings-frozen-export",
        "an export holds the table its games give, not the frozen one",
        HOST + "standings.py",
        "if frozen is not None and not live:",
        "if frozen is not None:",
        ("tests/host/test_export.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        "operations-irregular-loser",
        "the operations view charges an irregular game to its loser",
        HOST + "operations.py",
        "loser = case((Game.winner == 0, Game.second_account_id), else_=Game.first_account_id)",
        "loser = case((Game.winner == 0, Game.first_account_id), else_=Game.second_account_id)",
        ("tests/host/test_operations.py",),
    ),
    Mutation(
        "events-streams-bound",
        "an address holds at most STREAMS_PER_CLIENT live streams",
        HOST + "events.py",
        "if self.streams[address] >= STREAMS_PER_CLIENT:",
        "if self.streams[address] > STREAMS_PER_CLIENT:",
        ("tests/host/test_guards.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        "worker-download-size",
        "a worker takes no more of a program than the size the job gave",
        HOST + "worker.py",
        "                if got > size:",
        "                if got > MAX_PROGRAM:",
        ("tests/host/test_worker_unit.py", "tests/host/test_workers.py"),
    ),
    Mutation(
        "single-env-reward",
        "the Gymnasium environment rewards the learner's own winning move",
        SRC + "envs/single.py",
        "        reward += self._answer()",
        "        reward = self._answer()",
        ("tests/test_envs.py",),
    ),
    Mutation(
        "encoding-path-start",
        "the observation's path plane marks a move's start as well as its landings",
        SRC + "envs/encoding.py",
        "path = [legs[0][0], *(b for _, b in legs)] if legs else []",
        "path = [b for _, b in legs]",
        ("tests/test_envs.py",),
    ),
    Mutation(
        "programs-executable",
        "a program file without execute permission is named as such before a game",
        SRC + "contract/programs.py",
        "if not os.access(path, os.X_OK):",
        "if not os.access(path, os.R_OK):",
        ("tests/test_mistakes.py", "tests/test_cli.py"),
    ),
    Mutation(
        "programs-wall-backstop",
        "under wall charging a move is killed at its deadline, not the CPU backstop",
        SRC + "contract/programs.py",
        "        if self.charging is Charging.WALL:\n            return kill_at\n",
        "",
        ("tests/test_contract.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "votey-c-spread",
        "the compiled Votey connection does not join a row's end to the next row's start",
        CSRC + "votey.c",
        "uint64_t h = b | ((b >> 1) & ~COL8) | ((b << 1) & ~COL1);",
        "uint64_t h = b | (b >> 1) | ((b << 1) & ~COL1);",
        ("tests/test_core.py", "tests/games/votey"),
    ),
    Mutation(
        "votey-c-hash",
        "the compiled Votey position key holds the side to move",
        CSRC + "votey.c",
        "return mix64(s->p[0] ^ mix64(s->p[1] ^ mix64((uint64_t)s->to_move)));",
        "return mix64(s->p[0] ^ mix64(s->p[1]));",
        CORE,
    ),
    Mutation(
        "alquerque-c-back",
        "the compiled Alquerque forgets a side's last step once it captures",
        CSRC + "alquerque.c",
        "    if (njumps) {\n        o->back[p][0] = o->back[p][1] = -1;\n    } else {",
        "    if (njumps) {\n    } else {",
        ("tests/test_core.py", "tests/games/alquerque"),
    ),
    Mutation(
        "kit-alquerque-back",
        "the Python Alquerque kit never steps straight back",
        GAMES + "alquerque/kits/python/main.py",
        "and [to, square] != last:",
        "and [square, to] != last:",
        ("tests/host/test_kits.py",),
    ),
    Mutation(
        "checkers-jump-twice",
        "a checkers capture chain never jumps the same piece twice",
        GAMES + "checkers/rules.py",
        "if (enemy >> over) & 1 and not (taken >> over) & 1 and (empty >> land) & 1:",
        "if (enemy >> over) & 1 and (empty >> land) & 1:",
        ("tests/games/checkers", "tests/test_core.py"),
    ),
    Mutation(
        "contestant-role",
        "the organiser has no contestant's page",
        HOST + "routes/public.py",
        'if account is None or account.role != "contestant":',
        "if account is None:",
        PAGES,
    ),
    Mutation(
        "records-candidates",
        "a contestant's public records leave out their candidates' evaluation games",
        HOST + "routes/public.py",
        '.where(Game.state == "done", mine, Game.id > last, COUNTED_GAME)',
        '.where(Game.state == "done", mine, Game.id > last)',
        ("tests/host/test_candidates.py", "tests/host/test_export.py", *PAGES),
    ),
)

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
