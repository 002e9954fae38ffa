"""A third fresh probe: 20 bugs spread over parts no earlier probe visited (the
statistics of tournaments and ratings, the clock's periods, schedules and openings,
the contest's calendar, pairing and upload limits, the workers' signed calls, the
records' seal, a referee's suspension and Halma's CPU count, take-backs in the
browser, check-agent's verdict, and the Votey and Alquerque kernels). Written before
any test for them; each is put in, tested and taken out.

    python scripts/mutate_spread.py               # every mutation
    python scripts/mutate_spread.py period-carry  # only these

See ``mutation.py`` for how a mutation is run (a bug in a C source is built first).
"""

from __future__ import annotations

import sys

from mutation import HOST, SRC, Mutation, main

TOURNAMENT = ("tests/tournament/",)

MUTATIONS = (
    Mutation(
        "los-sign",
        "the likelihood of superiority is high when the score is above one half",
        SRC + "tournament/pentanomial.py",
        "        return 0.5 * math.erfc(-z / math.sqrt(2))",
        "        return 0.5 * math.erfc(z / math.sqrt(2))",
        TOURNAMENT,
    ),
    Mutation(
        "elo-error-shrinks",
        "an Elo estimate's error bar narrows as games are added",
        SRC + "tournament/ratings.py",
        "    se = math.sqrt(var / n)",
        "    se = math.sqrt(var)",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "sprt-equal-bounds",
        "an SPRT whose two hypotheses are the same Elo is refused",
        SRC + "tournament/sprt.py",
        "        if test.elo0 >= test.elo1:",
        "        if test.elo0 > test.elo1:",
        (*TOURNAMENT, "tests/test_mistakes.py"),
    ),
    Mutation(
        "schedule-colours",
        "each pairing is played with both colours",
        SRC + "tournament/schedule.py",
        "        for seats in ((a, b), (b, a)):",
        "        for seats in ((a, b), (a, b)):",
        TOURNAMENT,
    ),
    Mutation(
        "opening-finished",
        "an opening file's finished position is refused",
        SRC + "tournament/openings.py",
        "        if game.outcome(s) is not None:",
        "        if False:",
        (*TOURNAMENT, "tests/test_mistakes.py", "tests/test_bad_input.py"),
    ),
    Mutation(
        "period-carry",
        "time left at the end of a period of moves is kept into the next",
        SRC + "clock.py",
        "                remaining[p] += tc.base",
        "                remaining[p] = tc.base",
        ("tests/test_clock.py", "tests/test_record.py"),
    ),
    Mutation(
        "seal-compare",
        "a record's seal is checked against its fields, not merely present",
        SRC + "record.py",
        "        return self.seal is not None and hmac.compare_digest(self.seal, "
        "self.seal_with(key))",
        "        return self.seal is not None",
        ("tests/test_record.py", "tests/test_cli.py"),
    ),
    Mutation(
        "duration-minimum",
        "a schedule more often than once a minute is refused",
        HOST + "calendar.py",
        "    if span < timedelta(minutes=1):",
        "    if span < timedelta(seconds=1):",
        ("tests/host/test_config.py", "tests/host/test_final.py"),
    ),
    Mutation(
        "opens-instant",
        "uploads open at exactly ``opens``",
        HOST + "calendar.py",
        "        if self.opens is not None and at < self.opens:",
        "        if self.opens is not None and at <= self.opens:",
        ("tests/host/test_final.py", "tests/host/test_config.py", "tests/host/test_contest.py"),
    ),
    Mutation(
        "placement-one",
        "a ladder's newcomer asked for a single placement game still gets an opponent",
        HOST + "pairing.py",
        "    return [(newcomer, rated[i]) for i in order[: max(1, games // 2)]]",
        "    return [(newcomer, rated[i]) for i in order[: games // 2]]",
        (HOST + "pairing.py", "tests/host/test_pairing.py"),
    ),
    Mutation(
        "versions-per-hour",
        "an entrant's uploads are held to the contest's number per hour",
        HOST + "intake.py",
        "    if (recent or 0) >= config.limits.versions_per_hour:",
        "    if (recent or 0) > config.limits.versions_per_hour:",
        ("tests/host/test_guards.py", "tests/host/test_contest.py"),
    ),
    Mutation(
        "password-minimum",
        "a password shorter than the minimum is refused",
        HOST + "accounts.py",
        "    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:",
        "    if not len(password) <= MAX_PASSWORD:",
        ("tests/host/test_accounts.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "call-from-the-past",
        "a worker's call dated long before the server's clock is refused",
        HOST + "workers.py",
        "    if not math.isfinite(off) or abs(off) > WINDOW:",
        "    if not math.isfinite(off) or off > WINDOW:",
        ("tests/host/test_worker_tokens.py", "tests/host/test_worker_unit.py"),
    ),
    Mutation(
        "tallies-irregular",
        "a pair's tally counts each side's irregular losses apart",
        HOST + "tallies.py",
        "        int(irregular and winner == 1),\n        int(irregular and winner == 0),",
        "        int(irregular and winner == 0),\n        int(irregular and winner == 1),",
        ("tests/host/test_tallies.py", "tests/host/test_operations.py"),
    ),
    Mutation(
        "suspend-after-reply",
        "a program that has replied is suspended until its next turn",
        SRC + "referee/line_seat.py",
        "        if self.supervision.suspend:\n            transport.suspend()\n"
        "        return Reply(line, used)",
        "        return Reply(line, used)",
        ("tests/referee/test_suspension.py", "tests/games/chinese_checkers/test_protocol.py"),
    ),
    Mutation(
        "halma-exact-cpu",
        "a Halma program's CPU is counted once more after it exits",
        SRC + "referee/filerun.py",
        "        check_limits(process, self.name, cpu_limit, 0.0, None)",
        "        pass",
        ("tests/games/halma/test_protocol.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "undo-engine-first",
        "take-back refuses when the person has no move of their own to take back",
        SRC + "web/sessions.py",
        "        if not any(p.seat == self.human for p in self.plies):",
        "        if not self.plies:",
        ("tests/web/test_api.py",),
    ),
    Mutation(
        "check-agent-verdict",
        "check-agent fails a program that lost by a fault of its own",
        SRC + "play/checkagent.py",
        "    lost = out.reason.is_fault and out.winner == 1 - check.seat",
        "    lost = out.reason.is_fault and out.winner == check.seat",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "c-alquerque-back",
        "an Alquerque piece may not step straight back where it came from (kernel)",
        SRC + "csrc/alquerque.c",
        "            if (t >= 0 && ((empty >> t) & 1) && !goes_back(s, c, t)) "
        "path_step(&out[n++], c, t, d);",
        "            if (t >= 0 && ((empty >> t) & 1)) path_step(&out[n++], c, t, d);",
        ("tests/test_core.py", "tests/games/alquerque/"),
    ),
    Mutation(
        "c-votey-has-move",
        "a Votey side whose only moves would jump enemies has none (kernel)",
        SRC + "csrc/votey.c",
        "            if (t >= 0 && !((own >> t) & 1) && !(BETWEEN[cell][d][k] & enemy)) return 1;",
        "            if (t >= 0 && !((own >> t) & 1)) return 1;",
        ("tests/test_core.py", "tests/games/votey/"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
