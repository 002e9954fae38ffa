"""A fresh probe of 20 bugs at the edges the earlier probes did not reach: the compiled
core's kernels and search, the contract's refusals, the learning environments (the
opponent's seat, varied openings, the planes, the action numbers), the contest
server's schedule, freeze, candidates' privacy, invitations, worker and archive
checks, and the referee's words. Written before any test for them; each is put in,
tested and taken out.

    python scripts/mutate_edges.py                  # every mutation
    python scripts/mutate_edges.py c-mate-distance  # only these

See ``mutation.py`` for how a mutation is run (a bug in a C source is built first).
"""

from __future__ import annotations

import sys

from mutation import CSRC, HOST, SRC, Mutation, main

CORE = ("tests/test_core.py",)
ENVS = ("tests/test_envs.py", "tests/test_drop_game.py")
MISTAKES = ("tests/test_mistakes.py", "tests/test_bad_input.py")

MUTATIONS = (
    Mutation(
        "c-mate-distance",
        "the compiled search prefers the quicker win (a win scored less each ply away)",
        CSRC + "search.c",
        "    case OUT_WIN: return WIN - ply;",
        "    case OUT_WIN: return WIN;",
        (*CORE, "tests/agents/test_search_exact.py", "tests/agents/test_search_nodes.py"),
    ),
    Mutation(
        "c-crown-on-capture",
        "a checkers man reaching the far row by a capture is crowned (compiled kernel)",
        CSRC + "checkers.c",
        "    else if ((CROWN_ROW[p] >> target) & 1)",
        "    else if (!njumps && (CROWN_ROW[p] >> target) & 1)",
        (*CORE, "tests/games/checkers/"),
    ),
    Mutation(
        "c-both-home",
        "Chinese checkers: both sides home after the second's move is a draw (kernel)",
        CSRC + "chinese_checkers.c",
        "        if (first && second) return OUT_DRAW;",
        "        if (first && second) return OUT_LOSS;",
        (*CORE, "tests/games/chinese_checkers/"),
    ),
    Mutation(
        "c-camp-within",
        "Halma camp rule 1(b): moving further from the corner within the camp counts (kernel)",
        CSRC + "halma.c",
        "            if (!empty(band(band(ends[i], CAMP[p]), FURTHER[p][pieces[i]])))"
        " any_within = 1;",
        "            if (0) any_within = 1;",
        (*CORE, "tests/games/halma/"),
    ),
    Mutation(
        "whole-number-option",
        "a rule option that is a whole number refuses 2.5",
        SRC + "contract/spec.py",
        "        if self.type is int and converted != value:",
        "        if False:",
        ("tests/test_contract.py", *MISTAKES, "tests/test_cli.py"),
    ),
    Mutation(
        "crlf-on-path",
        "a program found on PATH whose #! line ends in a carriage return is named so",
        SRC + "contract/programs.py",
        '    return "not found on PATH" if found is None else windows_line_ends(found)',
        '    return "not found on PATH" if found is None else None',
        (*MISTAKES, "tests/referee/test_process.py", "tests/test_check_agent.py"),
    ),
    Mutation(
        "seat-number",
        "a side named by number counts from 1 (1 is the first to move)",
        SRC + "contract/spec.py",
        "            if key in (name, str(i + 1)):",
        "            if key in (name, str(i)):",
        (*MISTAKES, "tests/test_cli.py", "tests/test_human.py", "tests/test_contract.py"),
    ),
    Mutation(
        "env-action-bound",
        "an action number past the last is not one of the game's actions",
        SRC + "envs/aec.py",
        "        return number if 0 <= number < self.encoding.actions else None",
        "        return number if 0 <= number <= self.encoding.actions else None",
        ENVS,
    ),
    Mutation(
        "env-opponent-seat",
        "the Gymnasium opponent plays the seat the learner does not",
        SRC + "envs/single.py",
        "        self.opponent.reset(self.game.rules, 1 - self.seat, drawn)",
        "        self.opponent.reset(self.game.rules, self.seat, drawn)",
        ENVS,
    ),
    Mutation(
        "env-opening-seed",
        "the random opening plies are drawn from the reset's seed (varied openings)",
        SRC + "envs/aec.py",
        "        rng = random.Random(seed)",
        "        rng = random.Random(0)",
        ENVS,
    ),
    Mutation(
        "env-board-plane",
        "the board plane marks the cells that exist, not the whole rectangle",
        SRC + "envs/encoding.py",
        "        out[:, :, 4] = self._board",
        "        out[:, :, 4] = 1",
        ENVS,
    ),
    Mutation(
        "freeze-instant",
        "a version uploaded at the freeze's instant is the one frozen for the final",
        HOST + "version_marks.py",
        "        before = [v for v in entered if stored_utc(v.uploaded) <= at]",
        "        before = [v for v in entered if stored_utc(v.uploaded) < at]",
        ("tests/host/test_marks_and_candidates.py", "tests/host/test_final.py"),
    ),
    Mutation(
        "schedule-first",
        "no scheduled test round starts before [schedule] first",
        HOST + "rounds.py",
        "    return due if cal.first is None else max(due, cal.first)",
        "    return due",
        ("tests/host/test_rounds.py", "tests/host/test_final.py"),
    ),
    Mutation(
        "candidate-second-owner",
        "a candidate's owner sees its evaluation games where it plays second",
        HOST + "access.py",
        "    if owner is None and game.second_id == game.round.candidate_id:",
        "    if owner is None and game.second_id != game.round.candidate_id:",
        ("tests/host/test_marks_and_candidates.py", "tests/host/test_candidates.py"),
    ),
    Mutation(
        "worker-refusal-once",
        "a worker names the game of a refused result once",
        HOST + "worker.py",
        "            why = error_of(response).removeprefix(f\"game {data['game']}: \")",
        "            why = error_of(response)",
        ("tests/host/test_workers.py", "tests/host/test_worker_unit.py"),
    ),
    Mutation(
        "invitation-once",
        "an invitation code is shown once, then gone from the session",
        HOST + "routes/organiser.py",
        '        invitation=request.session.pop("invitation", ""),',
        '        invitation=request.session.get("invitation", ""),',
        ("tests/host/test_accounts.py", "tests/host/test_pages.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "record-seed",
        "a worker's record must carry the game's own seed",
        HOST + "queue.py",
        "        if record.seed != self.seed:",
        "        if False:",
        ("tests/host/test_queue.py", "tests/host/test_workers.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "archive-round",
        "the archive check refuses a record moved to another round",
        HOST + "export_check.py",
        '                if record.round != rnd["number"] or owners != (a, b):',
        "                if owners != (a, b):",
        ("tests/host/test_export.py", "tests/host/test_archive.py"),
    ),
    Mutation(
        "runnable-not-idle",
        "a program runnable when stopped is starved, not idle",
        SRC + "referee/pipe.py",
        "    if share < 0.05 and not runnable and wait < 0.05:",
        "    if share < 0.05 and wait < 0.05:",
        (SRC + "referee/pipe.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "shown-command",
        "a transcript names a contest program by its run command, not the sandbox's",
        SRC + "referee/line_seat.py",
        '            command = self.program.shown or " ".join(program_argv(self.program))',
        '            command = " ".join(program_argv(self.program))',
        ("tests/host/test_programs.py", "tests/host/test_browser.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
