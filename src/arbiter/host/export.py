"""A contest's export, and its verification by anyone holding the contest's public key.

The export is one ``.tar.gz``:

- ``contest.json``: the contest's name, game, clock, ranking and public key;
- ``games.jsonl``: every game of the contest's rounds, each record signed
  (:mod:`arbiter.host.signing`), its ``round`` the round's number;
- ``rounds.json``: each round's phase, kind and state, its games (id, number, pair,
  entrants, the SHA-256 of the game's record line) and its byes;
- ``standings.json``: the standings the games give (never a frozen table);
- at the organiser's choice ``sources/`` (each played version's upload) and
  ``logs/`` (each seat's standard error);
- ``MANIFEST.json``: every other file with its SHA-256, and ``MANIFEST.sig``, the
  contest's signature of the manifest.

:func:`verify_export` checks the signature, every file against the manifest, every
record's own signature, every game by replaying it, every round against its records
and the standings against a table computed again from the games and byes: one byte
changed anywhere is found.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError, RecordError
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.intake import version_dir
from arbiter.host.models import Account, Bye, Round, Version
from arbiter.host.ranking import ranked_rows
from arbiter.host.rounds import COUNTED, ContestGame, current_phase, table_of
from arbiter.host.settle import version_name
from arbiter.host.signing import ContestKey, record_signed, signed
from arbiter.play.replay import replay
from arbiter.record import GameRecord

MANIFEST = "MANIFEST.json"
SIGNATURE = "MANIFEST.sig"
MAX_EXPORT = 1 << 30
"""The most bytes of files an export may unpack to when checked (a tampered archive
may claim anything)."""


class ExportError(ArbiterError, ValueError):
    """An export that does not verify; the message says which file and why."""


def write_export(
    session: Session,
    config: ContestConfig,
    key: ContestKey,
    standings: dict[str, Any],
    *,
    sources: bool = False,
    logs: bool = False,
) -> bytes:
    """The contest's export as ``.tar.gz`` bytes; ``standings`` is the live table
    (:func:`arbiter.host.standings.standings_data` with ``live``)."""
    files: dict[str, bytes] = {}
    rounds = list(session.scalars(select(Round).where(COUNTED).order_by(Round.number)))
    owner = dict(
        session.execute(
            select(Version.id, Account.name).join(Account, Account.id == Version.account_id)
        ).all()
    )
    names = {a.id: a.name for a in session.scalars(select(Account))}
    lines: list[str] = []
    listing = []
    played: set[int] = set()
    for rnd in rounds:
        games = []
        for g in rnd.games:
            if g.state != "done":
                continue
            line = key.sign_record(GameRecord.from_json(g.record)).to_json()
            lines.append(line)
            played |= {g.first_id, g.second_id}
            games.append(
                {
                    "id": g.id,
                    "number": g.number,
                    "pair": g.pair,
                    "entrants": [owner[g.first_id], owner[g.second_id]],
                    "record": _sha(line.encode()),
                }
            )
            if logs:
                files[f"logs/{g.id}-1.log"] = g.log_first.encode()
                files[f"logs/{g.id}-2.log"] = g.log_second.encode()
        byes = session.scalars(select(Bye).where(Bye.round_id == rnd.id).order_by(Bye.id))
        listing.append(
            {
                "number": rnd.number,
                "phase": rnd.phase,
                "kind": rnd.kind,
                "state": rnd.state,
                "games": games,
                "byes": [{"entrant": names[b.account_id], "points": b.points} for b in byes],
            }
        )
    if sources:
        for version in session.scalars(select(Version).where(Version.id.in_(played))):
            path = version_dir(config, version.id) / "upload" / version.filename
            if path.is_file():
                files[f"sources/{version_name(version)}/{version.filename}"] = path.read_bytes()
    contest = {
        "name": config.name,
        "game": config.game,
        "clock": config.clock,
        "rank_by": config.rank_by,
        "phase": current_phase(session),
        "public_key": key.public_pem,
    }
    files["contest.json"] = _json(contest)
    files["games.jsonl"] = "".join(line + "\n" for line in lines).encode()
    files["rounds.json"] = _json(listing)
    files["standings.json"] = _json(standings)
    manifest = _json({name: _sha(data) for name, data in sorted(files.items())})
    files[MANIFEST] = manifest
    files[SIGNATURE] = key.sign(manifest).encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Verified:
    """What an export verified: games, rounds, standings rows."""

    games: int
    rounds: int
    standings: int


def verify_export(
    path: Path, key: Ed25519PublicKey, say: Callable[[str], None] = lambda _: None
) -> Verified:
    """Checks the export at ``path`` against the contest's public ``key``; ``say``
    hears each game's verdict.

    :raises ExportError: at the first file, game, round or standing that does not
        verify, naming it.
    """
    files = _read(path)
    manifest = files.pop(MANIFEST, None)
    signature = files.pop(SIGNATURE, None)
    if manifest is None or signature is None:
        raise ExportError(f"{path}: no {MANIFEST} and {SIGNATURE}: not a contest export")
    if not signed(key, manifest, signature.decode(errors="replace").strip()):
        raise ExportError(f"{path}: {MANIFEST} is not signed by this key")
    listed = _load(manifest, MANIFEST)
    if not isinstance(listed, dict) or set(listed) != set(files):
        extra = sorted(set(files) ^ set(listed if isinstance(listed, dict) else {}))
        raise ExportError(f"{path}: the files are not those the manifest lists ({extra[:3]})")
    for name, data in files.items():
        if listed[name] != _sha(data):
            raise ExportError(f"{path}: {name} was changed after it was signed")
    contest = _load(files["contest.json"], "contest.json")
    records = _records(files["games.jsonl"], key, say)
    rounds = _load(files["rounds.json"], "rounds.json")
    games = _check_rounds(rounds, records)
    table = _load(files["standings.json"], "standings.json")
    _check_standings(contest, rounds, games, table)
    return Verified(len(records), len(rounds), len(table["rows"]))


def _records(
    data: bytes, key: Ed25519PublicKey, say: Callable[[str], None]
) -> dict[str, GameRecord]:
    """Every record by the SHA-256 of its line, each signed and replayed."""
    found = {}
    for number, line in enumerate(data.decode(errors="replace").splitlines(), 1):
        where = f"games.jsonl:{number}"
        try:
            record = GameRecord.from_json(line)
        except RecordError as e:
            raise ExportError(f"{where}: {e}") from None
        if not record_signed(key, record):
            raise ExportError(f"{where}: the record is not signed by this key")
        try:
            out = replay(record)
        except RecordError as e:
            raise ExportError(f"{where}: {e}") from None
        say(
            f"{where}: ok round {record.round}, {' vs '.join(record.players)}: "
            f"{out.result()} by {out.reason}, {len(record.moves)} moves"
        )
        found[_sha(line.encode())] = record
    return found


def _check_rounds(rounds: Any, records: dict[str, GameRecord]) -> list[ContestGame]:
    """The games in the rounds' order, each tied to its record: its round, its
    entrants; every record in exactly one round."""
    games: list[ContestGame] = []
    used = set()
    try:
        for rnd in rounds:
            for g in rnd["games"]:
                record = records.get(g["record"])
                where = f"rounds.json: round {rnd['number']} game {g['number']}"
                if record is None or g["record"] in used:
                    raise ExportError(f"{where}: its record is not in games.jsonl (or is twice)")
                used.add(g["record"])
                a, b = g["entrants"]
                owners = tuple(p.rsplit(" v", 1)[0] for p in record.players)
                if record.round != rnd["number"] or owners != (a, b):
                    raise ExportError(f"{where}: the record is of another round or entrants")
                pair = rnd["number"] * 100_000 + g["pair"]
                games.append(ContestGame(rnd["number"], pair, g["id"], (a, b), record))
    except (KeyError, TypeError, ValueError) as e:
        raise ExportError(f"rounds.json is not an export's list of rounds ({e})") from None
    if len(used) != len(records):
        raise ExportError("games.jsonl holds games in no round")
    return sorted(games, key=lambda g: g.id)


def _check_standings(contest: Any, rounds: Any, games: list[ContestGame], table: Any) -> None:
    """The standings as the games and byes of the standings' phase give them."""
    try:
        phase = contest["phase"]
        config = from_dict(
            {"name": contest["name"], "game": contest["game"], "rank_by": contest["rank_by"]},
            base=Path("."),
            stem="export",
            where="contest.json",
        )
        numbers = {r["number"] for r in rounds if r["phase"] == phase}
        byes: dict[str, float] = {}
        for r in rounds:
            if r["number"] in numbers:
                for b in r["byes"]:
                    byes[b["entrant"]] = byes.get(b["entrant"], 0.0) + float(b["points"])
        disqualified = {row["name"] for row in table["rows"] if row["disqualified"]}
        shown = table["rows"]
    except (KeyError, TypeError, ValueError, ArbiterError) as e:
        raise ExportError(f"contest.json or standings.json is not an export's ({e})") from None
    kept = [g for g in games if g.round in numbers]
    expected = ranked_rows(table_of(config, kept), byes, disqualified, config.rank_by)
    if len(expected) != len(shown):
        raise ExportError("standings.json: its entrants are not those the games give")
    for place, (want, got) in enumerate(zip(expected, shown, strict=True), 1):
        if not _same_row(want, got):
            raise ExportError(
                f"standings.json: place {place} is {got.get('name')!r} with "
                f"{got.get('contest_points')} contest points; the games give "
                f"{want['name']!r} with {want['contest_points']}"
            )


def _same_row(want: dict[str, Any], got: Any) -> bool:
    if not isinstance(got, dict):
        return False
    for field, value in want.items():
        other = got.get(field)
        if field in ("elo_exact", "error", "elo"):
            if value is None or other is None:
                if value is not other:
                    return False
            elif not math.isclose(float(value), float(other), abs_tol=0.51):
                return False
        elif other != value:
            return False
    return True


def _read(path: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            for member in _members(archive):
                total += member.size
                if total > MAX_EXPORT:
                    raise ExportError(f"{path}: more than {MAX_EXPORT >> 20} MB unpacked")
                f = archive.extractfile(member)
                if f is None:
                    raise ExportError(f"{path}: {member.name} is not a file")
                files[member.name] = f.read()
    except (OSError, tarfile.TarError, EOFError) as e:
        raise ExportError(f"{path}: not a whole .tar.gz export ({e})") from None
    return files


def _members(archive: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    try:
        yield from archive
    except (tarfile.TarError, OSError, EOFError) as e:
        raise ExportError(f"the export is not a whole .tar.gz ({e})") from None


def _load(data: bytes, name: str) -> Any:
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ExportError(f"{name} is not JSON: {e}") from None


def _json(value: Any) -> bytes:
    return json.dumps(value, indent=1, sort_keys=True).encode()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
