# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""Practice mutants over the contest server's functions a fresh probe may draw (see
``practice_contract.py``): kept out of ``mutate_*.py`` so they stay in the draw.

    python scripts/practice_host.py [NAME ...]
"""

from __future__ import annotations

import sys

from mutation import Mutation, main

PAGES = ("tests/host/test_pages.py", "tests/host/test_contest.py", "tests/host/test_guards.py")
W = (
    "tests/host/test_worker_unit.py",
    "tests/host/test_workers.py",
    "tests/host/test_worker_tokens.py",
    "tests/host/test_guards.py",
)

MUTATIONS = [
    Mutation(
        name="link-401-as-away",
        guard="",
        path="src/arbiter/host/server_link.py",
        old="            if response.status_code in (502, 503, 504):",
        new="            if response.status_code in (502, 503, 504, 401):",
        tests=(
            "tests/host/test_worker_unit.py",
            "tests/host/test_workers.py",
            "tests/host/test_worker_tokens.py",
        ),
    ),
    Mutation(
        name="link-500-away",
        guard="",
        path="src/arbiter/host/server_link.py",
        old="            if response.status_code in (502, 503, 504):",
        new="            if response.status_code in (500, 502, 503, 504):",
        tests=("tests/host/test_worker_unit.py", "tests/host/test_workers.py"),
    ),
    Mutation(
        name="description-both",
        guard="",
        path="src/arbiter/host/config.py",
        old="    if text and name:\n        raise ConfigError",
        new="    if text and name and False:\n        raise ConfigError",
        tests=("tests/host/test_config.py", "tests/host/test_about.py"),
    ),
    Mutation(
        name="description-encoding",
        guard="",
        path="src/arbiter/host/config.py",
        old='        why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"',
        new="        why = e.strerror if isinstance(e, OSError) else str(e)",
        tests=("tests/host/test_config.py", "tests/host/test_about.py"),
    ),
    Mutation(
        name="headers-override",
        guard="",
        path="src/arbiter/host/app.py",
        old="                    if name not in headers:\n                        headers[name] = value",
        new="                    headers[name] = value",
        tests=(
            "tests/host/test_guards.py",
            "tests/host/test_pages.py",
            "tests/host/test_events.py",
        ),
    ),
    Mutation(
        name="resume-keeps-failing",
        guard="",
        path="src/arbiter/host/workers.py",
        old="    worker.paused = False\n    worker.failing = 0",
        new="    worker.paused = False",
        tests=(
            "tests/host/test_guards.py",
            "tests/host/test_settle.py",
            "tests/host/test_worker_tokens.py",
        ),
    ),
    Mutation(
        name="swiss-no-byes",
        guard="",
        path="src/arbiter/host/rounds.py",
        old="    credited = bye_points(session, phase)\n    scores = {e.account: table.points(e.name) + credited.get(e.account, 0.0) for e in field}",
        new="    scores = {e.account: table.points(e.name) for e in field}",
        tests=(
            "tests/host/test_rounds.py",
            "tests/host/test_pairing.py",
            "tests/host/test_final.py",
        ),
    ),
    Mutation(
        name="fill-rustc",
        guard="",
        path="src/arbiter/host/languages.py",
        old='    return command.replace("{python}", values["python"]).replace("{rustc}", values["rustc"])',
        new='    return command.replace("{python}", values["python"])',
        tests=("tests/host/test_kits.py", "tests/host/test_about.py", "tests/host/test_build.py"),
    ),
    Mutation(
        name="safe-user-shown",
        guard="",
        path="src/arbiter/host/db.py",
        old="    return f\"{scheme}//{credentials.split(':', 1)[0]}:***@{tail}\"",
        new='    return f"{scheme}//***@{tail}"',
        tests=(
            "tests/host/test_schema.py",
            "tests/host/test_config.py",
            "tests/host/test_processes.py",
        ),
    ),
    Mutation(
        name="standings-live-ignored",
        guard="",
        path="src/arbiter/host/standings.py",
        old="    return _computed(session, config, live=live)[0]",
        new="    return _computed(session, config)[0]",
        tests=("tests/host/test_export.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        name="forfeit-plies",
        guard="",
        path="src/arbiter/host/settle.py",
        old="    game.detail = why\n    game.plies = 0",
        new="    game.detail = why",
        tests=(
            "tests/host/test_settle.py",
            "tests/host/test_tallies.py",
            "tests/host/test_export.py",
        ),
    ),
    Mutation(
        name="forfeit-lease-kept",
        guard="",
        path="src/arbiter/host/settle.py",
        old='    game.state = "done"\n    game.lease = game.lease_expires = None',
        new='    game.state = "done"',
        tests=(
            "tests/host/test_settle.py",
            "tests/host/test_guards.py",
            "tests/host/test_queue.py",
        ),
    ),
    Mutation(
        name="invite-short",
        guard="",
        path="src/arbiter/host/accounts.py",
        old="    code = secrets.token_urlsafe(12)",
        new="    code = secrets.token_urlsafe(3)",
        tests=("tests/host/test_accounts.py", "tests/host/test_guards.py"),
    ),
    Mutation(
        name="spool-unreadable-kept",
        guard="",
        path="src/arbiter/host/worker.py",
        old='                self.say(f"a spooled result {path.name} is unreadable ({e}): dropped")\n                path.unlink(missing_ok=True)',
        new='                self.say(f"a spooled result {path.name} is unreadable ({e}): dropped")',
        tests=("tests/host/test_worker_unit.py", "tests/host/test_workers.py"),
    ),
    Mutation(
        name="language-main-lost",
        guard="",
        path="src/arbiter/host/config.py",
        old='        t.text("main", base.main),',
        new='        t.text("main", "main"),',
        tests=(
            "tests/host/test_config.py",
            "tests/host/test_contest.py",
            "tests/host/test_kits.py",
        ),
    ),
    Mutation(
        name="language-no-suffix",
        guard="",
        path="src/arbiter/host/config.py",
        old="    if not language.suffixes:\n        raise ConfigError",
        new="    if False:\n        raise ConfigError",
        tests=("tests/host/test_config.py", "tests/test_mistakes.py"),
    ),
    Mutation(
        name="contest-id-uncommitted",
        guard="",
        path="src/arbiter/host/routes/public.py",
        old="    info = ContestInfo(id=contest, name=host.config.name, game=host.config.game, proof=proof)\n    s.commit()",
        new="    info = ContestInfo(id=contest, name=host.config.name, game=host.config.game, proof=proof)",
        tests=(
            "tests/host/test_worker_tokens.py",
            "tests/host/test_workers.py",
            "tests/host/test_guards.py",
        ),
    ),
    Mutation(
        name="unpack-mode",
        guard="",
        path="src/arbiter/host/programs.py",
        old='            opened.extractall(target, filter="data")\n    except (tarfile.TarError, OSError, EOFError) as e:\n        raise ProgramError(f"the program archive does not unpack: {e}") from e\n    target.chmod(0o755)',
        new='            opened.extractall(target, filter="data")\n    except (tarfile.TarError, OSError, EOFError) as e:\n        raise ProgramError(f"the program archive does not unpack: {e}") from e',
        tests=(
            "tests/host/test_programs.py",
            "tests/host/test_workers.py",
            "tests/host/test_worker_unit.py",
        ),
    ),
    Mutation(
        name="manifest-format-newer",
        guard="",
        path="src/arbiter/host/backup.py",
        old='    if manifest.get("format") != FORMAT:',
        new='    if manifest.get("format") > FORMAT:',
        tests=("tests/host/test_backup.py",),
    ),
    Mutation(
        name="requeue-nondigit",
        guard="",
        path="src/arbiter/host/routes/organiser.py",
        old="    if not settle.requeue(s, int(name) if name.isdigit() else -1):",
        new="    if not settle.requeue(s, int(name)):",
        tests=("tests/host/test_guards.py", "tests/host/test_settle.py"),
    ),
    Mutation(
        name="parse-time-naive-offset",
        guard="",
        path="src/arbiter/host/calendar.py",
        old="    if value.tzinfo is None or value.utcoffset() is None:",
        new="    if value.tzinfo is None:",
        tests=("tests/host/test_final.py", "tests/host/test_config.py"),
    ),
    Mutation(
        name="public-pem-raw",
        guard="",
        path="src/arbiter/host/signing.py",
        old="serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo",
        new="serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)\n            .replace(b'PUBLIC KEY', b'ED25519 PUBLIC KEY'",
        tests=(
            "tests/host/test_keys_and_sessions.py",
            "tests/host/test_export.py",
            "tests/host/test_about.py",
        ),
    ),
    # a third group, drawn for practice after the seventeenth probe (14 functions of the
    # pool at random, seed 1804)
    Mutation(
        name="records-not-counted-too",
        guard="",
        path="src/arbiter/host/routes/public.py",
        old='                    .where(Game.state == "done", mine, Game.id > last, COUNTED_GAME)',
        new='                    .where(Game.state == "done", mine, Game.id > last)',
        tests=PAGES,
    ),
    Mutation(
        name="records-any-role",
        guard="",
        path="src/arbiter/host/routes/public.py",
        old='    account = s.scalar(select(Account.id).where(Account.name == name, Account.role == "contestant"))\n    if account is None:\n        raise Refused(404, f"no contestant {name!r}")\n    mine =',
        new='    account = s.scalar(select(Account.id).where(Account.name == name))\n    if account is None:\n        raise Refused(404, f"no contestant {name!r}")\n    mine =',
        tests=PAGES,
    ),
    Mutation(
        name="alive-stamped-once",
        guard="",
        path="src/arbiter/host/queue.py",
        old='        .on_conflict_do_update(index_elements=["key"], set_={"value": stamp})',
        new='        .on_conflict_do_nothing(index_elements=["key"])',
        tests=("tests/host/test_queue.py", "tests/host/test_coordination.py"),
    ),
    Mutation(
        name="phase-rounds-any-kind",
        guard="",
        path="src/arbiter/host/rounds.py",
        old="    if kind is not None:\n        query = query.where(Round.kind == kind)\n    return session.scalar(query) or 0",
        new="    return session.scalar(query) or 0",
        tests=(
            "tests/host/test_rounds.py",
            "tests/host/test_final.py",
            "tests/host/test_pairing.py",
        ),
    ),
    Mutation(
        name="program-of-any-version",
        guard="",
        path="src/arbiter/host/routes/worker_api.py",
        old='    if version is None or version.state != "accepted" or version.program_sha256 is None:',
        new="    if version is None or version.program_sha256 is None:",
        tests=W,
    ),
    Mutation(
        name="members-tar-error-raw",
        guard="",
        path="src/arbiter/host/export_check.py",
        old='    except (tarfile.TarError, OSError, EOFError) as e:\n        raise ExportError(f"the export is not a whole .tar.gz ({e})") from None',
        new='    except tarfile.TarError as e:\n        raise ExportError(f"the export is not a whole .tar.gz ({e})") from None',
        tests=("tests/host/test_export.py",),
    ),
    Mutation(
        name="page-before-inclusive",
        guard="",
        path="src/arbiter/host/listing.py",
        old="        query = query.where(Game.id < before)",
        new="        query = query.where(Game.id <= before)",
        tests=PAGES,
    ),
    Mutation(
        name="record-signed-any",
        guard="",
        path="src/arbiter/host/signing.py",
        old="    return signed(key, record.canonical(), record.signature)",
        new="    return record.signature is not None",
        tests=("tests/host/test_export.py", "tests/host/test_keys_and_sessions.py"),
    ),
    Mutation(
        name="number-whole-float-kept",
        guard="",
        path="src/arbiter/host/app.py",
        old="    if isinstance(value, float) and value.is_integer():",
        new="    if isinstance(value, float) and value.is_integer() and value > 0:",
        tests=("tests/host/test_pages.py", "tests/host/test_standings.py"),
    ),
    Mutation(
        name="sign-in-keeps-cookie",
        guard="",
        path="src/arbiter/host/deps.py",
        old="    request.session.clear()\n    request.session[SESSION_KEY]",
        new="    request.session[SESSION_KEY]",
        tests=(
            "tests/host/test_accounts.py",
            "tests/host/test_keys_and_sessions.py",
            "tests/host/test_guards.py",
        ),
    ),
    Mutation(
        name="backup-description-outside",
        guard="",
        path="src/arbiter/host/backup.py",
        old="    if not path.is_file() or not path.is_relative_to(base):",
        new="    if not path.is_file():",
        tests=("tests/host/test_backup.py",),
    ),
    Mutation(
        name="language-one-tool",
        guard="",
        path="src/arbiter/host/languages.py",
        old="    return all(_found(tool) for tool in language.tools())",
        new="    return any(_found(tool) for tool in language.tools())",
        tests=("tests/host/test_about.py", "tests/host/test_kits.py", "tests/host/test_build.py"),
    ),
    Mutation(
        name="export-games-of-void-rounds",
        guard="",
        path="src/arbiter/host/export.py",
        old='            .where(Game.round_id == round_id, Game.state == "done")\n            .order_by(Game.number)\n        ):',
        new='            .where(Game.round_id == round_id, Game.state != "queued")\n            .order_by(Game.number)\n        ):',
        tests=("tests/host/test_export.py",),
    ),
    Mutation(
        name="link-wait-ignores-stop",
        guard="",
        path="src/arbiter/host/server_link.py",
        old="        elif self.stopped.is_set() or self.stopped.wait(seconds):",
        new="        elif self.stopped.wait(seconds) and False:",
        tests=("tests/host/test_worker_unit.py",),
    ),
]

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
