"""A sixth fresh probe: 20 bugs in modules no earlier probe put a bug in (the built-in
engine's seat and the person's, the operations view, the replay page's frames, the
worker API's messages, program packing, the contest's languages and config numbers,
the standings board, signed calls, cgroups' OOM reading, the file seat's words, the
steering agent, and four C files: the search, the checkers and Chinese checkers
kernels and the module's argument check). Written before any test for them; each is
put in, tested and taken out.

    python scripts/mutate_sixth.py                  # every mutation
    python scripts/mutate_sixth.py ops-loser        # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import CSRC, HOST, REFEREE, SRC, Mutation, main

CORE_TESTS = ("tests/test_core.py", "tests/test_perft_files.py")

MUTATIONS = (
    Mutation(
        "seat-out-of-time",
        "a built-in engine's move is judged out of time by its own clock",
        REFEREE + "seat.py",
        "out_of_time=clock.base_spent(self.seat, used)",
        "out_of_time=clock.base_spent(1 - self.seat, used)",
        ("tests/games/chinese_checkers/test_protocol.py", "tests/test_race.py"),
    ),
    Mutation(
        "seat-rewind",
        "a built-in engine whose opponent takes back a move forgets what it saw",
        REFEREE + "seat.py",
        "        self.agent.reset(self.game, self.seat, self.seed)\n        return True",
        "        return True",
        ("tests/test_human.py", "tests/web/test_api.py"),
    ),
    Mutation(
        "human-undo-nothing",
        "a person with no move of their own to take back is told so",
        REFEREE + "human.py",
        "                if self.moved == 0:",
        "                if self.moved < 0:",
        ("tests/test_human.py",),
    ),
    Mutation(
        "human-shows-own",
        "the terminal shows the opponent's moves, not the person's own",
        REFEREE + "human.py",
        "if isinstance(event, MovePlayed) and event.seat != human:",
        "if isinstance(event, MovePlayed) and event.seat == human:",
        ("tests/test_human.py",),
    ),
    Mutation(
        "ops-loser",
        "the operations view charges an irregular game to its loser",
        HOST + "operations.py",
        "case((Game.winner == 0, Game.second_account_id), else_=Game.first_account_id)",
        "case((Game.winner == 0, Game.first_account_id), else_=Game.second_account_id)",
        ("tests/host/test_operations.py", "tests/host/test_pages.py"),
    ),
    Mutation(
        "replay-frame-seat",
        "a replay frame names the seat that played its move",
        SRC + "web/replays.py",
        '                "seat": seat,',
        '                "seat": game.to_move(s),',
        ("tests/web/test_stored_games.py", "tests/test_drop_game.py"),
    ),
    Mutation(
        "wire-culprit",
        "a worker's failure names a seat 0 or 1, or none",
        HOST + "wire.py",
        "culprit: int | None = Field(default=None, ge=0, le=1)",
        "culprit: int | None = Field(default=None, ge=0, le=2)",
        ("tests/host/test_guards.py", "tests/host/test_queue.py"),
    ),
    Mutation(
        "pack-exec-bit",
        "a packed program keeps its executable bit",
        HOST + "programs.py",
        "        info.mode = 0o755 if status.st_mode & 0o100 else 0o644",
        "        info.mode = 0o644",
        ("tests/host/test_programs.py",),
    ),
    Mutation(
        "pack-links",
        "a link in a build is left out of its packed program",
        HOST + "programs.py",
        "if not path.is_symlink() and (path.is_dir() or path.is_file()):",
        "if path.is_dir() or path.is_file():",
        ("tests/host/test_programs.py",),
    ),
    Mutation(
        "language-tools",
        "a language's own built program is not a tool the host must have",
        HOST + "languages.py",
        '                if words and not words[0].startswith("./"):',
        "                if words:",
        ("tests/host/test_about.py", "tests/host/test_kits.py"),
    ),
    Mutation(
        "standings-number",
        "each refresh of the standings has a new number (streams send what changed)",
        HOST + "standings.py",
        "            number = self._payload[0] + 1 if self._payload is not None else 1",
        "            number = 1",
        ("tests/host/test_standings.py", "tests/host/test_pages.py"),
    ),
    Mutation(
        "nonce-length",
        "a signed call's nonce is at most 64 characters",
        HOST + "request_signing.py",
        "        if len(signed.nonce) > 64 or len(signed.key_id) > 64:",
        "        if len(signed.key_id) > 64:",
        ("tests/host/test_worker_tokens.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "oom-zero",
        "a cgroup whose OOM count is 0 killed nothing",
        REFEREE + "cgroups.py",
        'if key == "oom_kill" and int(value) > 0:',
        'if key == "oom_kill" and int(value) >= 0:',
        ("tests/referee/test_faults.py", "tests/referee/test_process.py"),
    ),
    Mutation(
        "file-seat-signal",
        "a run-once program killed by a signal, with no output, crashed",
        REFEREE + "file_seat.py",
        "            if result.exit_code:",
        "            if result.exit_code > 0:",
        ("tests/games/halma/test_protocol.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "steering-worst",
        "the steering agent plays the move it likes most",
        SRC + "agents/steering.py",
        "        best = max(score for score, _ in scored)",
        "        best = min(score for score, _ in scored)",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "config-bool",
        "a contest file's true is no number",
        HOST + "config.py",
        "if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:",
        "if not isinstance(value, int) or not low <= value <= high:",
        ("tests/host/test_config.py", "tests/test_mistakes.py"),
    ),
    Mutation(
        "search-killers",
        "the search keeps two killer moves a ply",
        CSRC + "search.c",
        "if (nk < 2) S->nkillers[ply] = nk + 1;",
        "if (nk < 1) S->nkillers[ply] = nk + 1;",
        ("tests/agents/test_search_nodes.py", "tests/agents/test_reductions.py"),
    ),
    Mutation(
        "checkers-quiet",
        "a man's move resets the compiled checkers' quiet count and history",
        CSRC + "checkers.c",
        "    if (njumps || !was_king) {",
        "    if (njumps) {",
        (*CORE_TESTS, "tests/games/checkers"),
    ),
    Mutation(
        "cc-clear",
        "a long hop in the compiled Chinese checkers needs every hole to its landing empty",
        CSRC + "chinese_checkers.c",
        "for (int i = k; i < 2 * k; i++) m |= ONE << RAY[c][l][i];",
        "for (int i = k; i < 2 * k - 1; i++) m |= ONE << RAY[c][l][i];",
        (*CORE_TESTS, "tests/games/chinese_checkers"),
    ),
    Mutation(
        "module-arity",
        "a compiled call with arguments too many is refused",
        CSRC + "module.c",
        "    if (n != want) {",
        "    if (n < want) {",
        ("tests/test_core.py",),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
