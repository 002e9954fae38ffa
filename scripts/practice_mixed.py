# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""A practice set over all four areas, drawn after the sixteenth probe
(``draw_sites.py --seed 1601 --each 4``, no spares): 16 bugs, 11 caught by their named
tests at first. Of the five missed, three now have tests (a walled-in Chinese checkers
side's hops, a batch's waiting games, a candidate's game being played); one is held
only past fourteen players (``costs-unit-squared``: a round's standing distance
outweighs two units of score gap only there), and ``connected-negated`` differs only
for an empty board, which Votey never has. Kept out of ``mutate_*.py`` so these
functions stay in the draw (see ``practice_contract.py``).

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
)
if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
