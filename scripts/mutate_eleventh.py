"""An eleventh fresh probe: 20 bugs in places no earlier probe put a bug in: the
Chinese checkers kernel's new line words, the batched environments' mask and chain
in C, the observation's seat plane and the batch's draws in Python, the contract's
drops and one-cell paths, the registry's names, log-in delays, the live streams'
stale rows, the leader's lock, the backup's left-out folders, the first move's
start-up charge, Votey's double connection and Halma's target camp in C, PDN's
result for a game without colours, the calendar's shortest span and the export's
check of a record listed twice. Written before any test for them; each is put in,
tested and taken out.

    python scripts/mutate_eleventh.py --suite              # every mutation
    python scripts/mutate_eleventh.py cc-hop-behind-edge   # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CORE = ("tests/test_core.py", "tests/test_perft_files.py", "tests/agents/test_search_nodes.py")

MUTATIONS = (
    Mutation(
        "cc-hop-behind-edge",
        "a long hop backwards may land on a line's first hole",
        CSRC + "chinese_checkers.c",
        "if (place >= 2 * k && !((on >> (place - 2 * k)) & ((1u << k) - 1)))",
        "if (place > 2 * k && !((on >> (place - 2 * k)) & ((1u << k) - 1)))",
        CORE,
    ),
    Mutation(
        "envs-mask-first-left",
        "a batch's mask row loses every entry it set at the last step",
        CSRC + "envs.c",
        "for (int j = 0; j < g->nset; j++) row[g->set[j]] = 0;",
        "for (int j = 1; j < g->nset; j++) row[g->set[j]] = 0;",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-chain-start",
        "a chain's path plane begins at the cell the first jump starts from",
        CSRC + "envs.c",
        "if (!g->k) g->played[0] = (uint8_t)(a / vt->cells);",
        "if (!g->k) g->played[0] = (uint8_t)(a % vt->cells);",
        ENVS_TESTS,
    ),
    Mutation(
        "encoding-seat-plane",
        "the observation's last plane is set for the second seat",
        SRC + "envs/encoding.py",
        "        if seat == 1:\n            out[:, :, 5] = 1",
        "        if seat == 0:\n            out[:, :, 5] = 1",
        ENVS_TESTS,
    ),
    Mutation(
        "draws-seed-width",
        "a batch's draws use the whole 64-bit seed, as the compiled batch does",
        SRC + "envs/kernel.py",
        "return mix64(mix64(i) ^ (seed & MASK64))",
        "return mix64(mix64(i) ^ (seed & 0xFFFFFFFF))",
        ENVS_TESTS,
    ),
    Mutation(
        "drops-two-clicks",
        "a drop is one click: two clicks make no move",
        SRC + "contract/layout.py",
        "move = filled.get(clicks[0]) if len(clicks) == 1 else None",
        "move = filled.get(clicks[0])",
        ("tests/test_drop_game.py", "tests/web/test_api.py", "tests/test_contract.py"),
    ),
    Mutation(
        "one-cell-path-legs",
        "a move of one cell is one leg onto itself",
        SRC + "contract/layout.py",
        "return tuple(itertools.pairwise(path)) if len(path) > 1 else ((path[0], path[0]),)",
        "return tuple(itertools.pairwise(path)) if len(path) > 0 else ((path[0], path[0]),)",
        ENVS_TESTS,
    ),
    Mutation(
        "registry-name-spelling",
        "a registry line's name is found however its case and underscores are written",
        SRC + "games/__init__.py",
        'found[name.lower().replace("_", "-")] = module',
        "found[name] = module",
        ("tests/test_toy_game.py",),
    ),
    Mutation(
        "login-free-tries",
        "the third failed log-in of a name already earns a wait",
        HOST + "login_delays.py",
        "if row.count >= free:",
        "if row.count > free:",
        ("tests/host/test_accounts.py",),
    ),
    Mutation(
        "login-success-forgets-address",
        "a log-in forgets its name's failures, not the address's over all names",
        HOST + "login_delays.py",
        "            delete(LoginFailure).where(\n"
        "                LoginFailure.name == _name(name), "
        "LoginFailure.address == _address(address)\n"
        "            )",
        "            delete(LoginFailure).where(LoginFailure.address == _address(address))",
        ("tests/host/test_accounts.py",),
    ),
    Mutation(
        "streams-stale-counted",
        "a stream its process stopped renewing stops counting after STALE seconds",
        HOST + "stream_slots.py",
        "LiveStream.seen >= now() - timedelta(seconds=STALE),",
        "LiveStream.seen >= now() - timedelta(seconds=100 * STALE),",
        ("tests/host/test_stream_slots.py",),
    ),
    Mutation(
        "leader-lock-ignored",
        "a process that did not get the leader's lock does not lead",
        HOST + "coordination.py",
        "if row is None or not row[0]:",
        "if row is None:",
        ("tests/host/test_coordination.py",),
    ),
    Mutation(
        "backup-exports-kept",
        "a backup leaves out the exports, which are written again",
        HOST + "backup.py",
        'LEFT_OUT = re.compile(r"^(versions/[^/]+/build|play|exports)(/|$)")',
        'LEFT_OUT = re.compile(r"^(versions/[^/]+/build|play)(/|$)")',
        ("tests/host/test_backup.py",),
    ),
    Mutation(
        "startup-uncharged",
        "a line program's start-up counts towards its first move",
        SRC + "referee/line_seat.py",
        "self._cpu_base = 0.0  # start-up counts towards the first move",
        "self._cpu_base = self.transport.cpu_time()",
        ("tests/referee/test_faults.py", "tests/referee/test_votey_faults.py"),
    ),
    Mutation(
        "votey-both-connected",
        "a capture that connects both sides wins for the mover",
        CSRC + "votey.c",
        "    if (connected(own))\n"
        "        o->winner = p;\n"
        "    else if (enemy != s->p[q] && connected(enemy))\n"
        "        o->winner = q;",
        "    if (enemy != s->p[q] && connected(enemy))\n"
        "        o->winner = q;\n"
        "    else if (connected(own))\n"
        "        o->winner = p;",
        (*CORE, "tests/games/votey/test_rules.py"),
    ),
    Mutation(
        "halma-target-camp-kept",
        "a piece in the target camp may not leave it",
        CSRC + "halma.c",
        "    if (has(&CAMP[1 - p], start)) ends = band(ends, CAMP[1 - p]);\n",
        "",
        (*CORE, "tests/games/halma/test_rules.py"),
    ),
    Mutation(
        "result-first-mover",
        "PDN's result of a game without colours puts the first mover's score first",
        SRC + "play/portable.py",
        'return "1-0" if winner == (0 if white is None else white) else "0-1"',
        'return "1-0" if winner == (1 if white is None else white) else "0-1"',
        ("tests/play/test_portable.py",),
    ),
    Mutation(
        "calendar-one-minute",
        "a span of exactly a minute is long enough",
        HOST + "calendar.py",
        "if span < timedelta(minutes=1):",
        "if span <= timedelta(minutes=1):",
        ("tests/host/test_final.py", "tests/host/test_config.py"),
    ),
    Mutation(
        "export-record-twice",
        "an export whose rounds name one record twice is refused",
        HOST + "export_check.py",
        'if record is None or g["record"] in used:',
        "if record is None:",
        ("tests/host/test_export.py",),
    ),
    Mutation(
        "batch-illegal-winner",
        "an illegal action in a Python batch loses for its mover",
        SRC + "envs/batch.py",
        "            self._end(i, 1 - seat)",
        "            self._end(i, seat)",
        ENVS_TESTS,
    ),
)

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
