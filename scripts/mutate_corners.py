"""A fourth fresh probe: 20 bugs in corners no earlier probe visited (a candidate's
opponents, resuming a tournament, Halma's and Chinese checkers' notation, the
contests' tie and time-left rulings, a program's descendants, an upload's language,
a match's per-colour record, the ratings' points, the greedy engine, the browser's
hop chains and engine limits, the report's pair scores, the starter kits, the
openings drawn, and the exported archive's check). Written before any test for
them; each is put in, tested and taken out.

    python scripts/mutate_corners.py                    # every mutation
    python scripts/mutate_corners.py candidate-opponents  # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import HOST, SRC, Mutation, main

TOURNAMENT = ("tests/tournament/",)

MUTATIONS = (
    Mutation(
        "candidate-opponents",
        "a candidate is evaluated against the other entrants, not its owner's own version",
        HOST + "candidates.py",
        "    others = [e.version for e in field if e.account != version.account_id]",
        "    others = [e.version for e in field if e.version != version.id]",
        ("tests/host/test_candidates.py", "tests/host/test_marks_and_candidates.py"),
    ),
    Mutation(
        "resume-new-setting",
        "a tournament resumed with a setting its first run did not have is refused",
        SRC + "tournament/store.py",
        "        for key in sorted(set(found.settings) | set(wanted)):",
        "        for key in sorted(set(found.settings) & set(wanted)):",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "halma-hop-shape",
        "a Halma J line goes two squares in a straight or diagonal line",
        SRC + "games/halma/notation.py",
        "    return (dx, dy) != (0, 0) and abs(dx) in (0, 2) and abs(dy) in (0, 2)",
        "    return (dx, dy) != (0, 0) and abs(dx) in (0, 1, 2) and abs(dy) in (0, 1, 2)",
        ("tests/games/halma/",),
    ),
    Mutation(
        "halma-step-alone",
        "a Halma E line is a move by itself",
        SRC + "games/halma/notation.py",
        '        if len(lines) > 1:\n            raise _invalid(text, "a step (E) is a move by',
        '        if len(lines) > 2:\n            raise _invalid(text, "a step (E) is a move by',
        ("tests/games/halma/", "tests/test_notation_corpora.py"),
    ),
    Mutation(
        "cc-second-numbering",
        "the second player numbers the holes from its own side",
        SRC + "games/chinese_checkers/notation.py",
        "    return c + 1 if seat == 0 else CELLS - c",
        "    return c + 1 if seat == 0 else CELLS - c - 1",
        ("tests/games/chinese_checkers/", "tests/test_notation_corpora.py"),
    ),
    Mutation(
        "alquerque-tie-points",
        "in an Alquerque tie each side scores 7 minus the opponent's pieces",
        SRC + "games/alquerque/contest.py",
        "    return float(max(0, 7 - black)), float(max(0, 7 - white))",
        "    return float(max(0, 7 - white)), float(max(0, 7 - black))",
        (
            SRC + "games/alquerque/contest.py",
            "tests/games/alquerque/",
            "tests/host/test_ranking.py",
        ),
    ),
    Mutation(
        "halma-time-left",
        "at Halma's move limit the side with more time left wins",
        SRC + "games/halma/contest.py",
        "    winner: Player = 0 if left[0] > left[1] else 1",
        "    winner: Player = 0 if left[0] < left[1] else 1",
        ("tests/games/halma/", "tests/test_record.py"),
    ),
    Mutation(
        "descendants-every-branch",
        "every branch of a program's process tree is searched for descendants",
        SRC + "referee/descendants.py",
        "        below = [c for p in frontier for c in children(p) if c not in seen]",
        "        below = [c for p in frontier[:1] for c in children(p) if c not in seen]",
        ("tests/referee/test_descendants.py", "tests/referee/test_escapes.py"),
    ),
    Mutation(
        "upload-language-tie",
        "an archive's language tie is broken by the main file a language names",
        HOST + "archive.py",
        "    chosen = next((key for key in tied if key in mains), tied[0])",
        "    chosen = tied[0]",
        ("tests/host/test_archive.py", "tests/host/test_programs.py"),
    ),
    Mutation(
        "resume-skips-played",
        "a resumed tournament plays only the games not yet stored",
        SRC + "tournament/run.py",
        "    return [(p, job) for p, job in games if p.number not in done]",
        "    return list(games)",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "score-by-colour",
        "a match's record in one colour counts that colour's games only",
        SRC + "tournament/score.py",
        "            if a == agent and (seat is None or s == seat):",
        "            if a == agent:",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "ratings-points-earned",
        "a rating's points are what the agent earned in either seat",
        SRC + "tournament/bradley_terry.py",
        "    earned = np.bincount(a, s, agents) + np.bincount(b, n - s, agents)",
        "    earned = np.bincount(a, s, agents) + np.bincount(b, s, agents)",
        (*TOURNAMENT, "tests/host/test_standings.py"),
    ),
    Mutation(
        "greedy-win-sign",
        "the greedy engine scores a won position as a win for the side that won",
        SRC + "agents/greedy.py",
        "            return WIN if out.winner == game.to_move(s) else -WIN",
        "            return -WIN if out.winner == game.to_move(s) else WIN",
        ("tests/agents/",),
    ),
    Mutation(
        "hop-chain-clicks",
        "clicks in the browser make a hop chain only through hops",
        SRC + "contract/layout.py",
        "        if len(clicks) > 1 and not self._chained(s, clicks):",
        "        if False:",
        ("tests/web/test_api.py", "tests/test_drop_game.py", "tests/test_envs.py"),
    ),
    Mutation(
        "web-engine-limits",
        "the browser's engines are held to the limits a visitor may ask",
        SRC + "web/served.py",
        "            if value > WEB_OPTION_LIMITS.get(key, value):",
        "            if False:",
        ("tests/web/test_api.py", "tests/web/test_serve_process.py"),
    ),
    Mutation(
        "report-pair-side",
        "a report's pair scores are read from the lower-numbered agent's side",
        SRC + "tournament/report.py",
        "append(pa if a < b else (1 - pa[0], 1 - pa[1]))",
        "append(pa)",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "kit-language",
        "a starter kit's file is served from its own language's kit",
        HOST + "kits.py",
        "        if kit.language == language and name in kit.files:",
        "        if name in kit.files:",
        ("tests/host/test_kits.py", "tests/test_kit_command.py"),
    ),
    Mutation(
        "opening-has-choice",
        "a random opening leaves the side to move more than one move",
        SRC + "tournament/openings.py",
        "        if game.outcome(s) is None and len(game.legal_moves(s)) > 1:",
        "        if game.outcome(s) is None:",
        (*TOURNAMENT, "tests/test_cli.py"),
    ),
    Mutation(
        "export-record-twice",
        "an archive whose rounds list one record twice is refused",
        HOST + "export_check.py",
        '                if record is None or g["record"] in used:',
        "                if record is None:",
        ("tests/host/test_export.py",),
    ),
    Mutation(
        "export-orphans",
        "an archive holding a game in no round is refused",
        HOST + "export_check.py",
        "    if len(used) != len(records):",
        "    if len(used) > len(records):",
        ("tests/host/test_export.py",),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
