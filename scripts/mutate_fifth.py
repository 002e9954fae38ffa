"""A fifth fresh probe: 20 bugs in modules no earlier probe put a bug in (sign-in
sessions, the contest's signing key and private files, the contest page's text, the
referee's boxes, transcripts and words, perft, the crossing games' ending, the layer
check, the Votey protocol's lines, a program's own budget, the tournament's agents,
the browser's JSON, the process pool and the versus page). Written before any test
for them; each is put in, tested and taken out.

    python scripts/mutate_fifth.py                  # every mutation
    python scripts/mutate_fifth.py session-expiry   # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import HOST, REFEREE, SRC, Mutation, main

MUTATIONS = (
    Mutation(
        "session-expiry",
        "a sign-in session ends when it expires",
        HOST + "sessions.py",
        "    return stored_utc(expires) <= now()",
        "    return False",
        ("tests/host/test_keys_and_sessions.py", "tests/host/test_accounts.py"),
    ),
    Mutation(
        "signed-already",
        "a stored record is signed unless it carries a signature, whatever its text says",
        HOST + "signing.py",
        '    if \',"signature":"\' in text:',
        "    if '\"signature\"' in text:",
        ("tests/host/test_keys_and_sessions.py", "tests/host/test_export.py"),
    ),
    Mutation(
        "public-key-match",
        "a public key file that is not the private key's is written again",
        HOST + "signing.py",
        "        if not public.exists() or public.read_text() != key.public_pem:",
        "        if not public.exists():",
        ("tests/host/test_keys_and_sessions.py", "tests/host/test_export.py"),
    ),
    Mutation(
        "key-file-private",
        "the contest's secret files are readable by their owner only",
        HOST + "storage.py",
        "        path.chmod(0o600)",
        "        path.chmod(0o644)",
        ("tests/host/test_keys_and_sessions.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        "about-html",
        "a contest description's HTML is shown as text, never run",
        HOST + "about.py",
        'MarkdownIt("commonmark", {"html": False})',
        'MarkdownIt("commonmark", {"html": True})',
        ("tests/host/test_about.py",),
    ),
    Mutation(
        "about-suspended",
        "the contest page says the waiting program is suspended where it is",
        HOST + "about.py",
        "    if supervision.suspend:\n        text += ",
        "    if False:\n        text += ",
        ("tests/host/test_about.py", "tests/host/test_contest.py"),
    ),
    Mutation(
        "box-sweep-live",
        "only the boxes of referees that are gone are swept",
        REFEREE + "box.py",
        "            if owner.isdigit() and not psutil.pid_exists(int(owner)):",
        "            if owner.isdigit():",
        ("tests/referee/test_box_sweep.py", "tests/referee/test_isolation.py"),
    ),
    Mutation(
        "box-temp-private",
        "a program with a uid of its own has temporary folders no other program can enter",
        REFEREE + "box.py",
        "            os.chmod(folder, 0o700 if self.lease is not None else 0o1777)",
        "            os.chmod(folder, 0o755 if self.lease is not None else 0o1777)",
        ("tests/referee/test_program_world.py", "tests/referee/test_uids.py"),
    ),
    Mutation(
        "stderr-cap",
        "a transcript keeps a program's standard error up to its cap only",
        REFEREE + "transcript.py",
        "        if self.stderr_bytes <= STDERR_BYTES:",
        "        if True:",
        ("tests/referee/test_transcript.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "one-line",
        "a text of several lines is shown on one line",
        REFEREE + "events.py",
        '    return " / ".join(line.strip() for line in text.splitlines())'
        ' if "\\n" in text else text',
        "    return text",
        (REFEREE + "events.py", "tests/test_human.py", "tests/test_cli.py"),
    ),
    Mutation(
        "votey-dev-zero",
        "only white's first line may be the sheet's development 0",
        SRC + "games/votey/referee.py",
        '        return not (first and self.seat == 1 and line.strip() == "0")',
        '        return not (first and line.strip() == "0")',
        ("tests/games/votey/test_protocol.py", "tests/referee/test_votey_faults.py"),
    ),
    Mutation(
        "votey-stop-line",
        "the winner of a fault is told -1 to stop",
        SRC + "games/votey/referee.py",
        "and outcome.winner != self.seat:",
        "and outcome.winner == self.seat:",
        ("tests/games/votey/test_protocol.py", "tests/referee/test_votey_faults.py"),
    ),
    Mutation(
        "program-budget",
        "a built-in run as a program takes off the time its move has already cost",
        SRC + "agents/program.py",
        "            return replace(limit, time=max(MIN_BUDGET, limit.time - spent))",
        "            return limit",
        ("tests/agents/test_program_clock.py",),
    ),
    Mutation(
        "perft-zero",
        "perft at depth 0 counts the position itself",
        SRC + "perft.py",
        "        return len(moves) if depth == 1 else 1",
        "        return len(moves)",
        ("tests/test_perft_files.py", "tests/test_toy_game.py"),
    ),
    Mutation(
        "crossing-stuck",
        "a crossing game's side with no move loses",
        SRC + "crossing.py",
        "        return Outcome(1 - s.to_move, Reason.NO_MOVES) if stuck else None",
        "        return Outcome(s.to_move, Reason.NO_MOVES) if stuck else None",
        ("tests/games/halma/", "tests/games/chinese_checkers/"),
    ),
    Mutation(
        "layers-game-of",
        "the layer check knows which game a file belongs to",
        SRC + "tools/layers.py",
        '    return parts[1] if len(parts) > 2 and parts[0] == "games" else None',
        "    return None",
        ("tests/test_layers.py",),
    ),
    Mutation(
        "one-agent",
        "a tournament of one agent is refused",
        SRC + "tournament/run.py",
        "    if len(unique) < 2:",
        "    if len(unique) < 1:",
        ("tests/test_mistakes.py", "tests/tournament/test_tournament.py"),
    ),
    Mutation(
        "json-finite",
        "the browser's JSON carries no infinity (an unbeaten agent's Elo)",
        SRC + "web/routes/records.py",
        "    if isinstance(value, float) and not math.isfinite(value):",
        "    if False:",
        (SRC + "web/routes/records.py", "tests/web/test_stored_games.py"),
    ),
    Mutation(
        "pool-slot",
        "a game worker that replaces another takes the free slot (its cores)",
        SRC + "play/pool.py",
        "        slot = next(i for i in range(len(held) + 1) if i not in held)",
        "        slot = len(held)",
        ("tests/play/test_pool.py", "tests/test_pin.py", "tests/tournament/test_worker_deaths.py"),
    ),
    Mutation(
        "versus-built",
        "an entrant whose program is not built is no opponent to play",
        HOST + "versus.py",
        "    if version is None or version.program_sha256 is None:",
        "    if version is None:",
        ("tests/host/test_versus.py", "tests/host/test_guards.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
