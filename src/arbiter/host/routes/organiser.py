"""The organiser's page and actions: rounds, pause and freeze, entrants (disqualify,
reinstate, end their sessions), invitations, workers (revoke a token), games set
aside (queue one again) and the export."""

# no ``from __future__ import annotations``: FastAPI reads the annotations at run time
import json
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from arbiter.errors import ArbiterError
from arbiter.host import export as exports
from arbiter.host import listing, queue, sessions, settle, workers
from arbiter.host.accounts import invite
from arbiter.host.coordination import exclusive
from arbiter.host.deps import Checked, DbSession, Host, Hosting, Organiser, Refused, page
from arbiter.host.models import Account, ExportJob, Game, Round, Setting, Worker
from arbiter.host.operations import audit, audit_log, operations
from arbiter.host.rounds import (
    RoundError,
    begin_final,
    final_begun,
    finish_round_if_done,
    make_round,
    rerun_round,
    round_blocked,
)

router = APIRouter(include_in_schema=False)


@router.get("/organiser", response_class=HTMLResponse)
def organiser_page(
    request: Request,
    who: Organiser,
    host: Host,
    s: DbSession,
    before: int | None = None,
    after: int | None = None,
) -> HTMLResponse:
    machines = list(s.scalars(select(Worker).order_by(Worker.name)))
    playing: dict[str, list[int]] = {}
    for name, game_id in s.execute(select(Game.worker, Game.id).where(Game.state == "leased")):
        if name is not None:
            playing.setdefault(name, []).append(game_id)
    return page(
        request,
        host,
        "organiser.html",
        who,
        rounds=list(s.scalars(select(Round).order_by(Round.number))),
        round_blocked=round_blocked(s, host.config),
        accounts=list(s.scalars(select(Account).where(Account.role == "contestant"))),
        workers=[(w, playing.get(w.name, []), w.stored) for w in machines],
        set_aside=listing.void_games(s, before=before, after=after),
        paused=queue.paused(s),
        frozen=s.get(Setting, "frozen") is not None,
        invitation=request.session.pop("invitation", ""),
        final=host.config.calendar.final,
        final_begun=final_begun(s, host.config),
        operations=operations(s, [w.name for w in machines]),
        audit=audit_log(s),
        exports=list(s.scalars(select(ExportJob).order_by(ExportJob.id.desc()).limit(5))),
    )


@router.post("/organiser/rounds", dependencies=[Checked])
def new_round(who: Organiser, host: Host, s: DbSession) -> Response:
    try:
        with exclusive(s, "rounds"):  # not while another process makes one
            rnd = make_round(s, host.config)
    except RoundError as e:
        raise Refused(409, str(e)) from None
    audit(s, who, "new-round", str(rnd.number), f"Round {rnd.number} was paired and queued.")
    s.commit()
    host.service.changed()
    return RedirectResponse("/organiser", status_code=303)


@router.post("/organiser/export", dependencies=[Checked])
def export(
    who: Organiser,
    host: Host,
    s: DbSession,
    sources: Annotated[bool, Form()] = False,
    logs: Annotated[bool, Form()] = False,
) -> Response:
    """Starts the contest's signed export (:mod:`arbiter.host.export`): the records,
    rounds with byes and the standings, and at the organiser's choice the played
    versions' sources and the programs' logs. It is written in the background; the
    organiser's page shows its progress, then the link to the file."""
    job, made = exports.start(s, who, sources=sources, logs=logs)
    if made:
        parts = ", ".join(p for p, on in (("sources", sources), ("logs", logs)) if on)
        audit(s, who, "export", str(job.id), f"An export was started ({parts or 'results only'}).")
        s.commit()
        host.service.export(job.id)
    return RedirectResponse("/organiser#exports", status_code=303)


@router.get("/organiser/exports/{job_id}")
def export_file(job_id: int, who: Organiser, host: Host, s: DbSession) -> FileResponse:
    """A finished export's file."""
    job = s.get(ExportJob, job_id)
    path = None if job is None else exports.file_of(host.config, job)
    if path is None:
        raise Refused(404, f"no finished export {job_id}")
    return FileResponse(
        path, media_type="application/gzip", filename=f"contest-export-{job_id}.tar.gz"
    )


@router.post("/organiser/{action}", dependencies=[Checked])
def organiser_action(
    request: Request,
    action: str,
    who: Organiser,
    host: Host,
    s: DbSession,
    name: Annotated[str, Form(max_length=64)] = "",
    confirm: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    if action == "invite":
        code = invite(s)
        audit(s, who, "invite", "", "An invitation code was made.")
        s.commit()
        # shown once on the next page, kept out of the address (and so of the
        # browser's history and any proxy's log)
        request.session["invitation"] = code
        return RedirectResponse("/organiser", status_code=303)
    act = ACTIONS.get(action)
    if act is None:
        raise Refused(404, f"no action {action!r}")
    if confirm != "yes":
        # changes results or who plays: said in words and asked again, nothing done yet
        return page(
            request,
            host,
            "confirm.html",
            who,
            action=action,
            subject=name,
            title=TITLES[action].format(name=name),
            consequence=CONSEQUENCES[action].format(name=name),
        )
    try:
        act(host, s, name)
    except (RoundError, ArbiterError) as e:
        raise Refused(409, str(e)) from None
    audit(s, who, action, name, CONSEQUENCES[action].format(name=name))
    s.commit()
    host.service.changed()
    return RedirectResponse("/organiser", status_code=303)


def _pause(host: Hosting, s: Session, name: str) -> None:
    s.merge(Setting(key="paused", value="1"))


def _resume(host: Hosting, s: Session, name: str) -> None:
    if (setting := s.get(Setting, "paused")) is not None:
        s.delete(setting)


def _freeze(host: Hosting, s: Session, name: str) -> None:
    s.merge(Setting(key="frozen", value=json.dumps(host.board.data())))


def _unfreeze(host: Hosting, s: Session, name: str) -> None:
    if (setting := s.get(Setting, "frozen")) is not None:
        s.delete(setting)


def _contestant(s: Session, name: str) -> Account:
    account = s.scalar(select(Account).where(Account.name == name))
    if account is None or account.role != "contestant":
        raise Refused(404, f"no contestant {name!r}")
    return account


def _disqualify(host: Hosting, s: Session, name: str) -> None:
    """Out of the contest at once: signed out, its unplayed games forfeited."""
    account = _contestant(s, name)
    account.disqualified = True
    sessions.end_all(s, account.id)
    for round_id in settle.disqualify(s, host.config, account.id):
        s.flush()
        finish_round_if_done(s, round_id)


def _reinstate(host: Hosting, s: Session, name: str) -> None:
    _contestant(s, name).disqualified = False


def _end_sessions(host: Hosting, s: Session, name: str) -> None:
    sessions.end_all(s, _contestant(s, name).id)


def _rerun(host: Hosting, s: Session, name: str) -> None:
    rerun_round(s, int(name) if name.isdigit() else -1)


def _begin_final(host: Hosting, s: Session, name: str) -> None:
    begin_final(s, host.config)


def _revoke(host: Hosting, s: Session, name: str) -> None:
    workers.revoke(s, name)


def _resume_worker(host: Hosting, s: Session, name: str) -> None:
    workers.resume(s, name)


def _requeue(host: Hosting, s: Session, name: str) -> None:
    if not settle.requeue(s, int(name) if name.isdigit() else -1):
        raise Refused(409, f"game {name} is not a void game of the latest round")


ACTIONS = {
    "pause": _pause,
    "resume": _resume,
    "freeze": _freeze,
    "unfreeze": _unfreeze,
    "disqualify": _disqualify,
    "reinstate": _reinstate,
    "end-sessions": _end_sessions,
    "rerun": _rerun,
    "revoke": _revoke,
    "resume-worker": _resume_worker,
    "requeue": _requeue,
    "begin-final": _begin_final,
}
"""Each organiser action by its name in ``/organiser/NAME``; each takes the form's
``name`` (a contestant, a worker, a round or a game number)."""

TITLES = {
    "pause": "Pause play",
    "resume": "Resume play",
    "freeze": "Freeze the public standings",
    "unfreeze": "Unfreeze the public standings",
    "disqualify": "Disqualify {name}",
    "reinstate": "Reinstate {name}",
    "end-sessions": "Sign {name} out everywhere",
    "rerun": "Play round {name} again",
    "revoke": "Revoke worker {name}'s token",
    "resume-worker": "Hand worker {name} games again",
    "requeue": "Queue game {name} again",
    "begin-final": "Begin the final now",
}
"""Each action as its confirmation page names it: what it does, not its path."""

CONSEQUENCES = {
    "pause": "No worker is handed a new game until resumed; games being played finish.",
    "resume": "Workers are handed games again.",
    "end-sessions": "{name} is signed out on every browser (their results stay).",
    "revoke": "Worker {name}'s token opens nothing from now on; the games it is playing "
    "go back in the queue and its results not yet sent are refused.",
    "resume-worker": "Worker {name}, paused for the games it could not play, is handed "
    "games again.",
    "requeue": "Game {name}, set aside, goes back in the queue and its round plays again.",
    "disqualify": "{name} leaves the contest at once: signed out, every unplayed game of "
    "theirs in a round under way lost by forfeit, marked disqualified in the standings.",
    "reinstate": "{name} may play again from the next round.",
    "rerun": "Round {name} is played again: every result of it is erased (kept on the "
    "round's page and in the export as superseded) and its games go back in the queue "
    "with the same pairings, seats, openings and seeds.",
    "freeze": "The public standings stop changing until unfrozen (games go on).",
    "unfreeze": "The public standings show every result again.",
    "begin-final": "The final begins now: its rounds play each entrant's newest version "
    "accepted from an upload made before this moment; later uploads never play in it.",
}
"""What each audited action does, in words: shown before it is confirmed, kept in
the audit log after."""
