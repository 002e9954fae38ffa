"""An export's verification by anyone holding the contest's public key (the export's
files are described in :mod:`arbiter.host.export`).

:func:`verify_export` checks the signature, every file against the manifest, every
record's own signature, every game by replaying it, every round against its records
and the standings against a table computed again from the games and byes (from the
records themselves, not from anything the server computed): one byte changed
anywhere is found.
"""

from __future__ import annotations

import hashlib
import json
import math
import tarfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from arbiter.errors import ArbiterError, RecordError
from arbiter.host.config import ContestConfig, from_dict
from arbiter.host.ranking import ranked_rows
from arbiter.host.signing import record_signed, signed
from arbiter.play.replay import replay
from arbiter.record import GameRecord
from arbiter.tournament.report import Standings, standings
from arbiter.tournament.store import StoredGame

MANIFEST = "MANIFEST.json"
SIGNATURE = "MANIFEST.sig"
MAX_EXPORT = 1 << 30
"""The most bytes of files an export may unpack to when checked (a tampered archive
may claim anything)."""


class ExportError(ArbiterError, ValueError):
    """An export that does not verify; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class ContestGame:
    """A game of an export, read once: its round's number, its pair (unique in the
    contest), its id, its seats' entrants, its record."""

    round: int
    pair: int
    id: int
    entrants: tuple[str, str]
    record: GameRecord


def table_of(config: ContestConfig, games: Sequence[ContestGame]) -> Standings:
    """The standings of ``games``, by entrant, from their records; only those who
    played are in it (an entrant without a game would pull the ratings' centre)."""
    names = sorted({name for g in games for name in g.entrants})
    index = {n: i for i, n in enumerate(names)}
    stored = [
        StoredGame(g.id, g.pair, (index[g.entrants[0]], index[g.entrants[1]]), g.record)
        for g in games
    ]
    return standings(config.name, config.game, names, stored)


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
    # results erased by a round played again: signed by the contest, counted nowhere
    _records(files.get("superseded.jsonl", b""), key, say, "superseded.jsonl")
    rounds = _load(files["rounds.json"], "rounds.json")
    games = _check_rounds(rounds, records)
    table = _load(files["standings.json"], "standings.json")
    _check_standings(contest, rounds, games, table)
    return Verified(len(records), len(rounds), len(table["rows"]))


def _records(
    data: bytes, key: Ed25519PublicKey, say: Callable[[str], None], name: str = "games.jsonl"
) -> dict[str, GameRecord]:
    """Every record of the file ``name`` by the SHA-256 of its line, each signed and
    replayed."""
    found = {}
    for number, line in enumerate(data.decode(errors="replace").splitlines(), 1):
        where = f"{name}:{number}"
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
    lines = table_of(config, kept).lines
    expected = ranked_rows(config.game, lines, byes, disqualified, config.rank_by)
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
            members = list(_members(archive))
            for member in members:  # all of them judged before any is read
                _plain(path, member)
            for member in members:
                if member.isdir():
                    continue
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


def _plain(path: Path, member: tarfile.TarInfo) -> None:
    """:raises ExportError: for a member that is not a plain file or folder inside the
    archive (a link, a device, a path outside it): no export holds one."""
    kind = (
        "a symbolic link"
        if member.issym()
        else "a hard link"
        if member.islnk()
        else "a device or pipe"
        if not (member.isfile() or member.isdir())
        else ""
    )
    if kind:
        raise ExportError(f"{path}: {member.name} is {kind}: not a contest export")
    parts = PurePosixPath(member.name).parts
    if member.name.startswith(("/", "\\")) or ".." in parts:
        raise ExportError(f"{path}: {member.name} lies outside the archive: not a contest export")


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


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
