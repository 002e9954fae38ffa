# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""A practice set over all four areas, drawn after the sixteenth probe
(``draw_sites.py --seed 1601 --each 4``, no spares): 16 bugs, 11 caught by their named
tests at first. Of the five missed, three now have tests (a walled-in Chinese checkers
side's hops, a batch's waiting games, a candidate's game being played); one is held
only past fourteen players (``costs-unit-squared``: a round's standing distance
outweighs two units of score gap only there), and ``connected-negated`` differs only
for an empty board, which Votey never has. Kept out of ``mutate_*.py`` so these
functions stay in the draw (see ``practice_contract.py``).

A second set after the seventeenth probe (``--seed 1602 --each 6``, the contest server
and the C core): 11 bugs, 6 caught at first. Four of the five missed now have tests (a
signed call's query, a listed game's second version, a token's seed length, a Votey
win on the cap's ply); ``halma-both-crossed-win`` differs only where both sides have
crossed, which no game reaches (the first to cross ends it).

    python scripts/practice_mixed.py [NAME ...]
"""

from __future__ import annotations

import sys

from mutation import CORE_TESTS, CSRC, ENVS_TESTS, HOST, SRC, Mutation, main

CONTRACT = ("tests/test_contract.py", "tests/test_cli.py", "tests/test_check_agent.py")
HOSTT = (
    "tests/host/test_tallies.py",
    "tests/host/test_pairing.py",
    "tests/host/test_candidates.py",
    "tests/host/test_marks_and_candidates.py",
    "tests/host/test_standings.py",
    "tests/host/test_settle.py",
)
WEB = ("tests/web/test_api.py", "tests/web/test_browser.py", "tests/web/test_stored_games.py")
W = (
    "tests/host/test_worker_tokens.py",
    "tests/host/test_worker_unit.py",
    "tests/host/test_wire.py",
    "tests/host/test_guards.py",
)

MUTATIONS = (
    Mutation(
        "label-ignores-name",
        "",
        SRC + "contract/programs.py",
        '        return self.name or " ".join(self.argv)',
        '        return " ".join(self.argv)',
        CONTRACT,
    ),
    Mutation(
        "argv-resplit",
        "",
        SRC + "contract/programs.py",
        "        argv = list(command)\n",
        '        argv = shlex.split(" ".join(command))\n',
        CONTRACT,
    ),
    Mutation(
        "prepared-none-start",
        "",
        SRC + "contract/probes.py",
        "        if start:\n",
        "        if True:\n",
        CONTRACT,
    ),
    Mutation(
        "reply-unfiltered",
        "",
        SRC + "contract/spec.py",
        "        return text if self.reply_filter is None else self.reply_filter(text)",
        "        return text",
        (*CONTRACT, "tests/referee/test_faults.py"),
    ),
    Mutation(
        "batch-rival-own-seat",
        "",
        SRC + "envs/batch.py",
        '        rival = 1 - seat if opponent == "random" else -1',
        '        rival = seat if opponent == "random" else -1',
        ENVS_TESTS,
    ),
    Mutation(
        "batch-init-no-answer",
        "",
        SRC + "envs/batch.py",
        "        self._games.init()\n        self._answer()\n",
        "        self._games.init()\n",
        ENVS_TESTS,
    ),
    Mutation(
        "end-loser-zero",
        "",
        SRC + "envs/batch.py",
        "            self.arrays.rewards[i, 1 - winner] = -1.0",
        "            self.arrays.rewards[i, 1 - winner] = 0.0",
        ENVS_TESTS,
    ),
    Mutation(
        "legs-first-only",
        "",
        SRC + "envs/encoding.py",
        "        return self.view.clicks.legs(s, m)",
        "        return self.view.clicks.legs(s, m)[:1]",
        ENVS_TESTS,
    ),
    Mutation(
        "tallies-read-empty-pairs",
        "",
        HOST + "tallies.py",
        "WHERE phase = {mark} AND games > 0",
        "WHERE phase = {mark}",
        HOSTT,
    ),
    Mutation(
        "costs-unit-squared",
        "",
        HOST + "pairing.py",
        "        self.unit = len(order) ** 3",
        "        self.unit = len(order) ** 2",
        HOSTT,
    ),
    Mutation(
        "evaluation-leased-not-waiting",
        "",
        HOST + "candidates.py",
        'waiting = sum(g.state in ("queued", "leased") for g in games)',
        'waiting = sum(g.state in ("queued",) for g in games)',
        HOSTT,
    ),
    Mutation(
        "unknown-reason-fault",
        "",
        HOST + "tallies.py",
        "    except ValueError:\n        return False",
        "    except ValueError:\n        return True",
        HOSTT,
    ),
    Mutation(
        "connected-negated",
        "",
        CSRC + "votey.c",
        "    return PyBool_FromLong(connected(b));",
        "    return PyBool_FromLong(!connected(b) == 0 && b);",
        CORE_TESTS,
    ),
    Mutation(
        "waiting-over-games",
        "",
        CSRC + "envs.c",
        "        if (B->games[i].over || B->vt->to_move(state_of(B, i)) != seat) continue;",
        "        if (B->vt->to_move(state_of(B, i)) != seat) continue;",
        ENVS_TESTS,
    ),
    Mutation(
        "halma-count-three-words",
        "",
        CSRC + "halma.c",
        "    for (int i = 0; i < 4; i++) n += __builtin_popcountll(a.w[i]);",
        "    for (int i = 0; i < 3; i++) n += __builtin_popcountll(a.w[i]);",
        CORE_TESTS,
    ),
    Mutation(
        "cc-outcome-steps-only",
        "",
        CSRC + "chinese_checkers.c",
        "        if (targets_from(low128(b), occupied, &lines)) return OUT_NONE;\n    return OUT_LOSS;",
        "        if (0 && targets_from(low128(b), occupied, &lines)) return OUT_NONE;\n    return OUT_LOSS;",
        CORE_TESTS,
    ),
    # the second set (seed 1602, six each from the contest server and the C core)
    Mutation(
        "sign-path-no-query",
        "",
        HOST + "request_signing.py",
        '        target = request.url.raw_path.decode("ascii")',
        "        target = request.url.path",
        W,
    ),
    Mutation(
        "listed-second-version-first",
        "",
        HOST + "listing.py",
        "            b.name,\n            second.number,",
        "            b.name,\n            first.number,",
        ("tests/host/test_pages.py", "tests/host/test_contest.py", "tests/host/test_tallies.py"),
    ),
    Mutation(
        "closing-renewed",
        "",
        HOST + "service.py",
        "        if self._closing is None:\n            self._closing",
        "        if self._closing is None or self._closing.done():\n            self._closing",
        ("tests/host/test_events.py",),
    ),
    Mutation(
        "token-long-seed",
        "",
        HOST + "request_signing.py",
        "len(key) != 32 or len(seed) != 32:",
        "len(key) != 32 or len(seed) < 32:",
        W,
    ),
    Mutation(
        "session-expiry-ignored",
        "",
        HOST + "sessions.py",
        "    if found is None or _expired(found.expires):\n        return None\n    return found.account",
        "    if found is None:\n        return None\n    return found.account",
        ("tests/host/test_keys_and_sessions.py", "tests/host/test_accounts.py"),
    ),
    Mutation(
        "expected-game-clock-swapped",
        "",
        HOST + "queue.py",
        "        return cls(names, game.start, contest[0], contest[1], game.seed)",
        "        return cls(names, game.start, contest[1], contest[0], game.seed)",
        ("tests/host/test_queue.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "bandnot-three-words",
        "",
        CSRC + "halma.c",
        "    for (int i = 0; i < 4; i++) a.w[i] &= ~b.w[i];",
        "    for (int i = 0; i < 3; i++) a.w[i] &= ~b.w[i];",
        CORE_TESTS,
    ),
    Mutation(
        "checkers-hash-no-side",
        "",
        CSRC + "checkers.c",
        "mix64((uint64_t)s->kings << 1 | (uint64_t)s->to_move));",
        "mix64((uint64_t)s->kings << 1));",
        CORE_TESTS,
    ),
    Mutation(
        "votey-cap-before-win",
        "",
        CSRC + "votey.c",
        "    if (s->winner >= 0) return s->winner == s->to_move ? OUT_WIN : OUT_LOSS;\n    if (s->ply >= s->max_plies) return OUT_DRAW;",
        "    if (s->ply >= s->max_plies) return OUT_DRAW;\n    if (s->winner >= 0) return s->winner == s->to_move ? OUT_WIN : OUT_LOSS;",
        CORE_TESTS,
    ),
    Mutation(
        "halma-both-crossed-win",
        "",
        CSRC + "halma.c",
        "    if (has_crossed(s, 1 - s->to_move)) return OUT_LOSS;\n    if (has_crossed(s, s->to_move)) return OUT_WIN;",
        "    if (has_crossed(s, s->to_move)) return OUT_WIN;\n    if (has_crossed(s, 1 - s->to_move)) return OUT_LOSS;",
        CORE_TESTS,
    ),
    Mutation(
        "alquerque-eval-hanging-halved",
        "",
        CSRC + "alquerque.c",
        "    score += W_HANGING * h1 - (W_HANGING / 2) * h0;",
        "    score += W_HANGING * h1 - W_HANGING * h0;",
        CORE_TESTS,
    ),
    Mutation(
        "hop-chain-ignores-hops",
        "",
        SRC + "contract/layout.py",
        '        if getattr(m, "hops", ()):\n            return (m.origin, *m.hops)\n        return self.path(s, m)',
        "        return self.path(s, m)",
        WEB,
    ),
    Mutation(
        "of-folder-default-plies",
        "",
        SRC + "contract/spec.py",
        "            opening_plies=opening_plies,\n            kits=",
        "            kits=",
        (*CONTRACT, "tests/tournament/test_default_openings.py"),
    ),
    Mutation(
        "hop-path-first-and-last",
        "",
        SRC + "contract/layout.py",
        "                        chains[land] = (*chains[at], land)",
        "                        chains[land] = (*chains[at][:1], land)",
        WEB,
    ),
    Mutation(
        "whole-path-no-origin",
        "",
        SRC + "contract/layout.py",
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)',
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)[1:] or self.path(m)',
        WEB,
    ),
    Mutation(
        "own-encoding-default-rules",
        "",
        SRC + "contract/spec.py",
        "        return None if self.encoding is None else self.encoding()(rules)",
        "        return None if self.encoding is None else self.encoding()(self.make())",
        (*ENVS_TESTS, "tests/test_toy_game.py"),
    ),
    Mutation(
        "make-unchecked",
        "",
        SRC + "contract/spec.py",
        "            values[name] = known[name].check(value)",
        "            values[name] = value  # type: ignore[assignment]",
        (*CONTRACT, "tests/test_bad_input.py"),
    ),
    Mutation(
        "illegal-told-other-agent",
        "",
        SRC + "envs/aec.py",
        '            self.infos[AGENTS[illegal[0]]]["illegal"] = illegal[1]',
        '            self.infos[AGENTS[1 - illegal[0]]]["illegal"] = illegal[1]',
        ENVS_TESTS,
    ),
    Mutation(
        "random-answer-one-stream",
        "",
        SRC + "envs/batch.py",
        "            self.play(i, legal[self._draw(i) % len(legal)])",
        "            self.play(i, legal[self._draw(0) % len(legal)])",
        ENVS_TESTS,
    ),
    Mutation(
        "own-encoding-needs-no-board",
        "",
        SRC + "envs/encoding.py",
        "    own = spec.own_encoding(rules)\n    if own is not None:",
        "    own = spec.own_encoding(rules)\n    if own is not None and spec.board is None:",
        (*ENVS_TESTS, "tests/test_toy_game.py"),
    ),
    Mutation(
        "engine-answers-once",
        "",
        SRC + "envs/batch.py",
        "        while waiting := self._games.waiting(rival):",
        "        if waiting := self._games.waiting(rival):",
        ENVS_TESTS,
    ),
    Mutation(
        "headers-overridden",
        "",
        HOST + "app.py",
        "                    if name not in headers:\n                        headers[name] = value",
        "                    headers[name] = value",
        ("tests/host/test_pages.py", "tests/host/test_guards.py", "tests/host/test_kits.py"),
    ),
    Mutation(
        "release-any-state",
        "",
        HOST + "queue.py",
        '        .where(Game.id == game_id, Game.lease == token, Game.state == "leased")\n        .values(state="queued"',
        '        .where(Game.id == game_id, Game.lease == token)\n        .values(state="queued"',
        ("tests/host/test_queue.py", "tests/host/test_workers.py", *W),
    ),
    Mutation(
        "release-says-yes",
        "",
        HOST + "queue.py",
        '    return getattr(done, "rowcount", 0) == 1\n\n\ndef job(',
        '    return getattr(done, "rowcount", 0) >= 0\n\n\ndef job(',
        ("tests/host/test_queue.py", "tests/host/test_workers.py", *W),
    ),
    Mutation(
        "standings-live-dropped",
        "",
        HOST + "standings.py",
        "    return _computed(session, config, live=live)[0]",
        "    return _computed(session, config)[0]",
        (
            "tests/host/test_export.py",
            "tests/host/test_standings.py",
            "tests/host/test_operations.py",
        ),
    ),
    Mutation(
        "alquerque-side-seven-ways",
        "",
        CSRC + "alquerque.c",
        "    uint64_t hung = 0;\n    for (int d = 0; d < 8; d++) {",
        "    uint64_t hung = 0;\n    for (int d = 0; d < 7; d++) {",
        CORE_TESTS,
    ),
    Mutation(
        "alquerque-path-step-four-ways",
        "",
        CSRC + "alquerque.c",
        "        out[1] = (uint8_t)NEAR[cell][(m >> 11) & 7];",
        "        out[1] = (uint8_t)NEAR[cell][(m >> 11) & 3];",
        CORE_TESTS + ENVS_TESTS,
    ),
    Mutation(
        "checkers-steps-onto-enemy",
        "",
        CSRC + "checkers.c",
        "        for (unsigned dirs = step_dirs(s, p, cell, occupied); dirs; dirs &= dirs - 1) {",
        "        for (unsigned dirs = step_dirs(s, p, cell, s->p[p]); dirs; dirs &= dirs - 1) {",
        CORE_TESTS,
    ),
    Mutation(
        "halma-side-rear-summed",
        "",
        CSRC + "halma.c",
        "            rear = imax(rear, DIST[p][c]);",
        "            rear += DIST[p][c];",
        CORE_TESTS,
    ),
    Mutation(
        "batch-buffer-bigger-taken",
        "",
        CSRC + "envs.c",
        "    if (view->len != want) {",
        "    if (view->len < want) {",
        ENVS_TESTS,
    ),
    Mutation(
        "votey-gen-after-end",
        "",
        CSRC + "votey.c",
        "    const VState *s = vs;\n    if (v_over(s)) return 0;\n    move_t all[VOTEY_MOST];",
        "    const VState *s = vs;\n    move_t all[VOTEY_MOST];",
        CORE_TESTS + ENVS_TESTS,
    ),
)
if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
