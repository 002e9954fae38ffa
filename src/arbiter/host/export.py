"""A contest's export, written as a job in the background into the contest's folder.

The export is one ``.tar.gz``:

- ``contest.json``: the contest's name, game, clock, ranking and public key;
- ``games.jsonl``: every game of the contest's rounds, each record signed
  (:mod:`arbiter.host.signing`), its ``round`` the round's number;
- ``rounds.json``: each round's phase, kind and state, its games (id, number, pair,
  entrants, the SHA-256 of the game's record line) and its byes;
- ``superseded.jsonl``: the results erased when a round was played again, each record
  signed, listed under its round in ``rounds.json`` (``superseded``): kept, never
  counted;
- ``standings.json``: the standings the games give (never a frozen table);
- at the organiser's choice ``sources/`` (each played version's upload) and
  ``logs/`` (each seat's standard error);
- ``MANIFEST.json``: every other file with its SHA-256, and ``MANIFEST.sig``, the
  contest's signature of the manifest.

The organiser starts an export (:func:`start`); the server writes it in a process
of its own (:func:`write`, ``python -m arbiter.host.export CONTEST.toml JOB``) and
the organiser's page shows its progress, then a link to the file. Each record is
written as it is stored (signed when its result was stored; one stored before that
is signed here, once), a round at a time, into files on disk whose hashes are taken
as they are written, so the job's memory is a round's, whatever the contest's size.
:mod:`arbiter.host.export_check` verifies an export.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import IO, Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host.config import ContestConfig, load
from arbiter.host.db import Database
from arbiter.host.intake import version_dir
from arbiter.host.models import (
    COUNTED,
    Account,
    Bye,
    ExportJob,
    Game,
    Round,
    Superseded,
    Version,
    now,
)
from arbiter.host.rounds import current_phase
from arbiter.host.settle import version_name
from arbiter.host.signing import ContestKey, signed_line
from arbiter.host.standings import standings_data

MANIFEST = "MANIFEST.json"
SIGNATURE = "MANIFEST.sig"
PROGRESS_EVERY = 1000
"""Games between two progress reports of a job."""


def folder_of(config: ContestConfig) -> Path:
    """Where a contest's exports are written (in its private folder)."""
    return config.folder / "exports"


def start(
    session: Session, who: Account | None, *, sources: bool, logs: bool
) -> tuple[ExportJob, bool]:
    """A new export job (committed) and True, or the one being written already and
    False (its process is under way: it is not started twice)."""
    running = session.scalar(select(ExportJob).where(ExportJob.state == "running").limit(1))
    if running is not None:
        return running, False
    total = session.scalar(
        select(func.count(Game.id))
        .join(Round, Round.id == Game.round_id)
        .where(COUNTED, Game.state == "done")
    )
    job = ExportJob(
        account_id=None if who is None else who.id,
        sources=sources,
        logs=logs,
        total=total or 0,
    )
    session.add(job)
    session.commit()
    return job, True


class _Hashed:
    """A file being written, its SHA-256 taken as it is."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: IO[bytes] = path.open("wb")
        self.sha = hashlib.sha256()

    def write(self, data: bytes) -> None:
        self.file.write(data)
        self.sha.update(data)

    def close(self) -> str:
        self.file.close()
        return self.sha.hexdigest()


def write(session: Session, config: ContestConfig, key: ContestKey, job: ExportJob) -> Path:
    """Writes the export of ``job`` into the contest's exports folder, reporting its
    progress on the job (committed as it goes); returns the file.

    :raises OSError: if the folder cannot be written.
    """
    out = folder_of(config)
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out, prefix=".export-") as work:
        root = Path(work)
        files: dict[str, str] = {}  # name in the archive: SHA-256
        played = _games_and_rounds(session, key, job, root, files)
        if job.sources:
            _sources(session, config, played, root, files)
        contest = {
            "name": config.name,
            "game": config.game,
            "clock": config.clock,
            "rank_by": config.rank_by,
            "phase": current_phase(session),
            "public_key": key.public_pem,
        }
        _small(root, "contest.json", contest, files)
        _small(root, "standings.json", standings_data(session, config, live=True), files)
        manifest = _encoded(dict(sorted(files.items())))
        (root / MANIFEST).write_bytes(manifest)
        (root / SIGNATURE).write_bytes(key.sign(manifest).encode())
        final = out / f"export-{job.id}.tar.gz"
        partial = out / f".export-{job.id}.tar.gz.part"
        with tarfile.open(partial, mode="w:gz", compresslevel=6) as archive:
            for name in [*files, MANIFEST, SIGNATURE]:
                info = archive.gettarinfo(root / name, arcname=name)
                info.mode, info.uid, info.gid, info.uname, info.gname = 0o644, 0, 0, "", ""
                with (root / name).open("rb") as f:
                    archive.addfile(info, f)
        partial.chmod(0o600)
        os.replace(partial, final)
    return final


def _games_and_rounds(
    session: Session, key: ContestKey, job: ExportJob, root: Path, files: dict[str, str]
) -> set[int]:
    """Writes ``games.jsonl``, ``rounds.json`` and the logs a round at a time; returns
    the versions that played."""
    names = dict(session.execute(select(Account.id, Account.name)).all())
    games_file = _Hashed(root / "games.jsonl")
    rounds_file = _Hashed(root / "rounds.json")
    superseded_file = _Hashed(root / "superseded.jsonl")
    rounds_file.write(b"[")
    played: set[int] = set()
    done = 0
    rounds = session.execute(
        select(Round.id, Round.number, Round.phase, Round.kind, Round.state)
        .where(COUNTED)
        .order_by(Round.number)
    ).all()
    for at, (round_id, number, phase, kind, state) in enumerate(rounds):
        listed = []
        for g in session.execute(
            select(
                Game.id,
                Game.number,
                Game.pair,
                Game.first_id,
                Game.second_id,
                Game.first_account_id,
                Game.second_account_id,
                Game.record,
            )
            .where(Game.round_id == round_id, Game.state == "done")
            .order_by(Game.number)
        ):
            line = signed_line(key, g.record).encode()
            games_file.write(line + b"\n")
            played |= {g.first_id, g.second_id}
            listed.append(
                {
                    "entrants": [names[g.first_account_id], names[g.second_account_id]],
                    "id": g.id,
                    "number": g.number,
                    "pair": g.pair,
                    "record": hashlib.sha256(line).hexdigest(),
                }
            )
            done += 1
            if done % PROGRESS_EVERY == 0:
                _progress(session, job, done)
        if job.logs:
            _logs(session, round_id, root, files)
        byes = session.execute(
            select(Bye.account_id, Bye.points).where(Bye.round_id == round_id).order_by(Bye.id)
        )
        erased = _superseded(session, key, round_id, superseded_file)
        entry = {
            "byes": [{"entrant": names[a], "points": p} for a, p in byes],
            "games": listed,
            "superseded": erased,
            "kind": kind,
            "number": number,
            "phase": phase,
            "state": state,
        }
        rounds_file.write((b",\n" if at else b"\n") + _encoded(entry))
    rounds_file.write(b"\n]\n")
    files["games.jsonl"] = games_file.close()
    files["rounds.json"] = rounds_file.close()
    files["superseded.jsonl"] = superseded_file.close()
    _progress(session, job, done)
    return played


def _superseded(
    session: Session, key: ContestKey, round_id: int, out: _Hashed
) -> list[dict[str, Any]]:
    """Writes the round's results erased by playing it again, signed, to ``out``; what
    ``rounds.json`` says of each (when, which game, the record's hash)."""
    erased = []
    for x in session.scalars(
        select(Superseded).where(Superseded.round_id == round_id).order_by(Superseded.id)
    ):
        line = signed_line(key, x.record).encode()
        out.write(line + b"\n")
        erased.append(
            {
                "erased": x.erased.isoformat(timespec="seconds"),
                "number": x.number,
                "record": hashlib.sha256(line).hexdigest(),
            }
        )
    return erased


def _logs(session: Session, round_id: int, root: Path, files: dict[str, str]) -> None:
    (root / "logs").mkdir(exist_ok=True)
    for game_id, first, second in session.execute(
        select(Game.id, Game.log_first, Game.log_second).where(
            Game.round_id == round_id, Game.state == "done"
        )
    ):
        for seat, text in ((1, first), (2, second)):
            name = f"logs/{game_id}-{seat}.log"
            data = text.encode()
            (root / name).write_bytes(data)
            files[name] = hashlib.sha256(data).hexdigest()


def _sources(
    session: Session, config: ContestConfig, played: set[int], root: Path, files: dict[str, str]
) -> None:
    for version in session.scalars(select(Version).where(Version.id.in_(played))):
        path = version_dir(config, version.id) / "upload" / version.filename
        if path.is_file():
            name = f"sources/{version_name(version)}/{version.filename}"
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, root / name)
            files[name] = hashlib.sha256((root / name).read_bytes()).hexdigest()


def _small(root: Path, name: str, value: Any, files: dict[str, str]) -> None:
    data = _encoded(value)
    (root / name).write_bytes(data)
    files[name] = hashlib.sha256(data).hexdigest()


def _progress(session: Session, job: ExportJob, done: int) -> None:
    session.execute(update(ExportJob).where(ExportJob.id == job.id).values(done=done))
    session.commit()


def _encoded(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def run(config: ContestConfig, job_id: int) -> None:
    """Writes export job ``job_id`` of the contest and marks it done (with its file
    and size) or failed (with why)."""
    db = Database(config.database)
    try:
        with db.session() as session:
            job = session.get(ExportJob, job_id)
            if job is None or job.state != "running":
                return
            try:
                path = write(session, config, ContestKey.of_folder(config.folder), job)
            except (OSError, ArbiterError) as e:
                session.rollback()
                job.state, job.detail = "failed", str(e)
            else:
                job.state, job.file, job.size = "done", path.name, path.stat().st_size
                job.done = job.total
            job.finished = now()
            session.commit()
    finally:
        db.close()


def file_of(config: ContestConfig, job: ExportJob) -> Path | None:
    """The file of a finished export job, if it is still there."""
    if job.state != "done" or not job.file:
        return None
    path = folder_of(config) / job.file
    return path if path.is_file() else None


def main() -> int:
    """``python -m arbiter.host.export CONTEST.toml JOB``: the server's export process."""
    try:
        run(load(Path(sys.argv[1])), int(sys.argv[2]))
    except ArbiterError as e:
        print(f"arbiter host: export: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
