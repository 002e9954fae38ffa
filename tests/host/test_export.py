"""The signed export: everything verifies with the contest's public key, and one byte
changed in any record, round or standing (or a table signed with the right key that
the games do not give, or another key) is found and named."""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.cli import main
from arbiter.host import export
from arbiter.host.config import ContestConfig
from arbiter.host.db import Database
from arbiter.host.export_check import ExportError, Verified, verify_export
from arbiter.host.models import ExportJob, Game, Setting
from arbiter.host.rounds import finish_round_if_done, make_round, rerun_round
from arbiter.host.signing import ContestKey, public_key, record_signed
from arbiter.host.standings import standings_data
from arbiter.record import GameRecord
from tests.host.contests import play_round, seeded

Exported = tuple[Path, bytes, ContestKey]


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """Two Swiss rounds of three entrants (so two byes), exported as the organiser's
    page does: a job, written by the server's export process. The first round's
    records were signed as they were stored, the second's (stored unsigned, as a
    contest made before records were signed when stored) are signed by the export."""
    tmp_path = tmp_path_factory.mktemp("export")
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    key = ContestKey.of_folder(config.folder)
    for number in (1, 2):
        with db.session() as s:
            make_round(s, config)
        play_round(db, config, key if number == 1 else None)
        with db.session() as s:
            assert finish_round_if_done(s, number)
    with db.session() as s:  # the second round played again: its first results kept
        rerun_round(s, 2)
    play_round(db, config, None)
    with db.session() as s:
        assert finish_round_if_done(s, 2)
    with db.session() as s:
        job, made = export.start(s, None, sources=False, logs=True)
        again, twice = export.start(s, None, sources=True, logs=False)
        assert made and not twice and again.id == job.id  # one at a time
        assert (job.state, job.done, job.total) == ("running", 0, 4)
    export.run(config, job.id)
    with db.session() as s:
        done = s.get(ExportJob, job.id)
        assert done is not None and (done.state, done.done, done.total) == ("done", 4, 4)
        path = export.file_of(config, done)
        assert path is not None and path.stat().st_size == done.size
        assert path.stat().st_mode & 0o077 == 0  # the organiser's alone, as the folder
    db.close()
    return path, key.public_pem.encode(), key


def members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as archive:
        return {m.name: archive.extractfile(m).read() for m in archive}  # type: ignore[union-attr]


def written(db: Database, config: ContestConfig, job_id: int) -> Path:
    """Writes export job ``job_id`` as the server's export process does; its file, the
    job done."""
    export.run(config, job_id)
    with db.session() as s:
        done = s.get(ExportJob, job_id)
        assert done is not None and done.state == "done", done and done.detail
        path = export.file_of(config, done)
    assert path is not None
    return path


def packed(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_whole_export_verifies_with_the_contests_public_key(contest: Exported) -> None:
    path, pem, _ = contest
    heard: list[str] = []
    done = verify_export(path, public_key(pem, "pem"), heard.append)
    assert (done.games, done.rounds, done.standings) == (4, 2, 3)
    assert len(heard) == 6 and all(": ok round " in line for line in heard)
    assert sum(line.startswith("superseded.jsonl:") for line in heard) == 2
    files = members(path)
    rounds = json.loads(files["rounds.json"])
    assert [len(r["byes"]) for r in rounds] == [1, 1]
    assert sorted(f for f in files if f.startswith("logs/"))[:1] == ["logs/1-1.log"]
    records = [GameRecord.from_json(line) for line in files["games.jsonl"].decode().splitlines()]
    # a record's round is its round's number (not its game number within the round)
    assert [r.round for r in records] == [1, 1, 2, 2]
    # each round's bye is its own: the entrant who played none of that round's games
    for entry in rounds:
        played = {n for game in entry["games"] for n in game["entrants"]}
        idle = {"alice", "bob", "carol"} - played
        assert [b["entrant"] for b in entry["byes"]] == sorted(idle), entry


def test_every_member_of_an_export_is_a_plain_file_owned_by_nobody(contest: Exported) -> None:
    # the server's own account (its uid, its user's name) is no stranger's business,
    # and an export unpacked anywhere makes no file owned by a user of that machine
    path, _, _ = contest
    with tarfile.open(path) as archive:
        for m in archive:
            assert m.isreg(), m.name
            assert (m.mode, m.uid, m.gid, m.uname, m.gname) == (0o644, 0, 0, "", ""), m.name


@pytest.mark.parametrize("name", ["games.jsonl", "rounds.json", "standings.json", "contest.json"])
def test_one_byte_changed_in_any_file_is_found(
    contest: Exported, tmp_path: Path, name: str
) -> None:
    path, pem, _ = contest
    files = members(path)
    data = bytearray(files[name])
    at = data.index(b'"', len(data) // 2)  # a byte inside the file, kept printable
    data[at + 1] = ord("X") if data[at + 1] != ord("X") else ord("Y")
    files[name] = bytes(data)
    with pytest.raises(ExportError, match=re.escape(f"{name} was changed after it was signed")):
        check(tmp_path, files, pem)


def check(tmp_path: Path, files: dict[str, bytes], pem: bytes) -> Verified:
    """Packs ``files`` as an export and verifies it with the contest's key ``pem``."""
    return verify_export(packed(tmp_path / "export.tar.gz", files), public_key(pem, "pem"))


def resigned(files: dict[str, bytes], key: ContestKey) -> dict[str, bytes]:
    """The files with a manifest made and signed again by ``key``."""
    import hashlib

    files = {k: v for k, v in files.items() if not k.startswith("MANIFEST")}
    manifest = json.dumps(
        {n: hashlib.sha256(d).hexdigest() for n, d in sorted(files.items())},
        indent=1,
        sort_keys=True,
    ).encode()
    return {**files, "MANIFEST.json": manifest, "MANIFEST.sig": key.sign(manifest).encode()}


def test_an_export_signed_by_another_key_is_refused(contest: Exported, tmp_path: Path) -> None:
    path, pem, _ = contest
    other = ContestKey.of_folder(tmp_path / "other")
    forged = resigned(members(path), other)
    with pytest.raises(ExportError, match=r"MANIFEST\.json is not signed by this key"):
        check(tmp_path, forged, pem)


def test_standings_the_games_do_not_give_are_refused_even_when_signed(
    contest: Exported, tmp_path: Path
) -> None:
    path, pem, key = contest
    files = members(path)
    table = json.loads(files["standings.json"])
    rows = table["rows"]
    rows[0]["contest_points"] += 12  # the leader credited one more win
    files["standings.json"] = json.dumps(table).encode()
    with pytest.raises(ExportError, match=r"standings\.json: place 1"):
        check(tmp_path, resigned(files, key), pem)
    rows[0]["contest_points"] -= 12
    rows[0], rows[1] = rows[1], rows[0]  # the right points, the wrong order
    files["standings.json"] = json.dumps(table).encode()
    with pytest.raises(ExportError, match=r"standings\.json: place 1"):
        check(tmp_path, resigned(files, key), pem)
    rows[0], rows[1] = rows[1], rows[0]
    for shown in (None, 50.0):  # an error bar where the games give none, or none given
        rows[0]["error"] = shown if rows[0]["error"] is None else None
        files["standings.json"] = json.dumps(table).encode()
        with pytest.raises(ExportError, match=r"standings\.json: place 1"):
            check(tmp_path, resigned(files, key), pem)
    rows[0]["error"] = json.loads(members(path)["standings.json"])["rows"][0]["error"]
    # a rating is read to the half point it is shown to, and no further
    elo = rows[0]["elo_exact"]
    assert elo is not None
    rows[0]["elo_exact"] = elo + 0.4
    files["standings.json"] = json.dumps(table).encode()
    check(tmp_path, resigned(files, key), pem)
    rows[0]["elo_exact"] = elo + 5
    files["standings.json"] = json.dumps(table).encode()
    with pytest.raises(ExportError, match=r"standings\.json: place 1"):
        check(tmp_path, resigned(files, key), pem)


def test_a_record_moved_to_another_round_or_unsigned_is_refused(
    contest: Exported, tmp_path: Path
) -> None:
    path, pem, key = contest
    files = members(path)
    rounds = json.loads(files["rounds.json"])
    rounds[0]["games"][0], rounds[1]["games"][0] = rounds[1]["games"][0], rounds[0]["games"][0]
    moved = {**files, "rounds.json": json.dumps(rounds).encode()}
    with pytest.raises(ExportError, match="another round or entrants"):
        check(tmp_path, resigned(moved, key), pem)
    lines = files["games.jsonl"].decode().splitlines()
    first = json.loads(lines[0])
    first["detail"] = first["detail"] + " "  # a field changed, the old signature kept
    unsigned = {
        **files,
        "games.jsonl": ("\n".join([json.dumps(first), *lines[1:]]) + "\n").encode(),
    }
    with pytest.raises(ExportError, match=r"games\.jsonl:1: the record is not signed by this key"):
        check(tmp_path, resigned(unsigned, key), pem)


def test_a_record_listed_twice_or_in_no_round_is_refused(contest: Exported, tmp_path: Path) -> None:
    path, pem, key = contest
    files = members(path)
    rounds = json.loads(files["rounds.json"])
    games = rounds[0]["games"]
    twice = [*games, {**games[0], "number": len(games) + 1}]  # one record, two places
    listed = [{**rounds[0], "games": twice}, *rounds[1:]]
    doubled = {**files, "rounds.json": json.dumps(listed).encode()}
    with pytest.raises(ExportError, match=r"its record is not in games\.jsonl \(or is twice\)"):
        check(tmp_path, resigned(doubled, key), pem)
    dropped = [{**rounds[0], "games": games[1:]}, *rounds[1:]]  # its record left in no round
    orphan = {**files, "rounds.json": json.dumps(dropped).encode()}
    with pytest.raises(ExportError, match=r"games\.jsonl holds games in no round"):
        check(tmp_path, resigned(orphan, key), pem)


def test_what_is_no_whole_export_is_named(contest: Exported, tmp_path: Path) -> None:
    path, pem, key = contest
    files = members(path)
    bare = {k: v for k, v in files.items() if not k.startswith("MANIFEST")}
    with pytest.raises(
        ExportError, match=r"no MANIFEST\.json and MANIFEST\.sig: not a contest export"
    ):
        check(tmp_path, bare, pem)
    extra = {**files, "notes.txt": b"added after signing"}
    with pytest.raises(ExportError, match=r"the files are not those the manifest lists \(\['notes"):
        check(tmp_path, extra, pem)
    whole = path.read_bytes()
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(ExportError, match=r"not a whole \.tar\.gz"):
        verify_export(cut, public_key(pem, "pem"))
    for name, text, why in (
        ("rounds.json", b"{not json", r"rounds\.json is not JSON"),
        ("games.jsonl", b"[]\n", r"games\.jsonl:1: not a JSON object"),
        ("standings.json", b'{"rows": 3}', r"not an export's"),
    ):
        broken = {**files, name: text}
        with pytest.raises(ExportError, match=why):
            check(tmp_path, resigned(broken, key), pem)
    table = json.loads(files["standings.json"])
    table["rows"] = table["rows"][:-1]  # an entrant left out of a signed table
    short = {**files, "standings.json": json.dumps(table).encode()}
    with pytest.raises(ExportError, match="its entrants are not those the games give"):
        check(tmp_path, resigned(short, key), pem)


def test_arbiter_replay_checks_an_export_and_a_contestants_own_records(
    contest: Exported, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, pem, _ = contest
    pub = tmp_path / "contest.pub"
    pub.write_bytes(pem)
    assert main(["replay", str(path), "--public-key", str(pub)]) == 0
    assert "verified 4 games, 2 rounds and 3 standings rows" in capsys.readouterr().out
    files = members(path)
    files["rounds.json"] = files["rounds.json"].replace(b'"swiss"', b'"Swiss"', 1)
    bad = packed(tmp_path / "bad.tar.gz", files)
    assert main(["replay", str(bad), "--public-key", str(pub)]) == 1
    assert "rounds.json was changed after it was signed" in capsys.readouterr().out
    # a contestant's own games, one signed record a line
    own = tmp_path / "mine.jsonl"
    own.write_bytes(files["games.jsonl"].splitlines(keepends=True)[0])
    assert main(["replay", str(own), "--public-key", str(pub)]) == 0
    assert "1 of 1 records verified" in capsys.readouterr().out
    own.write_bytes(files["games.jsonl"].replace(b'"signature":"', b'"signature":"A'))
    assert main(["replay", str(own), "--public-key", str(pub)]) == 1
    assert "not signed by" in capsys.readouterr().out
    own.write_bytes(files["games.jsonl"].splitlines(keepends=True)[0])
    assert main(["replay", str(own)]) == 1  # signed records need the contest's key
    assert "signed by a contest, not sealed by this referee: check it with --public-key" in (
        capsys.readouterr().out
    )
    assert main(["replay", str(path)]) != 0  # an export needs the key
    assert "--public-key" in "".join(capsys.readouterr())


@pytest.mark.parametrize(
    "odd",
    [
        ("link", tarfile.SYMTYPE, "/etc/passwd", "is a symbolic link"),
        ("hard", tarfile.LNKTYPE, "manifest.json", "is a hard link"),
        ("fifo", tarfile.FIFOTYPE, "", "is a device or pipe"),
        ("../outside.json", tarfile.REGTYPE, "", "lies outside the archive"),
        ("/etc/cron.d/x", tarfile.REGTYPE, "", "lies outside the archive"),
    ],
)
def test_arbiter_replay_refuses_an_archive_holding_a_link_device_or_outside_path(
    contest: Exported,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    odd: tuple[str, bytes, str, str],
) -> None:
    path, pem, _ = contest
    pub = tmp_path / "contest.pub"
    pub.write_bytes(pem)
    name, kind, target, why = odd
    bad = tmp_path / "odd.tar.gz"
    with tarfile.open(path) as real, tarfile.open(bad, "w:gz") as archive:
        member = tarfile.TarInfo(name)
        member.type, member.linkname = kind, target
        archive.addfile(member, io.BytesIO(b"{}") if kind == tarfile.REGTYPE else None)
        if kind == tarfile.REGTYPE:
            member.size = 2
        for m in real.getmembers():  # every real file after it
            archive.addfile(m, real.extractfile(m))
    assert main(["replay", str(bad), "--public-key", str(pub)]) == 1
    out, err = capsys.readouterr()
    said = (out + err).strip()
    assert why in said and "Traceback" not in said and len(said.splitlines()) == 1, said


def test_the_results_a_round_played_again_erased_are_kept_signed(
    contest: Exported,
) -> None:
    path, pem, _ = contest
    files = members(path)
    kept = files["superseded.jsonl"].decode().splitlines()
    rounds = json.loads(files["rounds.json"])
    assert len(kept) == 2 and [len(r["superseded"]) for r in rounds] == [0, 2]
    key = public_key(pem, "the key")
    for line, listed in zip(kept, rounds[1]["superseded"], strict=True):
        assert hashlib.sha256(line.encode()).hexdigest() == listed["record"]
        assert record_signed(key, GameRecord.from_json(line))


def test_a_record_signature_covers_every_field(contest: Exported) -> None:
    path, pem, _ = contest
    line = members(path)["games.jsonl"].decode().splitlines()[0]
    record = GameRecord.from_json(line)
    key = public_key(pem, "pem")
    assert record_signed(key, record)
    data = json.loads(line)
    data["times"][0] += 0.001
    assert not record_signed(key, GameRecord.from_json(json.dumps(data)))


def test_the_export_of_a_stored_game_is_signed_by_the_server(
    tmp_path: Path, database_url: str
) -> None:
    db: Database
    db, config = seeded(tmp_path, database_url, ("alice", "bob"))
    with db.session() as s:
        make_round(s, config)
    play_round(db, config)
    with db.session() as s:
        stored = s.scalar(select(Game).where(Game.state == "done"))
        assert stored is not None
        record = GameRecord.from_json(stored.record)
        assert record.round == 1 and record.seal is None  # the worker's seal dropped


def test_an_export_with_sources_holds_each_played_versions_upload(tmp_path: Path) -> None:
    from arbiter.host.intake import version_dir
    from arbiter.host.models import Version

    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    key = ContestKey.of_folder(config.folder)
    with db.session() as s:
        make_round(s, config)  # three entrants, one bye: two versions play
    play_round(db, config, key)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        played = {n for g in s.scalars(select(Game)) for n in (g.first_id, g.second_id)}
        for v in s.scalars(select(Version)):
            upload = version_dir(config, v.id) / "upload" / v.filename
            upload.parent.mkdir(parents=True)
            upload.write_text(f"/* {v.account.name}'s program */\n")
        names = {
            f"sources/{v.account.name} v{v.number}/main.c"
            for v in s.scalars(select(Version))
            if v.id in played
        }
        job, made = export.start(s, None, sources=True, logs=False)
        assert made
    progress: list[int] = []
    write_progress = export._progress
    with pytest.MonkeyPatch.context() as patch:  # its progress said every second game here
        patch.setattr(export, "PROGRESS_EVERY", 2)
        patch.setattr(
            export,
            "_progress",
            lambda s, j, done: (progress.append(done), write_progress(s, j, done)),
        )
        export.run(config, job.id)
    assert progress == [2, 2]  # at the second game, and once more when all are written
    with db.session() as s:
        done = s.get(ExportJob, job.id)
        assert done is not None and done.state == "done", done and done.detail
        path = export.file_of(config, done)
    assert path is not None
    files = members(path)
    kept = path.parent.with_name("exports-kept") / path.name
    path.parent.rename(kept.parent)
    path.parent.write_text("")  # the exports' folder is now a file: the next one fails
    with db.session() as s:
        again, made = export.start(s, None, sources=False, logs=False)
        assert made and again.id != job.id
    export.run(config, again.id)
    with db.session() as s:
        failed = s.get(ExportJob, again.id)
        assert failed is not None and failed.state == "failed" and failed.detail
        assert export.file_of(config, failed) is None
    db.close()
    assert {f for f in files if f.startswith("sources/")} == names and len(names) == 2
    for name in names:
        owner = name.split("/")[1].split(" ")[0]
        assert files[name] == f"/* {owner}'s program */\n".encode()
    verify_export(kept, public_key(key.public_pem.encode(), "pem"))  # signed with the rest


def test_a_game_set_aside_unplayed_is_no_record_of_the_export(tmp_path: Path) -> None:
    """A void game has no record and counts for nobody: the export lists the games
    played, and still verifies."""
    from arbiter.host import settle

    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    key = ContestKey.of_folder(config.folder)
    with db.session() as s:
        make_round(s, config)  # three entrants, one bye: one pair's two games
        first = s.scalars(select(Game).order_by(Game.id)).first()
        assert first is not None
        settle.void(first, "its programs could not be fetched")
        s.commit()
    play_round(db, config, key)
    with db.session() as s:
        assert finish_round_if_done(s, 1)
        job, _ = export.start(s, None, sources=False, logs=False)
    path = written(db, config, job.id)
    db.close()
    files = members(path)
    rounds = json.loads(files["rounds.json"])
    assert len(files["games.jsonl"].splitlines()) == 1 and [len(r["games"]) for r in rounds] == [1]
    verify_export(path, public_key(key.public_pem.encode(), "pem"))


def test_an_export_holds_the_standings_its_games_give_while_the_page_s_are_frozen(
    tmp_path: Path,
) -> None:
    """The organiser froze the standings after the first round: the pages keep that
    table, but an export (which a contestant checks against its games) holds the one
    every stored game gives."""
    db, config = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob", "carol"))
    key = ContestKey.of_folder(config.folder)
    for number in (1, 2):
        with db.session() as s:
            make_round(s, config)
        play_round(db, config, key)
        with db.session() as s:
            assert finish_round_if_done(s, number)
        if number == 1:
            with db.session() as s:
                frozen = standings_data(s, config)
                s.add(Setting(key="frozen", value=json.dumps(frozen)))
                s.commit()
    with db.session() as s:
        assert standings_data(s, config)["games"] == frozen["games"] == 2  # the pages'
        live = standings_data(s, config, live=True)
        job, _ = export.start(s, None, sources=False, logs=False)
    assert live["games"] == 4
    path = written(db, config, job.id)
    db.close()
    held = json.loads(members(path)["standings.json"])
    assert held["games"] == 4 and not held["frozen"]
    verify_export(path, public_key(key.public_pem.encode(), "pem"))


def test_an_exports_progress_is_its_own(tmp_path: Path) -> None:
    """The progress an export writes is its job's alone: an earlier export keeps the
    count it finished with (the organiser's list of exports shows each as it was)."""
    db, _ = seeded(tmp_path, f"sqlite:///{tmp_path / 'cup.db'}", ("alice", "bob"))
    with db.session() as s:
        first, _ = export.start(s, None, sources=False, logs=False)
        first.state, first.done, first.total = "done", 4, 4
        s.commit()
        second, made = export.start(s, None, sources=False, logs=False)
        assert made and second.id != first.id
        export._progress(s, second, 1)
    with db.session() as s:
        kept, written = s.get(ExportJob, first.id), s.get(ExportJob, second.id)
        assert kept is not None and written is not None
        assert (kept.done, written.done) == (4, 1)
    db.close()
