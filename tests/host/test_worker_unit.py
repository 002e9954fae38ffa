"""A worker's own judgement of a job before it plays: a program too large to fetch
is its program's fault, a job without a packed program is nobody's."""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from arbiter.errors import ArbiterError
from arbiter.host import server_link
from arbiter.host import worker as worker_module
from arbiter.host.request_signing import Token, challenge_message
from arbiter.host.server_link import NotTheContest, Revoked, ServerLink
from arbiter.host.signing import ContestKey
from arbiter.host.wire import Job, Player
from arbiter.host.worker import MAX_PROGRAM, Unplayable, Worker

TOKEN = Token.make("c0ffee", bytes(32)).text
Answer = Callable[[httpx.Request], httpx.Response]


def player(**change: object) -> Player:
    fields: dict[str, object] = {
        "version": 7,
        "program": "a" * 64,
        "size": 1000,
        "name": "alice v1",
        "language": "c",
    }
    return Player.model_validate({**fields, **change})


def leased(**change: object) -> Job:
    """Game 35 of a Votey contest, leased to the worker under test."""
    fields: dict[str, object] = {
        **{"id": 35, "round": 1, "number": 1, "seed": 0, "start": None, "game": "votey"},
        **{"time_control": "60/move", "memory_mb": 256, "disk_mb": 64},
        **{"lease_seconds": 60.0, "runs": {}, "lease": "f" * 32},
        "players": [player().model_dump(), player(version=8, name="bob v1").model_dump()],
    }
    return Job.model_validate({**fields, **change})


def test_a_program_too_large_is_its_seats_fault_and_never_fetched(tmp_path: Path) -> None:
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path)  # nothing listens there
    with pytest.raises(Unplayable, match="over the worker's") as refused:
        worker.program(1, player(size=MAX_PROGRAM + 1))
    assert refused.value.culprit == 1
    with pytest.raises(Unplayable, match="no packed program") as missing:
        worker.program(0, player(program=None, size=None))
    assert missing.value.culprit is None
    assert not (tmp_path / "programs").exists()  # nothing was fetched


def test_a_worker_keeps_its_results_apart_per_contest_and_name(tmp_path: Path) -> None:
    one = Worker("http://a:1", TOKEN, tmp_path, name="lab/7")
    two = Worker("http://a:1", Token.make("beef", bytes(32)).text, tmp_path, name="lab/7")
    assert one.spool != two.spool and one.spool.parent == tmp_path / "results"
    assert "/" not in one.spool.name.removeprefix("c0ffee-")


def test_a_program_that_does_not_verify_is_fetched_again_once_then_blames_no_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=io.StringIO())
    worker._verified = True  # as after the server proved itself
    fetched: list[int] = []

    def corrupt(version: int, size: int, target: Path) -> None:
        fetched.append(version)
        target.write_bytes(b"not the archive")

    monkeypatch.setattr(worker, "_download", corrupt)
    with pytest.raises(Unplayable, match="does not match its hash") as refused:
        worker.program(1, player())
    assert fetched == [7, 7] and refused.value.culprit is None


def test_a_program_that_does_not_unpack_twice_is_reported_against_its_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    junk = b"this is no gzip archive"
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=io.StringIO())
    worker._verified = True  # as after the server proved itself
    fetched: list[int] = []

    def download(version: int, size: int, target: Path) -> None:
        fetched.append(version)
        target.write_bytes(junk)

    monkeypatch.setattr(worker, "_download", download)
    sha = hashlib.sha256(junk).hexdigest()
    with pytest.raises(Unplayable) as refused:
        worker.program(1, player(program=sha, size=len(junk)))
    assert fetched == [7, 7] and refused.value.culprit == 1


def test_a_result_refused_is_said_in_one_line_naming_its_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    out = io.StringIO()
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=out)
    refusal = {"error": "game 35: the lease is not this worker's (it ran out?)"}
    monkeypatch.setattr(worker, "call", lambda *a: httpx.Response(409, json=refusal))
    spooled = tmp_path / "35.json"
    spooled.write_text(
        json.dumps({"game": 35, "lease": "x", "record": "{}", "logs": ["", ""], "summary": "s"})
    )
    worker._deliver(spooled)
    said = out.getvalue()
    assert said == "game 35: not stored: the lease is not this worker's (it ran out?)\n"
    assert not spooled.exists()


def contest_answer(key: ContestKey, request: httpx.Request) -> httpx.Response:
    """Contest ``cup1``'s answer to ``/api/contest``: its id, and the proof that it holds
    the key the token pins (the challenge signed)."""
    proof = key.sign(challenge_message("cup1", request.url.params["challenge"]))
    return httpx.Response(200, json={"id": "cup1", "name": "Cup", "game": "votey", "proof": proof})


def linked(key: ContestKey, answer: Answer, say: Callable[[str], None]) -> ServerLink:
    """A worker's link to a server that answers as ``answer`` does (no network)."""
    link = ServerLink("http://cup.example", Token.make("cup1", key.public_raw).text, say, 1.0)
    link.client = httpx.Client(base_url=link.url, transport=httpx.MockTransport(answer))
    return link


def served_by(worker: Worker, answer: Answer) -> None:
    """Makes the worker's calls reach ``answer`` (no network)."""
    worker.client = httpx.Client(base_url=worker.url, transport=httpx.MockTransport(answer))


def test_a_stranger_at_first_contact_stops_the_worker_and_after_it_is_a_server_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong address is said at once (the worker stops); once the contest has answered
    there, a stranger in its place (a proxy's page while the server restarts) is the
    server away: waited for, and the calls go on when the contest is back."""
    key = ContestKey.of_folder(tmp_path / "cup")
    who = {"server": "stranger"}
    strangers = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/contest":
            if who["server"] == "stranger":
                strangers["n"] += 1
                if strangers["n"] > 20:  # a worker that never gives up: stopped here
                    raise RuntimeError("the worker kept calling a stranger")
                return httpx.Response(200, json={"id": "other", "name": "Other", "game": "votey"})
            return contest_answer(key, request)
        return httpx.Response(200, json={"state": "ok"})

    said: list[str] = []
    link = linked(key, answer, said.append)
    monkeypatch.setattr(link.stopped, "wait", lambda seconds: False)  # no wait between tries
    with pytest.raises(NotTheContest, match=r"is contest 'Other' \(other\), not this token's"):
        link.call("POST", "/api/worker/lease", {})
    who["server"] = "contest"
    assert link.call("POST", "/api/worker/lease", {}).json() == {"state": "ok"}
    calls = {"n": 0}

    def stranger_once(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        who["server"] = "stranger" if calls["n"] == 1 else "contest"
        return answer(request)

    link.verified = False  # the server went away: the next call checks it again
    link.client = httpx.Client(base_url=link.url, transport=httpx.MockTransport(stranger_once))
    assert link.call("POST", "/api/worker/lease", {}).json() == {"state": "ok"}
    assert said[0].startswith("server away (") and "not this token's" in said[0]
    assert said[-1].startswith("server back after ")


def first_then_ok(key: ContestKey, first: httpx.Response) -> Answer:
    """A server that answers its first call ``first`` and every later one "ok"."""
    answers = [first]

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/contest":
            return contest_answer(key, request)
        return answers.pop(0) if answers else httpx.Response(200, json={"state": "ok"})

    return answer


def test_a_gateway_s_error_is_the_server_away_and_the_server_s_own_error_is_its_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """502, 503 and 504 are what a proxy says while the server restarts: waited out,
    and the call goes on when it is back. A 500 is the server's own answer, handed to
    the caller at once (which says it): trying again would only fail again."""
    key = ContestKey.of_folder(tmp_path / "cup")
    for status in (502, 503, 504):
        said: list[str] = []
        link = linked(key, first_then_ok(key, httpx.Response(status)), said.append)
        monkeypatch.setattr(link.stopped, "wait", lambda seconds: False)
        assert link.call("POST", "/api/worker/lease", {}).json() == {"state": "ok"}
        assert said[0] == f"server away (http://cup.example answered {status}); trying again"
        assert said[-1].startswith("server back after ")

    broken = first_then_ok(key, httpx.Response(500, json={"error": "internal error"}))

    def say(line: str) -> None:
        raise AssertionError(f"a server's own error taken for the server away: {line}")

    assert linked(key, broken, say).call("POST", "/api/worker/lease", {}).status_code == 500


def test_a_refused_token_is_said_with_the_servers_words(tmp_path: Path) -> None:
    key = ContestKey.of_folder(tmp_path / "cup")

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/contest":
            return contest_answer(key, request)
        return httpx.Response(401, json={"error": "this worker's token was revoked"})

    def say(line: str) -> None:  # a refusal taken for a server away would retry for ever
        assert not line.startswith("server away"), line

    link = linked(key, answer, say)
    with pytest.raises(
        Revoked, match="refused this worker's token: this worker's token was revoked"
    ):
        link.call("POST", "/api/worker/lease", {})


def test_a_spooled_result_carries_each_seats_log_at_its_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a worker keeps while the server is away is what it sends once it is back:
    the record, and the first seat's log as the first, the second's as the second."""
    from arbiter.errors import Reason
    from arbiter.record import GameRecord

    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=io.StringIO())
    job = leased()
    record = GameRecord(
        game="votey", players=("alice v1", "bob v1"), moves=("1121",), times=(0.1,),
        winner=1, reason=Reason.TIME, detail="", time_control="60/move",
    )  # fmt: skip
    path = worker._spool(job, record, ["alice's own words", "bob's own words"])
    sent: list[tuple[str, str, dict[str, object]]] = []

    def call(method: str, target: str, body: dict[str, object]) -> httpx.Response:
        sent.append((method, target, body))
        return httpx.Response(200, json={})

    monkeypatch.setattr(worker, "call", call)
    assert worker.deliver_spooled() == 1
    [(method, target, body)] = sent
    assert (method, target) == ("POST", "/api/worker/games/35/result")
    assert body["logs"] == ["alice's own words", "bob's own words"]
    assert body["lease"] == "f" * 32 and body["record"] == record.to_json()
    assert not path.exists() and worker.played == 1
    said = worker.out.getvalue()  # type: ignore[attr-defined]
    assert said == "game 35: 0-1 by time, 1 plies: stored\n"


def test_each_seat_s_log_is_read_from_its_own_file_as_its_last_256_kib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a game the worker reads each seat's stderr from the file the referee wrote
    for that seat: the first seat's first, and of a long one its end."""
    from arbiter.errors import Reason
    from arbiter.host import worker as worker_module
    from arbiter.host.wire import Job
    from arbiter.record import GameRecord
    from arbiter.referee.transcript import game_dir

    record = GameRecord(
        game="votey", players=("alice v1", "bob v1"), moves=("1121",), times=(0.1,),
        winner=1, reason=Reason.TIME, detail="", time_control="60/move",
    )  # fmt: skip
    long = "early " + "x" * (256 * 1024) + " the end"

    def play_job(job: Any, events: Any) -> GameRecord:
        folder = Path(game_dir(job.supervision.log_dir, job.number))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "2-bob v1.log").write_text("bob's own words")
        (folder / "1-alice v1.log").write_text(long)
        return record

    monkeypatch.setattr(worker_module, "play_job", play_job)
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path / "w", out=io.StringIO())
    job = Job.model_validate(
        {
            **{"id": 35, "round": 1, "number": 4, "seed": 0, "start": None, "game": "votey"},
            **{"time_control": "60/move", "memory_mb": 256, "disk_mb": 64},
            **{"lease_seconds": 60.0, "runs": {"c": "./main"}, "lease": "f" * 32},
            "players": [player().model_dump(), player(version=8, name="bob v1").model_dump()],
        }
    )
    played, stderr = worker._play(job, [tmp_path, tmp_path], str(tmp_path / "logs"), print)
    assert played is record
    assert stderr == [long[-256 * 1024 :], "bob's own words"]


def test_a_worker_waits_out_refusals_each_as_long_as_its_kind_wants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding the token is waited out near ``away_max`` (saying so
    once); an empty queue is asked again after a wait that grows by half each time up
    to its cap; any other refusal waits the cap."""
    from arbiter.host import worker as worker_module

    out = io.StringIO()
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=out, away_max=0.4)
    in_use = httpx.Response(409, json={"error": "the token is in use", "code": "token-in-use"})
    answers = [in_use, in_use, *[httpx.Response(204)] * 6, httpx.Response(500, json={})]
    waits: list[float] = []

    def call(method: str, target: str, body: dict[str, object]) -> httpx.Response:
        if not answers:
            raise KeyboardInterrupt
        return answers.pop(0)

    monkeypatch.setattr(worker, "call", call)
    monkeypatch.setattr(worker_module.time, "sleep", waits.append)
    with pytest.raises(KeyboardInterrupt):
        worker.run()
    assert all(0.8 * 0.4 <= w <= 1.2 * 0.4 for w in waits[:2])
    assert waits[2:] == [0.5, 0.75, 1.125, 1.6875, 2.53125, 3.796875, 5.0]
    assert out.getvalue().splitlines() == [
        "waiting: the token is in use",
        "the server refused a lease (500): " + server_link.error_of(httpx.Response(500, json={})),
    ]


def test_a_program_download_stops_at_the_size_its_job_gave(tmp_path: Path) -> None:
    """A server (or whatever answers in its place) sending more than the job said is
    cut off there: the worker's disk holds no more than that size."""
    sent = {"bytes": b"x" * 1500}

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/worker/programs/7"
        return httpx.Response(200, content=sent["bytes"])

    worker = Worker("http://cup.example", TOKEN, tmp_path, out=io.StringIO())
    served_by(worker, answer)
    target = tmp_path / "program.tar.gz"
    with pytest.raises(Unplayable, match="is over its 1000 bytes"):
        worker._download(7, 1000, target)
    assert target.stat().st_size <= 1000
    sent["bytes"] = b"x" * 1000  # exactly the size: taken whole
    worker._download(7, 1000, target)
    assert target.read_bytes() == sent["bytes"]


def test_a_long_backlog_of_live_moves_goes_in_pieces_the_server_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More moves waiting than one send may carry (a server away for a while, a fast
    game) go in pieces of at most 500, each from where the last ended: one piece too
    big is refused by the wire's own check and the page would see none again."""
    import json
    import threading
    import time
    from types import SimpleNamespace

    from arbiter.host import worker as worker_module
    from arbiter.host.worker import LiveMoves

    bodies: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/worker/games/5/moves"
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={})

    monkeypatch.setattr(worker_module, "STREAM_EVERY", 0.01)
    worker = Worker("http://cup.example", TOKEN, tmp_path, out=io.StringIO())
    served_by(worker, answer)
    worker._verified = True
    live = LiveMoves()
    live._moves = [(f"m{i}", 0.1) for i in range(1201)]
    stop = threading.Event()
    job = SimpleNamespace(id=5, lease="a" * 32)
    streaming = threading.Thread(target=worker._stream, args=(job, live, stop))
    streaming.start()
    deadline = time.monotonic() + 30
    while sum(len(b["moves"]) for b in bodies) < 1201 and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    streaming.join()
    assert [(b["start"], len(b["moves"])) for b in bodies] == [(0, 500), (500, 500), (1000, 201)]
    assert [m["text"] for b in bodies for m in b["moves"]] == [f"m{i}" for i in range(1201)]


def test_a_worker_waits_longer_each_time_the_server_is_away_up_to_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Doubling waits (0.5, 1, 2 s ...) up to ``away_max``: a server back soon is found
    soon, and a hundred workers of a server gone for the night do not knock at it
    twice a second each."""
    waits: list[float] = []
    monkeypatch.setattr(server_link.random, "uniform", lambda low, high: 1.0)  # no jitter
    link = ServerLink("http://cup.example", TOKEN, lambda line: None, away_max=5.0)
    # the worker's thread waits on its stop event (here never set), the others sleep
    monkeypatch.setattr(link.stopped, "wait", lambda seconds: waits.append(seconds) or False)
    link.met = True  # the contest answered once: now it is away
    monkeypatch.setattr(link, "verify", lambda: setattr(link, "verified", True))
    tries = iter(range(7))

    def attempt() -> str:
        if next(tries) < 6:
            raise httpx.ConnectError("refused")
        return "answered"

    assert link.retrying(attempt) == "answered"
    assert waits == [0.5, 1.0, 2.0, 4.0, 5.0, 5.0]


def test_a_worker_told_to_stop_while_its_server_is_away_stops_at_once(tmp_path: Path) -> None:
    """SIGTERM (a service manager's stop) reaches a worker that is asking for a game of a
    server that is away: nothing was granted, so it stops now (exit 0) rather than
    trying again until it is killed."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "arbiter.host.worker", "http://127.0.0.1:9"]
    command += ["--token", TOKEN, "--cache", str(tmp_path)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    ) as worker:
        assert worker.stdout is not None
        first = worker.stdout.readline()
        assert first.startswith("server away"), first
        worker.send_signal(signal.SIGTERM)
        try:
            rest, _ = worker.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
            rest = "still trying a minute later: " + worker.communicate()[0]
    assert worker.returncode == 0, rest
    assert "SIGTERM: stopping" in rest


@pytest.mark.parametrize(
    ("error", "culprit"),
    [(Unplayable("its program is too big", 1), 1), (ArbiterError("the disk is full"), None)],
)
@pytest.mark.parametrize(("answer", "state"), [(200, "queued"), (409, "not ours")])
def test_a_game_the_worker_cannot_play_is_reported_with_its_culprit(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error: ArbiterError,
    culprit: int | None,
    answer: int,
    state: str,
) -> None:
    """A game that cannot be played here is reported, not dropped: its lease, why (cut
    to 2000 characters) and the seat at fault (none for this machine's trouble), and the
    worker says what became of the game."""
    out = io.StringIO()
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=out)
    sent: list[tuple[str, str, dict[str, object] | None]] = []

    def call(method: str, target: str, body: dict[str, object] | None = None) -> httpx.Response:
        sent.append((method, target, body))
        return httpx.Response(answer, json={"state": "queued"} if answer == 200 else {})

    def program(seat: int, p: Player) -> Path:
        if seat == 1 or culprit is None:
            raise error
        return tmp_path

    monkeypatch.setattr(worker, "call", call)
    monkeypatch.setattr(worker, "program", program)
    worker.play(leased())
    why = str(error)
    assert sent == [
        (
            "POST",
            "/api/worker/games/35/failure",
            {"lease": "f" * 32, "reason": why, "culprit": culprit},
        )
    ]
    said = out.getvalue().splitlines()
    assert said[-1] == f"game 35: could not be played: {why} (the game is {state})"
    sent.clear()
    monkeypatch.setattr(
        worker, "program", lambda seat, p: (_ for _ in ()).throw(Unplayable("x" * 3000))
    )
    worker.play(leased())
    assert sent[0][2] == {"lease": "f" * 32, "reason": "x" * 2000, "culprit": None}


@pytest.mark.parametrize("verified", [True, False])
def test_a_worker_interrupted_mid_game_gives_its_game_back_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, verified: bool
) -> None:
    """Ctrl-C during a game (the server stopping its local workers) releases the game's
    lease at once, so another worker plays it without waiting for the lease to run out;
    a worker that has not yet checked the server it talks to sends it nothing."""
    asked: list[tuple[str, object]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        asked.append((request.url.path, json.loads(request.content)))
        return httpx.Response(200, json={"state": "queued"})

    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=io.StringIO())
    served_by(worker, answer)
    worker._verified = verified

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(worker, "program", lambda seat, p: tmp_path)
    monkeypatch.setattr(worker, "_play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        worker.play(leased())
    released = [(path, body) for path, body in asked if path.endswith("/release")]
    if verified:
        assert released == [("/api/worker/games/35/release", {"lease": "f" * 32})]
    else:
        assert released == []


def test_a_token_refused_mid_game_ends_the_worker_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lease's heartbeat answered 401 (the organiser revoked the worker): the worker
    notes why and interrupts its own game; a heartbeat the network lost is one missed
    beat, after which the server is checked again."""
    import threading

    beats: list[str] = []
    lost = [True]

    def answer(request: httpx.Request) -> httpx.Response:
        beats.append(request.url.path)
        if lost[0]:
            lost[0] = False
            raise httpx.ConnectError("gone", request=request)
        return httpx.Response(401, json={"error": "this worker's token was revoked"})

    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=io.StringIO())
    served_by(worker, answer)
    worker._verified = True
    checked: list[bool] = []
    monkeypatch.setattr(worker.link, "verify", lambda: checked.append(True))
    killed: list[tuple[int, int]] = []
    monkeypatch.setattr(worker_module.os, "kill", lambda pid, sig: killed.append((pid, sig)))
    stop = threading.Event()
    beating = threading.Thread(target=worker._heartbeat, args=(leased(lease_seconds=3.0), stop))
    beating.start()
    beating.join(timeout=30)
    assert not beating.is_alive()
    assert beats == ["/api/worker/games/35/heartbeat"] * 2 and checked == [True]
    assert killed == [(os.getpid(), signal.SIGINT)]
    assert (
        worker.revoked == "the server refused this worker's token: this worker's token was revoked"
    )


def test_a_job_this_worker_cannot_read_and_a_spooled_result_it_cannot_read_are_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server of another arbiter version hands out a job this worker does not read:
    said in one line, the worker waits and asks again. A spooled
    result that does not read (a half-written file) is said and dropped, not tried at
    every start for ever; a readable one beside it is still delivered."""
    import json

    out = io.StringIO()
    worker = Worker("http://127.0.0.1:9", TOKEN, tmp_path, out=out)
    worker.spool.mkdir(parents=True)
    (worker.spool / "7.json").write_text('{"game": 7, "lea')  # cut short
    good = {"game": 8, "lease": "x", "record": "{}", "logs": ["", ""], "summary": "s"}
    (worker.spool / "8.json").write_text(json.dumps(good))
    asked: list[str] = []

    def call(method: str, target: str, body: dict[str, object] | None = None) -> httpx.Response:
        asked.append(target)
        if target.endswith("/result"):
            return httpx.Response(200, json={"state": "done"})
        if len(asked) > 3:
            raise KeyboardInterrupt  # Ctrl-C: the test is done
        return httpx.Response(200, json={"id": 35, "game": "votey"})  # most fields missing

    slept: list[float] = []
    monkeypatch.setattr(worker, "call", call)
    monkeypatch.setattr(worker_module.time, "sleep", slept.append)
    with pytest.raises(KeyboardInterrupt):
        worker.run()
    said = out.getvalue().splitlines()
    assert said[0].startswith("a spooled result 7.json is unreadable (")
    assert said[0].endswith("): dropped") and not (worker.spool / "7.json").exists()
    assert not (worker.spool / "8.json").exists() and asked[0] == "/api/worker/games/8/result"
    refused = [line for line in said if line.startswith("the server's job is not one")]
    assert len(refused) == 2 and slept == [worker_module.IDLE_MAX] * 2
