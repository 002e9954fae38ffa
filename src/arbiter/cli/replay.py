"""``arbiter replay FILE``: every move, clock ruling, result and score of a record
file verified again (its seals, or a contest's signatures with ``--public-key``), a
contest export checked whole, PDN and PGN read move by move."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    """Adds ``replay`` to the ``arbiter`` parser's subcommands."""
    r = sub.add_parser("replay", help="re-verify every move and result of a record file")
    r.add_argument(
        "file", help="records (.jsonl), a contest export (.tar.gz), or PDN/PGN (.pdn, .pgn)"
    )
    r.add_argument(
        "--unsealed", action="store_true", help="check records that carry no seal of this referee"
    )
    r.add_argument(
        "--public-key",
        metavar="FILE",
        help="a contest's public key: check each record's signature, or a whole export "
        "(.tar.gz: every game, round and standing)",
    )


def cmd_replay(args: argparse.Namespace) -> int:
    """Checks the file ``replay`` names; the exit status is 1 if anything fails.

    :raises RecordError: for a key or a file that cannot be read, an export without
        its key, a results database, a file of no records.
    """
    from arbiter.errors import RecordError
    from arbiter.record import key_path, read_lines, record_key

    signer = None
    if args.public_key is not None:
        signer = _public_key(args.public_key)
        if args.file.endswith((".tar.gz", ".tgz")):
            return _verify_export(args.file, signer, args.public_key)
    elif args.file.endswith((".tar.gz", ".tgz")):
        raise RecordError(
            f"{args.file!r} is a contest export: check it with --public-key FILE "
            "(the contest's key, from its /contest page)"
        )
    if args.file.endswith((".pdn", ".pgn")):
        return _replay_portable(args.file)
    from arbiter.cli.tournament import is_database

    if is_database(args.file):
        raise RecordError(
            f"{args.file!r} is a results database: arbiter export {args.file} -o games.jsonl "
            "writes its records, which arbiter replay then checks"
        )
    key = None if args.unsealed or signer is not None else record_key()
    if key is None and not args.unsealed and signer is None:
        print(f"no record key at {key_path()}: seals are not checked")
    bad = count = 0
    for number, record in read_lines(args.file):
        count += 1
        said = _checked(args, record, signer, key)
        bad += not said.startswith("ok ")
        print(said if isinstance(record, RecordError) else f"{args.file}:{number}: {said}")
    if count == 0:
        raise RecordError(f"{args.file!r} holds no game records")
    print(f"{count - bad} of {count} records verified")
    return 1 if bad else 0


def _public_key(path: str) -> Any:
    """The contest's public key in the file ``path``.

    :raises RecordError: if it cannot be read, or holds no key.
    """
    from arbiter.errors import RecordError
    from arbiter.host.signing import public_key

    try:
        pem = Path(path).read_bytes()
    except OSError as e:
        raise RecordError(f"cannot read public key {path!r}: {e.strerror}") from None
    return public_key(pem, repr(path))


def _verify_export(path: str, signer: Any, key_file: str) -> int:
    """Checks a whole contest export against the contest's key; 1 if it fails."""
    from arbiter.host.export_check import ExportError, verify_export

    try:
        done = verify_export(Path(path), signer, print)
    except ExportError as e:
        print(f"{path}: does not verify: {e}")
        return 1
    print(
        f"{path}: verified {done.games} games, {done.rounds} rounds and "
        f"{done.standings} standings rows, all signed by {key_file}"
    )
    return 0


def _checked(args: argparse.Namespace, record: Any, signer: Any, key: bytes | None) -> str:
    """What checking one line of the file found: ``ok ...``, or what is wrong (its
    signature or seal, or its moves and result)."""
    from arbiter.errors import RecordError
    from arbiter.play.replay import replay

    if isinstance(record, RecordError):
        return str(record)
    who = f"{record.game} {' vs '.join(record.players)}"
    if signer is not None:
        from arbiter.host.signing import record_signed

        if not record_signed(signer, record):
            why = "no signature" if record.signature is None else "a signature that does not match"
            return f"{who}: not signed by {args.public_key} ({why})"
    if not args.unsealed and signer is None and record.signature and record.seal is None:
        return (
            f"{who}: signed by a contest, not sealed by this referee: check it with "
            "--public-key FILE (the contest's key, from its /contest page)"
        )
    if key is not None and not record.sealed_by(key):
        why = "no seal" if record.seal is None else "a seal that does not match"
        return f"{who}: not written by this referee ({why})"
    try:
        out = replay(record)
    except RecordError as e:
        return f"{who}: {e}"
    return f"ok {who}: {out.result()} by {out.reason}, {len(record.moves)} moves"


def _replay_portable(path: str) -> int:
    """Checks every game of a PDN or PGN-style file through the rules: each move legal,
    the result the rules' where the moves end the game.

    :raises RecordError: if the file cannot be read, has a malformed tag or no game.
    """
    from arbiter.errors import RecordError
    from arbiter.play.portable import check_game, read_games

    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise RecordError(f"cannot read {path!r}: {e.strerror}") from None
    bad = count = 0
    for game in read_games(text):
        count += 1
        who = " vs ".join(game.tags.get(k, "?") for k in _sides(game.tags))
        try:
            moves, outcome = check_game(game)
        except RecordError as e:
            bad += 1
            print(f"{path}: {e}")
            continue
        ended = "unfinished" if outcome is None else f"{game.result} by {outcome.reason}"
        print(f"{path}: game {game.number}: ok {game.game} {who}: {moves} moves legal, {ended}")
    if count == 0:
        raise RecordError(f"{path!r} holds no games")
    print(f"{count - bad} of {count} games verified")
    return 1 if bad else 0


def _sides(tags: dict[str, str]) -> list[str]:
    """The two side tags of a portable game, first mover first."""
    names = [k for k in tags if k in ("Black", "White", "First", "Second")]
    return names or ["Black", "White"]
