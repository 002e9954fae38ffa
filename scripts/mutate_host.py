"""Fresh bugs in the contest server's guards, each put in, tested and taken out: the
check that every guard of ``arbiter host`` has a test that fails without it.

    python scripts/mutate_host.py            # every mutation
    python scripts/mutate_host.py csrf seed  # only these

Each mutation replaces one exact piece of a source file (found exactly once) with a
plausible bug and runs the tests that should catch it; the file is restored whatever
happens. A mutation the tests do not catch is a guard without a test: the script
says which and exits with 1. Tests run on SQLite only, in one process.
"""

from __future__ import annotations

import sys

from mutation import Mutation, main

HOST = "src/arbiter/host/"

GUARDS = "tests/host/test_guards.py"
QUEUE = "tests/host/test_queue.py"
FINAL = "tests/host/test_final.py"
CANDIDATES = "tests/host/test_candidates.py"
EXPORT = "tests/host/test_export.py"
TOKENS = "tests/host/test_worker_tokens.py"
SETTLE = "tests/host/test_settle.py"
WORKERS = "tests/host/test_workers.py"
POSING = "test_a_server_posing_as_the_contest_learns_nothing_a_worker_could_be_acted_as_with"

MUTATIONS = (
    Mutation(
        "csrf",
        "a form without its CSRF token is refused",
        HOST + "deps.py",
        "    if not isinstance(expected, str) or not isinstance(given, str):\n"
        '        raise Refused(403, "the form\'s CSRF token is missing: reload the page")\n'
        "    if not secrets.compare_digest(expected, given):",
        "    if isinstance(given, str) and not secrets.compare_digest(str(expected), given):",
        (GUARDS,),
    ),
    Mutation(
        "organiser",
        "the organiser's pages and actions are the organiser's alone",
        HOST + "deps.py",
        "    if not access.is_organiser(who):",
        "    if who is None:",
        (GUARDS,),
    ),
    Mutation(
        "owner",
        "a contestant's sources, checks and logs are their own",
        HOST + "access.py",
        "viewer is not None and (viewer.id == version.account_id or is_organiser(viewer))",
        "viewer is not None",
        (GUARDS,),
    ),
    Mutation(
        "logout",
        "log-out ends the session on the server",
        HOST + "sessions.py",
        "        session.execute(delete(SignedIn).where(SignedIn.id == _key(secret)))",
        "        pass",
        (GUARDS,),
    ),
    Mutation(
        "end-sessions",
        "a new password, the organiser and disqualification end an account's sessions",
        HOST + "sessions.py",
        "    if ended:\n        session.execute(",
        "    if False:\n        session.execute(",
        (GUARDS,),
    ),
    Mutation(
        "disqualified",
        "a disqualified contestant is never signed in",
        HOST + "deps.py",
        "    if account is None or (account.disqualified and not access.is_organiser(account)):",
        "    if account is None:",
        (GUARDS,),
    ),
    Mutation(
        "headers",
        "every answer carries the security headers",
        HOST + "app.py",
        "                    if name not in headers:\n"
        "                        headers[name] = value",
        "                    pass",
        (GUARDS,),
    ),
    Mutation(
        "upload-limit",
        "uploads are limited per hour",
        HOST + "intake.py",
        "    if (recent or 0) >= config.limits.versions_per_hour:",
        "    if (recent or 0) > config.limits.versions_per_hour:",
        (GUARDS,),
    ),
    Mutation(
        "log-in-delay",
        "failed log-ins slow their address",
        HOST + "accounts.py",
        "        if found.count >= free:",
        "        if found.count > free:",
        ("tests/host/test_accounts.py",),
    ),
    Mutation(
        "one-process",
        "one live worker process per token",
        HOST + "workers.py",
        "    if worker.instance not in (None, call.instance) and _recent(",
        "    if False and _recent(",
        ("tests/host/test_worker_tokens.py", GUARDS),
    ),
    Mutation(
        "revoked",
        "a revoked token opens nothing",
        HOST + "workers.py",
        "    if worker.revoked:",
        "    if False:",
        ("tests/host/test_worker_tokens.py", GUARDS),
    ),
    Mutation(
        "seed",
        "a result is refused unless it is the leased game's seed",
        HOST + "queue.py",
        "    if record.seed != game.seed:",
        "    if False:",
        (QUEUE,),
    ),
    Mutation(
        "start",
        "a result is refused unless it starts where the leased game does",
        HOST + "queue.py",
        "        or record.start != game.start\n",
        "",
        (QUEUE,),
    ),
    Mutation(
        "options",
        "a result is refused if it changes the rules",
        HOST + "queue.py",
        "    if record.options:",
        "    if False:",
        (QUEUE,),
    ),
    Mutation(
        "forfeit",
        "a worker cannot forfeit a game",
        HOST + "queue.py",
        "    if record.reason is Reason.FORFEIT:",
        "    if False:",
        ("tests/host/test_settle.py",),
    ),
    Mutation(
        "failures",
        "a game is settled only once max_failures workers failed it",
        HOST + "settle.py",
        "    if game.failures < config.max_failures:",
        "    if game.failures < config.max_failures - 1:",
        ("tests/host/test_settle.py",),
    ),
    Mutation(
        "abandoned",
        "a game whose lease ran out max_attempts times is made void",
        HOST + "settle.py",
        "            Game.attempts >= max_attempts,",
        "            Game.attempts > max_attempts,",
        ("tests/host/test_settle.py",),
    ),
    Mutation(
        "build-cap",
        "a build larger than limits.build_mb is refused",
        HOST + "build.py",
        "            if size > self.megabytes << 20:",
        "            if size > self.megabytes << 30:",
        ("tests/host/test_programs.py",),
    ),
    Mutation(
        "streams",
        "an address holds a few live pages, no more",
        HOST + "events.py",
        "        if self.streams[address] >= STREAMS_PER_CLIENT:",
        "        if False:",
        ("tests/host/test_contest.py::test_an_address_holds_a_few_live_pages_and_no_more",),
    ),
    Mutation(
        "local-workers",
        "the local workers die with their server",
        HOST + "service.py",
        "                preexec_fn=die_with_parent,  # no local worker outlives its server\n",
        "",
        ("tests/host/test_workers.py::test_the_local_workers_die_with_their_server",),
    ),
    Mutation(
        "own-contest",
        "a worker talks only to its own contest",
        HOST + "worker.py",
        "        if info.id != self._contest:",
        "        if False:",
        (
            "tests/host/test_workers.py::test_a_server_posing_as_the_contest_learns_nothing_a_worker_could_be_acted_as_with",
        ),
    ),
    Mutation(
        "bye-credit",
        "a Swiss bye is credited as a win for each game of the round",
        HOST + "rounds.py",
        "        session.add(Bye(round_id=rnd.id, account_id=bye, points=float(per_pair)))",
        "        session.add(Bye(round_id=rnd.id, account_id=bye, points=0.0))",
        ("tests/host/test_rounds.py",),
    ),
    Mutation(
        "bye-order",
        "the bye goes to the player with the fewest byes first",
        HOST + "pairing.py",
        "key=lambda p: (byes.get(p, 0), scores.get(p, 0.0), -rank[p])",
        "key=lambda p: (scores.get(p, 0.0), -rank[p])",
        ("tests/host/test_pairing.py", "tests/host/test_rounds.py"),
    ),
    Mutation(
        "rank-tie-break",
        "entrants level on the ranking's points are split by fewer irregular losses",
        HOST + "ranking.py",
        '    return lambda r: (-r[first], r["faults"], -round(r["elo_exact"], 3), r["name"])',
        '    return lambda r: (-r[first], -round(r["elo_exact"], 3), r["name"])',
        ("tests/host/test_ranking.py",),
    ),
    Mutation(
        "bye-contest",
        "a bye is credited in contest points as games won without play",
        HOST + "ranking.py",
        "(line.points + extra, line.contest_points + extra * per_game, extra)",
        "(line.points + extra, line.contest_points, extra)",
        ("tests/host/test_ranking.py",),
    ),
    Mutation(
        "bye-first",
        "a bye before any game is credited in contest points too",
        HOST + "ranking.py",
        "(extra, extra * per_game, extra)",
        "(extra, 0.0, extra)",
        ("tests/host/test_ranking.py",),
    ),
    Mutation(
        "calendar",
        "an upload outside the contest's calendar is refused",
        HOST + "intake.py",
        "    if refusal is not None:\n        raise UploadError(refusal)",
        "    if refusal is not None and False:\n        raise UploadError(refusal)",
        (FINAL,),
    ),
    Mutation(
        "frozen-final",
        "the final plays the versions accepted from uploads before it began",
        HOST + "rounds.py",
        "    field = entrants(session, before=frozen_at(session, config))",
        "    field = entrants(session)",
        (FINAL,),
    ),
    Mutation(
        "final-phase",
        "the final's standings count only the final's games",
        HOST + "queue.py",
        "    tallies.add(session, game.phase, game.first_account_id, "
        "game.second_account_id, added)",
        '    tallies.add(session, "test", game.first_account_id, game.second_account_id, added)',
        (FINAL,),
    ),
    Mutation(
        "confirm",
        "an organiser's action asks to be confirmed first",
        HOST + "routes/organiser.py",
        '    if confirm != "yes":',
        '    if confirm != "yes" and action == "rerun":',
        (GUARDS,),
    ),
    Mutation(
        "audit",
        "every organiser action is written to the audit log",
        HOST + "routes/organiser.py",
        "    audit(s, who, action, name, CONSEQUENCES[action].format(name=name))",
        "    pass",
        (GUARDS,),
    ),
    Mutation(
        "candidate-held",
        "a candidate version does not play in rounds until entered",
        HOST + "rounds.py",
        '    accepted = (Version.state == "accepted") & Version.trial.is_(False)',
        '    accepted = Version.state == "accepted"',
        (CANDIDATES,),
    ),
    Mutation(
        "candidate-last",
        "a candidate's games wait for every game of the contest's own",
        HOST + "queue.py",
        '.order_by(case((Round.phase == "candidate", 1), else_=0), Round.number, Game.number)',
        ".order_by(Round.number, Game.number)",
        (CANDIDATES,),
    ),
    Mutation(
        "sprt-stop",
        "an evaluation's pairs not begun stop once its SPRT decides",
        HOST + "candidates.py",
        '        if g.state == "queued" and g.pair not in started:',
        '        if g.state == "queued" and g.pair not in started and False:',
        (CANDIDATES,),
    ),
    Mutation(
        "enter-owner",
        "only its owner enters a candidate in the contest",
        HOST + "routes/contestant.py",
        "    if who.id != version.account_id:",
        "    if who.id is None:",
        (GUARDS,),
    ),
    Mutation(
        "export-manifest",
        "a file of an export changed after it was signed is found",
        HOST + "export_check.py",
        "        if listed[name] != _sha(data):",
        "        if listed[name] != _sha(data) and name == MANIFEST:",
        (EXPORT,),
    ),
    Mutation(
        "export-key",
        "an export signed by another key is refused",
        HOST + "export_check.py",
        '    if not signed(key, manifest, signature.decode(errors="replace").strip()):',
        "    if not signature:",
        (EXPORT,),
    ),
    Mutation(
        "export-standings",
        "an export's standings are those its games and byes give",
        HOST + "export_check.py",
        "        if not _same_row(want, got):",
        "        if not isinstance(got, dict):",
        (EXPORT,),
    ),
    Mutation(
        "export-rounds",
        "an export's every record belongs to its round and entrants",
        HOST + "export_check.py",
        '                if record.round != rnd["number"] or owners != (a, b):',
        "                if owners != owners:",
        (EXPORT,),
    ),
    Mutation(
        "record-signature",
        "a record whose fields changed after signing is refused",
        HOST + "export_check.py",
        "        if not record_signed(key, record):",
        "        if record.signature is None:",
        (EXPORT,),
    ),
    Mutation(
        "live-lease",
        "only the lease's holder streams a game's moves",
        HOST + "queue.py",
        '    if game is None or game.state != "leased" or game.lease != token:\n'
        "        return False\n    held",
        '    if game is None or game.state != "leased":\n        return False\n    held',
        (QUEUE,),
    ),
    Mutation(
        "distinct-workers",
        "one worker's repeated failure reports count once",
        HOST + "settle.py",
        "    if report is None:\n        report = GameFailure(game_id=game_id, worker=worker)\n"
        "        session.add(report)\n        game.failures += 1",
        "    game.failures += 1\n    if report is None:\n"
        "        report = GameFailure(game_id=game_id, worker=worker)\n        session.add(report)",
        (SETTLE,),
    ),
    Mutation(
        "failed-not-again",
        "a game a worker failed is not handed back to it",
        HOST + "queue.py",
        "            .where(~exists().where(GameFailure.game_id == Game.id, "
        "GameFailure.worker == worker))\n",
        "",
        (SETTLE,),
    ),
    Mutation(
        "blame-agreed",
        "a seat forfeits only when every failing worker blamed it",
        HOST + "settle.py",
        "        seat = blamed.pop() if len(blamed) == 1 else None",
        "        seat = culprit if culprit in (0, 1) else None",
        (SETTLE,),
    ),
    Mutation(
        "pause-failing",
        "a worker failing game after game is paused",
        HOST + "settle.py",
        "        machine.paused = machine.paused or machine.failing >= config.pause_after",
        "        machine.paused = machine.paused",
        (SETTLE,),
    ),
    Mutation(
        "paused-lease",
        "a paused worker is handed no game",
        HOST + "routes/worker_api.py",
        "    if w.paused:",
        "    if False:",
        ("tests/host/test_guards.py::test_a_paused_worker_is_handed_no_game",),
    ),
    Mutation(
        "call-signature",
        "a call is accepted only signed over itself",
        HOST + "workers.py",
        "    if not signed.valid(call.method, call.target, call.body, call.instance, contest):",
        "    if not signed.key_id:",
        (TOKENS,),
    ),
    Mutation(
        "call-window",
        "a call dated far from the server's clock is refused",
        HOST + "workers.py",
        "    if not math.isfinite(off) or abs(off) > WINDOW:",
        "    if not math.isfinite(off):",
        (TOKENS,),
    ),
    Mutation(
        "call-replay",
        "a call is accepted once",
        HOST + "workers.py",
        "    _use_nonce(session, signed.nonce)\n",
        "",
        (TOKENS,),
    ),
    Mutation(
        "contest-proof",
        "a worker talks only to a server that proves the contest's key",
        HOST + "worker.py",
        "        if not proves(self._token.contest_key, info.id, challenge, info.proof):",
        "        if not info.proof:",
        (
            TOKENS,
            WORKERS + "::" + POSING,
        ),
    ),
    Mutation(
        "play-owner",
        "a game against an entrant is its starter's only",
        HOST + "routes/versus.py",
        "    if session.owner != owner:\n        raise Refused(403, NOT_YOURS)",
        "    if owner is None:\n        raise Refused(403, NOT_YOURS)",
        (GUARDS,),
    ),
    Mutation(
        "play-csrf",
        "a move in a game against an entrant carries the site's CSRF token",
        HOST + "routes/versus.py",
        '    if request.method != "GET":\n        await checked(request)',
        '    if request.method == "DELETE":\n        await checked(request)',
        (GUARDS,),
    ),
    Mutation(
        "play-per-person",
        "one person holds at most per_person games against entrants",
        HOST + "routes/versus.py",
        "    if mine >= limits.per_person:",
        "    if mine > limits.per_person:",
        (GUARDS,),
    ),
    Mutation(
        "play-memory",
        "the games against entrants fit in the memory set aside",
        HOST + "routes/versus.py",
        "    if (len(playing) + 1) * each > limits.memory_mb:",
        "    if len(playing) * each > limits.memory_mb:",
        (GUARDS,),
    ),
    Mutation(
        "forwarded",
        "forwarded addresses are believed only from a named proxy",
        "src/arbiter/cli/host.py",
        "        proxy_headers=bool(proxies),\n",
        "",
        ("tests/host/test_forwarded.py",),
    ),
    Mutation(
        "export-links",
        "an archive holding a link is refused before anything is read",
        HOST + "export_check.py",
        "                _plain(path, member)",
        "                pass",
        (EXPORT,),
    ),
    Mutation(
        "lease-extended",
        "a lease waits out the server's time away",
        HOST + "queue.py",
        "            game.lease_expires = expires + away",
        "            game.lease_expires = expires",
        (QUEUE,),
    ),
    Mutation(
        "superseded",
        "a round played again keeps its erased results",
        HOST + "rounds.py",
        "            session.add(\n                Superseded(",
        "            (lambda x: None)(\n                Superseded(",
        (GUARDS, EXPORT),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:], sqlite_only=True))
