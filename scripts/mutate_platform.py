"""Fresh bugs in the platform's rules outside the contest server (the clock, the
referee's verdicts, the walls, the statistics, tournaments and the browser), each put
in, tested and taken out: the check that every rule has a test that fails without it.

    python scripts/mutate_platform.py                  # every mutation
    python scripts/mutate_platform.py sprt-bounds uid  # only these

See ``mutation.py`` for how a mutation is run; ``mutate_host.py`` does the same for
the contest server's guards.
"""

from __future__ import annotations

import sys

from mutation import SRC, Mutation, main

CLOCK = ("tests/test_clock.py",)
FAULTS = "tests/referee/test_faults.py"

MUTATIONS = (
    Mutation(
        "overtime-margin",
        "the margin is grace in overtime too",
        SRC + "clock.py",
        "            return tc.overtime_per_move + tc.margin",
        "            return tc.overtime_per_move",
        CLOCK,
    ),
    Mutation(
        "increment",
        "a game clock adds its increment after each move",
        SRC + "clock.py",
        "left = remaining[p] - used + tc.increment if remaining[p] > 0 else 0.0",
        "left = remaining[p] - used if remaining[p] > 0 else 0.0",
        CLOCK,
    ),
    Mutation(
        "kill-after",
        "a program is killed kill_after past its allowance, not at it",
        SRC + "clock.py",
        "return None if allowed is None else allowed + self.tc.kill_after",
        "return allowed",
        CLOCK,
    ),
    Mutation(
        "period",
        "a period's time is added to what is left, not put in its place",
        SRC + "clock.py",
        "                remaining[p] += tc.base",
        "                remaining[p] = tc.base",
        CLOCK,
    ),
    Mutation(
        "false-claim",
        "a Votey move negated without winning loses",
        SRC + "games/votey/contest.py",
        "    if claimed and not won:",
        "    if False:",
        ("tests/games/votey/test_protocol.py", "tests/referee/test_votey_faults.py"),
    ),
    Mutation(
        "early-output",
        "a line written before the program's turn loses",
        SRC + "referee/line_seat.py",
        "        early = [] if self._first else transport.pending()",
        "        early = []",
        (FAULTS,),
    ),
    Mutation(
        "single-process",
        "a program that must run alone loses when it starts another process",
        SRC + "referee/pipe.py",
        "if process.confinement.single_process and (count := process.process_count()) > 1:",
        "if process.confinement.single_process and (count := process.process_count()) > 2:",
        ("tests/games/chinese_checkers/test_protocol.py", FAULTS),
    ),
    Mutation(
        "replay-score",
        "replay checks a record's contest score",
        SRC + "play/replay.py",
        "    if record.score is not None and tuple(record.score) != score:",
        "    if False:",
        ("tests/test_record.py",),
    ),
    Mutation(
        "uid-account",
        "a uid a machine account has is never a program's",
        SRC + "referee/uids.py",
        "            pwd.getpwuid(uid)\n",
        "            raise KeyError(uid)\n",
        ("tests/referee/test_uids.py",),
    ),
    Mutation(
        "read-only",
        "a program's own files are read-only behind namespaces",
        SRC + "referee/box.py",
        '                args += ["--ro-bind", path, path]\n        args += folders_to(self.path)',
        '                args += ["--bind", path, path]\n        args += folders_to(self.path)',
        ("tests/referee/test_isolation.py",),
    ),
    Mutation(
        "network",
        "a program has no network but a loopback of its own",
        SRC + "referee/box.py",
        '            args.append("--unshare-net")',
        "            pass",
        ("tests/referee/test_channels.py",),
    ),
    Mutation(
        "suspend",
        "the waiting program is stopped until it is asked again (its cgroup frozen)",
        SRC + "referee/process.py",
        "        if self.cgroup is not None and self.cgroup.can_freeze:\n"
        "            self.cgroup.freeze(True)",
        "        if self.cgroup is not None and self.cgroup.can_freeze:\n            pass",
        ("tests/referee/test_process.py",),
    ),
    Mutation(
        "suspend-signal",
        "without a cgroup, every process of the tree is stopped, not only its group",
        SRC + "referee/process.py",
        "            self._tree(fresh=True)\n            self._signal_all(signal.SIGSTOP)",
        "            pass",
        ("tests/referee/test_process.py",),
    ),
    Mutation(
        "elo-draws",
        "the Elo interval counts the draws' variance",
        SRC + "tournament/ratings.py",
        "var = (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu**2) / n",
        "var = (wins * (1 - mu) ** 2 + losses * mu**2) / n",
        ("tests/tournament/test_score.py",),
    ),
    Mutation(
        "sprt-bounds",
        "Wald's bounds put alpha and beta each in its place",
        SRC + "tournament/sprt.py",
        "            math.log(self.beta / (1 - self.alpha)),\n"
        "            math.log((1 - self.beta) / self.alpha),",
        "            math.log(self.alpha / (1 - self.beta)),\n"
        "            math.log((1 - self.alpha) / self.beta),",
        ("tests/tournament/test_sprt.py",),
    ),
    Mutation(
        "sprt-pairs",
        "the ratio counts the pairs played, not the prior's pseudo-pairs",
        SRC + "tournament/sprt.py",
        "        return pairs * (s1 - s0)",
        "        return total * (s1 - s0)",
        ("tests/tournament/test_sprt.py",),
    ),
    Mutation(
        "bt-prior",
        "a virtual draw scores half a point",
        SRC + "tournament/bradley_terry.py",
        "        s = np.concatenate([s, np.full(len(pairs), prior / 2)])",
        "        s = np.concatenate([s, np.full(len(pairs), prior)])",
        ("tests/tournament/test_bradley_terry.py",),
    ),
    Mutation(
        "resume-seed",
        "a tournament resumed with another seed is refused",
        SRC + "tournament/run.py",
        '            "seed": self.seed,\n',
        "",
        ("tests/tournament/test_plan.py",),
    ),
    Mutation(
        "colours",
        "each pair of games swaps the seats",
        SRC + "tournament/schedule.py",
        "        for seats in ((a, b), (b, a)):",
        "        for seats in ((a, b), (a, b)):",
        ("tests/tournament/test_schedule.py",),
    ),
    Mutation(
        "web-finished",
        "a finished game in the browser takes no move",
        SRC + "web/sessions.py",
        '        if self.outcome is not None:\n            raise WebError(409, f"the game is over',
        '        if False:\n            raise WebError(409, f"the game is over',
        ("tests/web/test_api.py",),
    ),
    Mutation(
        "web-takeback",
        "take-backs only against a built-in engine",
        SRC + "web/sessions.py",
        "        if not self.undo_allowed:",
        "        if False:",
        ("tests/web/test_api.py",),
    ),
    Mutation(
        "drain",
        "a drained series starts no more games",
        SRC + "play/series.py",
        "            if DRAIN.requested:\n                return\n            yield job",
        "            if DRAIN.requested and 0:\n                return\n            yield job",
        ("tests/test_drain.py",),
    ),
    Mutation(
        "drain-pool",
        "a drained pool gives its workers no more games",
        SRC + "play/pool.py",
        "                if draining():\n                    queue.clear()",
        "                if draining() and False:\n                    queue.clear()",
        ("tests/test_drain.py",),
    ),
    Mutation(
        "pin",
        "with --pin each seat's program gets a core of its own",
        SRC + "play/series.py",
        "    core = cores[(2 * _slot + seat) % len(cores)]",
        "    core = cores[(2 * _slot) % len(cores)]",
        ("tests/test_pin.py",),
    ),
    Mutation(
        "log-dir",
        "a --log-dir that takes no file is refused before any game",
        SRC + "cli/options.py",
        '    if log_dir is not None:\n        _writable(log_dir, "--log-dir")',
        '    if log_dir is None:\n        _writable(log_dir, "--log-dir")',
        ("tests/test_mistakes.py",),
    ),
    Mutation(
        "idle-hint",
        "a program out of wall time is called idle only when it was",
        SRC + "referee/pipe.py",
        "    if share < 0.05:",
        "    if share < 5:",
        ("tests/test_cli.py",),
    ),
    Mutation(
        "pentanomial-variance",
        "the pentanomial interval comes from the pairs' variance",
        SRC + "tournament/pentanomial.py",
        "sum(c * (s - mu) ** 2 for c, s in",
        "sum(c * abs(s - mu) for c, s in",
        ("tests/tournament/test_pentanomial.py",),
    ),
)

ENVS = ("tests/test_envs.py",)
PORTABLE = ("tests/play/test_portable.py",)
CHECKS = ("tests/test_check_agent.py", "tests/games/test_illegal_reasons.py")
EXTRA = (
    Mutation(
        "env-illegal",
        "an action the mask forbids loses the game",
        SRC + "envs/aec.py",
        "        if number is None or number not in self._next:",
        "        if number is None:",
        ENVS,
    ),
    Mutation(
        "env-chain",
        "a capture chain is applied only once its every leg is played",
        SRC + "envs/aec.py",
        "            done = [m for acts, m in self._moves if len(acts) == k + 1]",
        "            done = [m for acts, m in self._moves]",
        ENVS,
    ),
    Mutation(
        "env-side",
        "each agent observes its own pieces in the first plane",
        SRC + "envs/encoding.py",
        "        mine, theirs = str(seat), str(1 - seat)",
        '        mine, theirs = "0", "1"',
        ENVS,
    ),
    Mutation(
        "pdn-result",
        "PDN's result is White's score first: red (Black) winning is 0-1",
        SRC + "play/portable.py",
        '    return "1-0" if winner == (0 if white is None else white) else "0-1"',
        '    return "0-1" if winner == (0 if white is None else white) else "1-0"',
        PORTABLE,
    ),
    Mutation(
        "portable-result",
        "a result tag the rules' outcome contradicts is refused",
        SRC + "play/portable.py",
        "        if game.result != _result(outcome.winner, white):",
        "        if False:",
        PORTABLE,
    ),
    Mutation(
        "camp-position",
        "the camp checks start from positions where rule 1(b) forbids the best move",
        SRC + "games/halma/probes.py",
        "            _position([(4, 0), *outside], white_home, 0),",
        "            _position([(4, 4), *outside], white_home, 0),",
        CHECKS,
    ),
    Mutation(
        "camp-alternatives",
        "a camp-rule illegal move lists the legal moves where they are few",
        SRC + "games/halma/notation.py",
        "    if len(moves) <= 6:",
        "    if len(moves) <= 0:",
        CHECKS,
    ),
    Mutation(
        "never-came-up",
        "a situation never came up is said only of a game that ran its course",
        SRC + "play/checkagent.py",
        '        return "the situation never came up" if self.passed else None',
        '        return "the situation never came up"',
        CHECKS,
    ),
    Mutation(
        "usage-one-line",
        "a usage error is one line",
        SRC + "cli/parser.py",
        '        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\\n")',
        "        super().error(message)",
        ("tests/test_mistakes.py",),
    ),
)
STRENGTH = (
    Mutation(
        "repeats",
        "a side ahead avoids the positions its own moves left before",
        SRC + "agents/alphabeta.py",
        "        return fresh or moves",
        "        return moves",
        ("tests/agents/test_agents.py",),
    ),
    Mutation(
        "alquerque-chase",
        "Alquerque's side ahead is paid for standing near the enemy's men",
        SRC + "games/alquerque/evaluate.py",
        "    return gain + W_CHASE * near // enemy.bit_count()",
        "    return gain - W_CHASE * near // enemy.bit_count()",
        ("tests/games/alquerque/test_rules.py",),
    ),
    Mutation(
        "reduce-from",
        "the pure search reduces from the same move on as the compiled one",
        SRC + "agents/alphabeta.py",
        "                    and i >= REDUCE_FROM\n",
        "                    and i > REDUCE_FROM\n",
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "reduce-quiet",
        "quiet-only reductions keep the moves the game's hint favours at full depth",
        SRC + "agents/alphabeta.py",
        "self._hint(s, m) <= 0)",
        "self._hint(s, m) < 0)",
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "fixed-time-spent",
        "a fixed time per move is spent to its deadline, not saved as on a game clock",
        SRC + "agents/alphabeta.py",
        "        fixed = limit.time is not None",
        "        fixed = False",
        ("tests/agents/test_time_use.py",),
    ),
    Mutation(
        "resume-recount",
        "a resumed match counts the games its record holds",
        SRC + "tournament/match.py",
        "            done.add(job.number)\n            state = self._count(job, record, pairs)\n",
        "            done.add(job.number)\n",
        ("tests/tournament/test_match.py",),
    ),
    Mutation(
        "halma-single",
        "on a fixed time per move Halma's agent is told SINGLE with the move's seconds",
        SRC + "games/halma/referee.py",
        "        single = clock.tc.per_move is not None\n",
        "        single = False\n",
        ("tests/games/halma/test_protocol.py",),
    ),
    Mutation(
        "proven-win",
        "iterative deepening stops on a win only once the win lies within the depth searched",
        SRC + "agents/alphabeta.py",
        "    return abs(score) >= _MATE_ZONE and WIN - abs(score) <= depth\n",
        "    return abs(score) >= _MATE_ZONE\n",
        ("tests/agents/test_agents.py",),
    ),
    Mutation(
        "reduce-option",
        "the engine option reduce=0/1/2 overrides the game's REDUCE",
        SRC + "agents/registry.py",
        '            reduce=Reductions(getattr(ev, "REDUCE", 0) if reduce is None else reduce),',
        '            reduce=Reductions(getattr(ev, "REDUCE", 0)),',
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "prune-keep",
        "the pure search keeps as many moves at a pruned node as the compiled one",
        SRC + "agents/alphabeta.py",
        "            del ordered[PRUNE_KEEP * depth :]",
        "            del ordered[PRUNE_KEEP * depth + 1 :]",
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "prune-depth",
        "the pure search prunes at the same plies left as the compiled one",
        SRC + "agents/alphabeta.py",
        "        if depth <= self.prune:\n",
        "        if depth < self.prune:\n",
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "prune-option",
        "the engine option prune=N overrides the game's PRUNE",
        SRC + "agents/registry.py",
        '            prune=getattr(ev, "PRUNE", 0) if prune is None else prune,',
        '            prune=getattr(ev, "PRUNE", 0),',
        ("tests/agents/test_reductions.py",),
    ),
    Mutation(
        "halma-hop-room",
        "Halma's compiled hops stay on the board (the hop table's row ends)",
        SRC + "csrc/halma.c",
        "t->open[d] = bandnot(band(HOP_ROOM[d], shift_by(occupied, -STEP[d])),",
        "t->open[d] = bandnot(shift_by(occupied, -STEP[d]),",
        ("tests/test_core.py::test_both_paths_agree_along_random_games[halma]",),
    ),
    Mutation(
        "halma-near",
        "Halma's compiled evaluation measures the same pieces to the target's holes",
        SRC + "csrc/halma.c",
        "            if (DIST[p][c] <= NEAR_CORNER)",
        "            if (DIST[p][c] < NEAR_CORNER)",
        ("tests/test_core.py::test_both_paths_agree_deep_into_long_games[halma]",),
    ),
)
MUTATIONS = MUTATIONS + EXTRA + STRENGTH


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
