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
    from arbiter.errors import RecordError
    from arbiter.play.replay import replay
    from arbiter.record import key_path, read_lines, record_key

    signer = None
    if args.public_key is not None:
        from arbiter.host.export_check import ExportError, verify_export
        from arbiter.host.signing import public_key, record_signed

        try:
            pem = Path(args.public_key).read_bytes()
        except OSError as e:
            raise RecordError(f"cannot read public key {args.public_key!r}: {e.strerror}") from None
        signer = public_key(pem, repr(args.public_key))
        if args.file.endswith((".tar.gz", ".tgz")):
            try:
                done = verify_export(Path(args.file), signer, print)
            except ExportError as e:
                print(f"{args.file}: does not verify: {e}")
                return 1
            print(
                f"{args.file}: verified {done.games} games, {done.rounds} rounds and "
                f"{done.standings} standings rows, all signed by {args.public_key}"
            )
            return 0
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
    bad = 0
    count = 0
    for number, record in read_lines(args.file):
        count += 1
        if isinstance(record, RecordError):
            bad += 1
            print(record)
            continue
        who = f"{record.game} {' vs '.join(record.players)}"
        if signer is not None and not record_signed(signer, record):
            bad += 1
            why = "no signature" if record.signature is None else "a signature that does not match"
            print(f"{args.file}:{number}: {who}: not signed by {args.public_key} ({why})")
            continue
        if not args.unsealed and signer is None and record.signature and record.seal is None:
            bad += 1
            print(
                f"{args.file}:{number}: {who}: signed by a contest, not sealed by this "
                "referee: check it with --public-key FILE (the contest's key, from its "
                "/contest page)"
            )
            continue
        if key is not None and not record.sealed_by(key):
            bad += 1
            why = "no seal" if record.seal is None else "a seal that does not match"
            print(f"{args.file}:{number}: {who}: not written by this referee ({why})")
            continue
        try:
            out = replay(record)
        except RecordError as e:
            bad += 1
            print(f"{args.file}:{number}: {who}: {e}")
            continue
        print(
            f"{args.file}:{number}: ok {who}: {out.result()} by {out.reason}, "
            f"{len(record.moves)} moves"
        )
    if count == 0:
        raise RecordError(f"{args.file!r} holds no game records")
    print(f"{count - bad} of {count} records verified")
    return 1 if bad else 0


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
