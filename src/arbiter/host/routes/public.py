"""What anyone may see: the standings (a page and JSON; the live event stream is
:mod:`arbiter.host.events`), each contestant's page, the games and their replays, the
starter kits, and the contest's identity (which workers check before they send their
token)."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
import json
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from arbiter.errors import Reason
from arbiter.games import find_game
from arbiter.host import about, access, listing, settle
from arbiter.host.deps import DbSession, Host, Refused, Viewer, page
from arbiter.host.kits import kit_file, kits
from arbiter.host.models import (
    COUNTED,
    COUNTED_GAME,
    Account,
    Game,
    Round,
    Superseded,
    Version,
    now,
)
from arbiter.host.plot import rating_svg
from arbiter.host.ranking import RANKING_RULES
from arbiter.host.request_signing import challenge_message
from arbiter.host.rounds import entrants
from arbiter.host.signing import signed_line
from arbiter.host.standings import history
from arbiter.host.version_marks import version_marks
from arbiter.host.wire import ContestInfo
from arbiter.host.workers import contest_id
from arbiter.record import GameRecord
from arbiter.web.replays import moves_json, replay_json

from . import headed_page

router = APIRouter()


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request, who: Viewer, host: Host) -> HTMLResponse:
    return page(request, host, "standings.html", who, **host.board.data())


@router.get("/contest", response_class=HTMLResponse, include_in_schema=False)
def contest_page(request: Request, who: Viewer, host: Host) -> HTMLResponse:
    config = host.config
    return page(
        request,
        host,
        "contest.html",
        who,
        description=about.markdown(config.description),
        calendar=[*about.calendar_lines(config, now()), host.board.data().get("next_round")],
        upload_refusal=config.calendar.upload_refusal(now()),
        clock=about.clock_words(config),
        limits=about.limit_words(config),
        ranking=RANKING_RULES[config.rank_by],
        languages=about.languages(config),
        public_key=host.key.public_pem,
        guide=about.guide_html(config),
    )


@router.get("/contest.pub", response_class=PlainTextResponse, include_in_schema=False)
def public_key(host: Host) -> str:
    return host.key.public_pem


@router.get("/api/standings")
def standings_json(host: Host) -> Response:
    return Response(host.board.payload(), media_type="application/json")


@router.get("/api/contest")
def contest_info(
    host: Host,
    s: DbSession,
    challenge: Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")] = None,
) -> ContestInfo:
    """Who the server is; given a worker's ``challenge``, the contest key's signature
    of it, which proves this server holds the key the worker's token pins."""
    contest = contest_id(s)
    proof = None if challenge is None else host.key.sign(challenge_message(contest, challenge))
    info = ContestInfo(id=contest, name=host.config.name, game=host.config.game, proof=proof)
    s.commit()
    return info


@router.get("/contestants/{name}", response_class=HTMLResponse, include_in_schema=False)
def contestant(
    request: Request,
    name: str,
    who: Viewer,
    host: Host,
    s: DbSession,
    before: int | None = None,
    after: int | None = None,
) -> HTMLResponse:
    """An entrant's page: versions, rating after each round (stored when the round
    ended) and its games a page at a time, newest first."""
    account = s.scalar(select(Account).where(Account.name == name))
    if account is None or account.role != "contestant":
        raise Refused(404, f"no contestant {name!r}")
    versions = list(
        s.scalars(select(Version).where(Version.account_id == account.id).order_by(Version.number))
    )
    owner = who is not None and (who.id == account.id or access.is_organiser(who))
    return page(
        request,
        host,
        "contestant.html",
        who,
        account=account,
        versions=versions,
        marks=version_marks(s, host.config, account, versions),
        games=listing.entrant_games(s, account.id, before=before, after=after),
        candidates=listing.candidate_games(s, account.id) if owner else None,
        rating=rating_svg(history(s, account.name)),
        owner=owner,
        playable=any(e.name == account.name for e in entrants(s)),
    )


@router.get("/rounds/{number}", response_class=HTMLResponse, include_in_schema=False)
def round_page(
    request: Request, number: int, who: Viewer, host: Host, s: DbSession
) -> HTMLResponse:
    """A round of the contest: its games and results, and the results it had before
    it was played again (superseded: kept, never counted)."""
    rnd = s.scalar(select(Round).where(Round.number == number, COUNTED))
    if rnd is None:
        raise Refused(404, f"no round {number}")
    seats = [selectinload(g).selectinload(Version.account) for g in (Game.first, Game.second)]
    games = list(
        s.scalars(select(Game).where(Game.round_id == rnd.id).order_by(Game.number).options(*seats))
    )
    superseded = list(
        s.scalars(select(Superseded).where(Superseded.round_id == rnd.id).order_by(Superseded.id))
    )
    return page(request, host, "round.html", who, round=rnd, games=games, superseded=superseded)


@router.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def game_page(game_id: int, host: Host) -> HTMLResponse:
    """The replay page (the one ``arbiter serve`` shows), under the contest's name."""
    return HTMLResponse(headed_page("replay.html", host.config.name))


@router.get("/api/contest/games/{game_id}")
def game_json(game_id: int, who: Viewer, host: Host, s: DbSession) -> dict[str, Any]:
    """A contest game as its page shows it: a finished game's positions from its
    record, with the move where a program's fault ended it and the logs the viewer
    may open; a game waiting or being played with the moves its worker has sent so
    far (``live``: the page asks again until it ends)."""
    game = s.get(Game, game_id)
    if game is None or not access.sees_game(who, game):
        raise Refused(404, f"no game {game_id}")
    if game.state == "done":
        record = GameRecord.from_json(game.record)
        data = replay_json(record)
        data["live"] = False
        data["fault"] = _fault(record)
    else:
        held = json.loads(game.moves) if game.state == "leased" and game.moves else []
        names = [settle.version_name(game.first), settle.version_name(game.second)]
        data = moves_json(host.config.game, names, game.start, [m[0] for m in held])
        data.update(
            live=game.state != "void",
            times=[m[1] for m in held],
            time_control=host.config.clock,
            date="",
            fault=None,
            result={
                "result": "*",
                "winner": None,
                "reason": "",
                "detail": "",
                "text": _waiting(game),
            },
        )
    if game.state != "done":
        data["result"]["text"] = _waiting(game)
    data["round"] = game.round.number
    data["phase"] = game.round.phase
    data["logs"] = [
        f"/games/{game_id}/logs/{seat + 1}" if visible and game.state == "done" else None
        for seat, visible in enumerate(access.logs_visible(who, game))
    ]
    return data


def _waiting(game: Game) -> str:
    if game.state == "leased":
        return f"being played by {game.worker or 'a worker'}"
    if game.state == "void":
        return f"set aside unplayed: {game.detail}"
    return "waiting for a worker"


NOT_A_MOVE = frozenset({Reason.FORFEIT, Reason.ADJUDICATED, Reason.ABORTED})
"""Ends a referee rules on with no move of a program's at fault."""


def _fault(record: GameRecord) -> dict[str, Any] | None:
    """The move where a program's fault ended the game (its number, the seat, what it
    wrote), or None for a game that ended by the rules."""
    if record.winner is None or not record.reason.is_fault or record.reason in NOT_A_MOVE:
        return None
    return {
        "ply": len(record.moves) + 1,
        "seat": 1 - record.winner,
        "reason": str(record.reason),
        "detail": record.detail,
        "offending": record.offending,
    }


@router.get("/games/{game_id}/record.jsonl", response_class=PlainTextResponse)
def game_record(game_id: int, who: Viewer, host: Host, s: DbSession) -> str:
    """A finished game's record, signed by the contest: check it with
    ``arbiter replay FILE --public-key contest.pub``."""
    game = s.get(Game, game_id)
    if game is None or game.state != "done" or not access.sees_game(who, game):
        raise Refused(404, f"no finished game {game_id}")
    return signed_line(host.key, game.record) + "\n"


RECORDS_AT_ONCE = 500
"""Records read from the database at a time while a list of them is streamed."""


@router.get("/contestants/{name}/games.jsonl", response_class=PlainTextResponse)
def contestant_records(name: str, host: Host, s: DbSession) -> StreamingResponse:
    """Every finished contest game of an entrant's (its candidates' evaluations are
    its own: on their versions' pages), signed (records are public), streamed as it
    is read, a few hundred records at a time."""
    account = s.scalar(select(Account.id).where(Account.name == name, Account.role == "contestant"))
    if account is None:
        raise Refused(404, f"no contestant {name!r}")
    mine = (Game.first_account_id == account) | (Game.second_account_id == account)

    def lines() -> Iterator[str]:
        last = 0
        while True:
            with host.service.db.session() as own:  # the request's session is closed by now
                batch = own.execute(
                    select(Game.id, Game.record)
                    .where(Game.state == "done", mine, Game.id > last, COUNTED_GAME)
                    .order_by(Game.id)
                    .limit(RECORDS_AT_ONCE)
                ).all()
            if not batch:
                return
            yield "".join(signed_line(host.key, text) + "\n" for _, text in batch)
            last = batch[-1][0]

    return StreamingResponse(lines(), media_type="text/plain; charset=utf-8")


@router.get("/api/games/{game}/board")
def board(game: str, host: Host) -> dict[str, Any]:
    if game != host.config.game:
        raise Refused(404, f"this contest plays {host.config.game}")
    return find_game(game).board_view().layout.to_json()


@router.get("/games/{game_id}/logs/{seat}", response_class=PlainTextResponse)
def game_log(game_id: int, seat: int, who: Viewer, s: DbSession) -> str:
    game = s.get(Game, game_id)
    if game is None or seat not in (1, 2):
        raise Refused(404, "no such log")
    try:
        return access.game_log(who, game, seat - 1)
    except access.Hidden:
        raise Refused(404, "no such log") from None


@router.get("/kits", response_class=HTMLResponse, include_in_schema=False)
def kits_page(request: Request, who: Viewer, host: Host) -> HTMLResponse:
    return page(request, host, "kits.html", who, kits=kits(host.config.game))


@router.get("/kits/{language}/{name}")
def kit_download(language: str, name: str, host: Host) -> FileResponse:
    path = kit_file(host.config.game, language, name)
    if path is None:
        raise Refused(404, f"no starter kit file {language}/{name}")
    return FileResponse(path, filename=name, media_type="text/plain")
