"""A new version's way in: stored, built, put through the conformance gate, and only
then entered.

:func:`submit` takes the upload (checked and unpacked by :mod:`arbiter.host.archive`)
and records the version as ``building``; :func:`process` builds it behind the walls
and runs ``check-agent`` on what was built, through the contest's protocol and clock.
A version that fails either is ``refused`` and its owner sees why (the build log, or
each check with its verdict and the end of the transcript); one that passes is
``accepted``, and, being its owner's newest, plays from the next round on.

``python -m arbiter.host.intake CONTEST.toml VERSION_ID`` processes one version in a
process of its own (the server starts one per upload), so a build or a gate never
runs inside the web server.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arbiter.contract import Check
from arbiter.errors import ArbiterError
from arbiter.games import find_game
from arbiter.host.archive import UploadError, UploadLimits, unpack
from arbiter.host.build import OutputLimit, build
from arbiter.host.config import ContestConfig, contest_supervision, load
from arbiter.host.db import Database
from arbiter.host.languages import fill
from arbiter.host.languages import shown as shown_command
from arbiter.host.models import Account, Version, now
from arbiter.host.programs import ProgramError, pack, store_of
from arbiter.play.checkagent import Result, check_agent, checks

STATES = ("building", "checking", "accepted", "refused")


def version_dir(config: ContestConfig, version_id: int) -> Path:
    """Where a version's sources (``source/``) and build (``build/``) are kept."""
    return config.folder / "versions" / str(version_id)


def submit(
    session: Session,
    config: ContestConfig,
    account: Account,
    language_key: str,
    filename: str,
    data: bytes,
    *,
    trial: bool = False,
) -> Version:
    """Stores an upload as a new version of ``account`` (committed), ready for
    :func:`process`; a ``trial`` version is a candidate that does not play in rounds
    until its owner enters it.

    :raises UploadError: outside the contest's calendar (before ``opens``, from
        ``closes``), for an unknown language, more uploads in the last hour than the
        contest allows, or an upload :func:`arbiter.host.archive.unpack` refuses.
    """
    refusal = config.calendar.upload_refusal(now())
    if refusal is not None:
        raise UploadError(refusal)
    language = config.languages.get(language_key)
    if language is None:
        raise UploadError(f"unknown language {language_key!r}")
    hour_ago = now() - timedelta(hours=1)
    recent = session.scalar(
        select(func.count(Version.id)).where(
            Version.account_id == account.id, Version.uploaded >= hour_ago
        )
    )
    if (recent or 0) >= config.limits.versions_per_hour:
        raise UploadError(
            f"at most {config.limits.versions_per_hour} uploads an hour: try again later"
        )
    number = (
        session.scalar(select(func.max(Version.number)).where(Version.account_id == account.id))
        or 0
    ) + 1
    version = Version(
        account_id=account.id,
        number=number,
        language=language.key,
        filename=filename,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        state="building",
        trial=trial,
    )
    session.add(version)
    session.flush()
    folder = version_dir(config, version.id)
    limits = UploadLimits(
        config.limits.upload_kb * 1024,
        config.limits.archive_files,
        config.limits.unpacked_kb * 1024,
    )
    try:
        unpack(data, filename, language, folder / "source", limits)
    except UploadError:
        session.rollback()
        shutil.rmtree(folder, ignore_errors=True)
        raise
    (folder / "upload").mkdir()
    (folder / "upload" / filename).write_bytes(data)
    session.commit()
    return version


def process(db: Database, config: ContestConfig, version_id: int, isolation: str = "auto") -> str:
    """Builds a version and puts it through the gate; returns its final state."""
    with db.session() as session:
        version = session.get(Version, version_id)
        if version is None or version.state not in ("building", "checking"):
            return "missing" if version is None else version.state
        language = config.languages.get(version.language)
        folder = version_dir(config, version.id)
        if language is None:
            return _refuse(session, version, f"the language {version.language!r} is gone")
        shutil.rmtree(folder / "build", ignore_errors=True)
        try:
            result = build(
                language,
                folder / "source",
                folder / "build",
                seconds=config.limits.compile_seconds,
                memory_mb=config.limits.compile_memory_mb,
                disk_mb=config.limits.compile_disk_mb,
                isolation=isolation,
                output=OutputLimit(config.limits.build_mb, config.limits.build_files),
            )
        except ArbiterError as e:
            return _refuse(session, version, f"build: {e}", folder)
        version.build_log = result.log
        if not result.ok:
            return _refuse(session, version, f"build: {result.problem}", folder)
        version.state = "checking"
        session.commit()
        run = fill(language.run)
        watch = contest_supervision(
            config.game, config.limits.memory_mb, isolation, config.limits.disk_mb
        )
        spec = find_game(config.game)
        planned = checks(spec, config.gate_clock)
        shown = GateProgress(session, version, len(planned))
        try:
            results = check_agent(
                spec,
                run,
                config.gate_clock,
                cwd=str(folder / "build"),
                supervision=watch,
                progress=shown,
                burn=False,  # the server's own games play on this machine
                first_failure=True,  # a program that fails one check is refused at once
                shown=shown_command(language.run),
            )
        except ArbiterError as e:
            return _refuse(session, version, f"check: {e}", folder)
        version.checks = json.dumps([_check_json(r) for r in results])
        failed = [r for r in results if not r.passed]
        if failed:
            names = ", ".join(repr(r.check.name) for r in failed)
            left = len(planned) - len(results)
            rest = f" ({left} later checks not run)" if left else ""
            why = f"check {names} failed: {failed[0].verdict}{rest}"
            return _refuse(session, version, why, folder)
        try:
            packed = pack(folder / "build", store_of(config.folder))
        except ProgramError as e:
            return _refuse(session, version, f"packing: {e}", folder)
        version.program_sha256, version.program_size = packed.sha256, packed.size
        version.state = "accepted"
        version.reason = ""
        session.commit()
        shutil.rmtree(folder / "build", ignore_errors=True)  # workers get the archive
        return version.state


def _check_json(r: Result) -> dict[str, Any]:
    return {
        "name": r.check.name,
        "about": r.check.about,
        "passed": r.passed,
        "verdict": r.verdict,
        "transcript": list(r.transcript),
        "met": [list(m) for m in r.met],
    }


class GateProgress:
    """The gate's progress as the version's page shows it while it runs: each check
    as it starts (``reason``: ``check 3 of 7: NAME``) and each result as it comes
    (committed, so the page that reloads itself sees it)."""

    def __init__(self, session: Session, version: Version, total: int) -> None:
        self.session = session
        self.version = version
        self.total = total
        self.done: list[Result] = []

    def started(self, check: Check) -> None:
        number = len(self.done) + 1
        self.version.reason = f"check {number} of {self.total}: {check.name}"
        self.session.commit()

    def moved(self, check: Check, ply: int) -> None:
        pass  # a commit a ply is more than a page needs

    def finished(self, result: Result) -> None:
        self.done.append(result)
        self.version.checks = json.dumps([_check_json(r) for r in self.done])
        self.session.commit()


def _refuse(session: Session, version: Version, reason: str, folder: Path | None = None) -> str:
    """Refuses a version for ``reason``; its build (in ``folder``) is deleted, as
    nothing will ever run it."""
    version.state = "refused"
    version.reason = reason
    session.commit()
    if folder is not None:
        shutil.rmtree(folder / "build", ignore_errors=True)
    return version.state


def tidy_builds(session: Session, config: ContestConfig) -> int:
    """Brings the builds a server older than packed programs left to what this one
    keeps: each accepted version packed (its build folder then deleted), each refused
    version's build deleted. Returns how many versions were packed (committed)."""
    count = 0
    for version in session.scalars(
        select(Version).where(Version.state.in_(("accepted", "refused")))
    ):
        built = version_dir(config, version.id) / "build"
        if not built.is_dir():
            continue
        if version.state == "accepted" and version.program_sha256 is None:
            try:
                packed = pack(built, store_of(config.folder))
            except ProgramError:
                continue  # kept as it is: its games are settled if no worker can play them
            version.program_sha256, version.program_size = packed.sha256, packed.size
            count += 1
        session.commit()
        shutil.rmtree(built, ignore_errors=True)
    return count


def pending(session: Session) -> list[int]:
    """Versions a stopped server left half-way (built or checked again at start)."""
    rows = session.scalars(select(Version.id).where(Version.state.in_(("building", "checking"))))
    return list(rows)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3) or not args[1].isdigit():
        print("usage: python -m arbiter.host.intake CONTEST.toml VERSION_ID [ISOLATION]")
        return 2
    try:
        config = load(args[0])
        db = Database(config.database)
        state = process(db, config, int(args[1]), *(args[2:]))
    except ArbiterError as e:
        print(f"arbiter intake: {e}", file=sys.stderr)
        return 1
    print(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
