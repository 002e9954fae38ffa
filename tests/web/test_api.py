"""The browser's API for every game: a game against an engine started, moves entered
as the cells clicked and checked by the rules, bad requests refused with a clear
message and a 4xx status, the game's end."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from arbiter.agents.spec import AgentSpec
from arbiter.contract.probes import find_position
from arbiter.games import GAME_NAMES, find_game, game_names
from arbiter.games.chinese_checkers import rules as cc_rules
from arbiter.games.halma import rules as halma_rules
from arbiter.web.app import create_app

BOARD_GAMES = [name for name in game_names() if find_game(name).board is not None]
"""Every registered game with a board: the five contests', and the toy games'."""


def move_path(game: str, s: Any, m: Any) -> tuple[int, ...]:
    """The cells a person clicks for the legal move ``m`` of ``game`` in ``s``."""
    return find_game(game).board_view().clicks.move_path(s, m)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def wait_for(client: TestClient, sid: str, ready: Any, seconds: float = 20.0) -> dict[str, Any]:
    """The session's snapshot once ``ready(snapshot)`` holds."""
    deadline = time.monotonic() + seconds
    while True:
        snap = client.get(f"/api/sessions/{sid}").json()
        if ready(snap) or time.monotonic() > deadline:
            return snap
        time.sleep(0.02)


def a_legal_path(client: TestClient, sid: str) -> list[int]:
    """A legal move's cells, found by following the server's continuations."""
    clicks: list[int] = []
    while True:
        found = client.post(f"/api/sessions/{sid}/continuations", json={"clicks": clicks}).json()
        if found["complete"] and (not found["next"] or len(clicks) > 1):
            return clicks
        clicks.append(found["next"][0])


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_a_person_plays_a_move_and_the_engine_answers(client: TestClient, game: str) -> None:
    r = client.post("/api/sessions", json={"game": game, "engine": "random", "move_time": 0.1})
    assert r.status_code == 201
    snap = r.json()
    assert snap["your_turn"] and snap["human"] == 0 and snap["ply"] == 0
    assert snap["players"] == ["you", "random"]
    assert snap["origins"]  # a game of drops starts with no pieces
    sid = snap["id"]
    path = a_legal_path(client, sid)
    moved = client.post(f"/api/sessions/{sid}/move", json={"clicks": path})
    assert moved.status_code == 200, moved.json()
    after = wait_for(client, sid, lambda s: s["your_turn"] or s["result"])
    assert after["ply"] == 2 and len(after["moves"]) == 2
    assert after["moves"][0]["seat"] == 0 and after["moves"][1]["seat"] == 1
    assert after["last"]  # the engine's move, to highlight
    assert after["pieces"] != snap["pieces"]


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_an_illegal_move_is_refused_with_a_message_and_changes_nothing(
    client: TestClient, game: str
) -> None:
    snap = client.post("/api/sessions", json={"game": game, "engine": "random"}).json()
    sid = snap["id"]
    origin = snap["origins"][0]
    found = client.post(f"/api/sessions/{sid}/continuations", json={"clicks": [origin]}).json()
    wrong = next(c for c in range(300) if c not in found["next"] and c != origin)
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": [origin, wrong]})
    assert r.status_code == 422
    assert r.json()["error"].startswith("not a legal move: ")
    # a piece that cannot move, or no piece at all
    stuck = next(c for c in range(300) if c not in snap["origins"])
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": [stuck]})
    assert r.status_code == 422
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0


@pytest.mark.parametrize("game", GAME_NAMES)  # a toy game's tree is searched in a blink
def test_a_move_out_of_turn_is_refused(client: TestClient, game: str) -> None:
    # the engine thinks a whole second, so its turn lasts long enough to ask in it
    snap = client.post(
        "/api/sessions", json={"game": game, "engine": "alphabeta", "move_time": 1.0}
    ).json()
    sid = snap["id"]
    # a move after which the engine has a choice to think over (a forced reply is instant)
    spec = find_game(game)
    rules = spec.make()
    s = spec.notation.parse_position(snap["position"])
    m = next(m for m in rules.legal_moves(s) if len(rules.legal_moves(rules.apply(s, m))) > 1)
    path = list(move_path(game, s, m))
    assert client.post(f"/api/sessions/{sid}/move", json={"clicks": path}).status_code == 200
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": path})
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert client.post(f"/api/sessions/{sid}/undo").status_code == 409


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_resigning_ends_the_game_and_a_finished_game_takes_no_move(
    client: TestClient, game: str
) -> None:
    snap = client.post("/api/sessions", json={"game": game, "side": "second"}).json()
    sid = snap["id"]
    assert snap["human"] == 1 and snap["your_turn"] and snap["ply"] == 1  # the engine began
    assert snap["players"] == ["alphabeta", "you"]  # the default engine, in the first seat
    path = a_legal_path(client, sid)
    ended = client.post(f"/api/sessions/{sid}/resign").json()
    assert ended["result"]["winner"] == 0 and ended["result"]["reason"] == "resignation"
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": path})
    assert r.status_code == 409 and "the game is over: 1-0 by resignation" in r.json()["error"]


@pytest.mark.parametrize("game", ["votey", "checkers"])
def test_a_whole_game_played_through_the_api_ends_with_its_result(
    client: TestClient, game: str
) -> None:
    snap = client.post("/api/sessions", json={"game": game, "engine": "greedy"}).json()
    sid = snap["id"]
    while snap["result"] is None:
        moved = client.post(f"/api/sessions/{sid}/move", json={"clicks": a_legal_path(client, sid)})
        assert moved.status_code == 200, moved.json()
        snap = wait_for(client, sid, lambda s: s["your_turn"] or s["result"])
    assert snap["result"]["reason"] in (
        "connected",
        "no moves",
        "no pieces",
        "repetition",
        "move limit",
    )
    assert snap["ply"] == len(snap["moves"]) and not snap["your_turn"]


def test_undo_takes_back_the_person_s_move_and_the_reply(client: TestClient) -> None:
    snap = client.post("/api/sessions", json={"game": "alquerque", "engine": "random"}).json()
    sid = snap["id"]
    assert not snap["can_undo"]
    client.post(f"/api/sessions/{sid}/move", json={"clicks": a_legal_path(client, sid)})
    after = wait_for(client, sid, lambda s: s["your_turn"])
    assert after["ply"] == 2 and after["can_undo"]
    back = client.post(f"/api/sessions/{sid}/undo").json()
    back = wait_for(client, sid, lambda s: s["your_turn"] and s["ply"] == 0)
    assert back["ply"] == 0 and back["pieces"] == snap["pieces"] and back["moves"] == []


def test_no_take_back_before_the_person_has_moved_even_after_the_engine_has(
    client: TestClient,
) -> None:
    body = {"game": "alquerque", "engine": "random", "side": "second"}
    snap = client.post("/api/sessions", json=body).json()
    sid = snap["id"]
    after = wait_for(client, sid, lambda s: s["your_turn"])
    assert after["ply"] == 1 and not after["can_undo"]  # the engine's move is not theirs
    refused = client.post(f"/api/sessions/{sid}/undo")
    assert refused.status_code == 409
    assert refused.json()["error"] == "there is no move of yours to take back"
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 1


def test_a_program_takes_no_take_backs() -> None:
    """A program cannot be wound back (its own state is its own), so take-backs are
    refused against it, by name, while the same game against a built-in takes them."""
    house = AgentSpec.parse(f"{sys.executable} -m arbiter.cli agent alquerque", name="house")
    with TestClient(create_app(agents={"alquerque": [house]})) as client:
        snap = client.post("/api/sessions", json={"game": "alquerque", "engine": "house"}).json()
        sid = snap["id"]
        client.post(f"/api/sessions/{sid}/move", json={"clicks": a_legal_path(client, sid)})
        after = wait_for(client, sid, lambda s: s["your_turn"])
        assert after["ply"] == 2 and not after["can_undo"]
        refused = client.post(f"/api/sessions/{sid}/undo")
        assert refused.status_code == 409
        assert refused.json()["error"] == "take-backs are only allowed against a built-in engine"
        assert client.get(f"/api/sessions/{sid}").json()["ply"] == 2  # nothing taken back


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "votey", "engine": "./evil.sh"}, "unknown engine './evil.sh'"),
        ({"game": "votey", "engine": "rm -rf /"}, "unknown engine 'rm -rf /'"),
        ({"game": "votey", "side": "purple"}, "unknown side 'purple'"),
        ({"game": "votey", "clock": "fast"}, "fast"),
        ({"game": "votey", "move_time": -1}, "bad request: move_time"),
        ({"side": "first"}, "bad request: game"),
    ],
)
def test_bad_requests_get_a_clear_4xx(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    r = client.post("/api/sessions", json=body)
    assert 400 <= r.status_code < 500
    assert message in r.json()["error"]


def test_a_start_where_the_game_is_over_is_refused(client: TestClient) -> None:
    spec = find_game("votey")
    game, rng = spec.make(), random.Random(2)
    s = game.initial()
    while game.outcome(s) is None:
        s = game.apply(s, rng.choice(game.legal_moves(s)))
    body = {"game": "votey", "engine": "random", "position": spec.notation.format_position(s)}
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 422
    assert r.json()["error"] == "bad position: the game is already over there"
    r = client.post("/api/sessions", json={**body, "position": "no position"})
    assert r.status_code == 422 and r.json()["error"].startswith("bad position: ")


def test_a_game_of_two_engines_takes_no_moves_from_the_page(client: TestClient) -> None:
    body = {"game": "votey", "engines": ["alphabeta", "alphabeta"], "move_time": 5}
    sid = client.post("/api/matches", json=body).json()["id"]  # 60 moves: minutes long
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": [1, 2]})
    assert r.status_code == 409
    assert r.json()["error"] == "two engines are playing this game; it takes no moves"


def test_unknown_games_and_sessions_are_404(client: TestClient) -> None:
    assert client.get("/api/sessions/nope").status_code == 404
    assert client.get("/api/games/chess/board").status_code == 404
    assert client.post("/api/sessions/nope/move", json={"clicks": [1]}).status_code == 404
    r = client.post("/api/sessions/nope/move", content=b"not json")
    assert 400 <= r.status_code < 500
    # a page watching a game the server no longer holds is told so, and closed
    with client.websocket_connect("/api/sessions/nope/live") as socket:
        assert socket.receive_json() == {"error": "no game 'nope' on this server"}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4404


def test_engines_play_each_other_and_take_no_moves_from_the_page(client: TestClient) -> None:
    r = client.post(
        "/api/matches", json={"game": "votey", "engines": ["random", "greedy"], "move_time": 0.05}
    )
    assert r.status_code == 201
    sid = r.json()["id"]
    snap = wait_for(client, sid, lambda s: s["result"] is not None)
    assert snap["result"] is not None and snap["players"] == ["random", "greedy"]
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": [0, 1]})
    assert r.status_code == 409


def test_a_page_reloaded_sees_the_same_game(client: TestClient) -> None:
    snap = client.post("/api/sessions", json={"game": "halma", "engine": "random"}).json()
    sid = snap["id"]
    client.post(f"/api/sessions/{sid}/move", json={"clicks": a_legal_path(client, sid)})
    first = wait_for(client, sid, lambda s: s["your_turn"])
    with TestClient(client.app) as other:  # another page, the same server
        again = other.get(f"/api/sessions/{sid}").json()
    assert again["moves"] == first["moves"] and again["pieces"] == first["pieces"]
    assert client.get(f"/play/{sid}").status_code == 200


def test_the_live_socket_sends_each_change(client: TestClient) -> None:
    snap = client.post(
        "/api/sessions", json={"game": "chinese-checkers", "engine": "random"}
    ).json()
    sid = snap["id"]
    with client.websocket_connect(f"/api/sessions/{sid}/live") as socket:
        assert socket.receive_json()["ply"] == 0
        client.post(f"/api/sessions/{sid}/move", json={"clicks": a_legal_path(client, sid)})
        seen = [socket.receive_json() for _ in range(2)]
        assert 1 in {s["ply"] for s in seen}
        reply = wait_for(client, sid, lambda s: s["ply"] == 2)
    # the page keeps the newest of a move's answer and the socket's snapshots by version
    versions = [s["version"] for s in [snap, *seen, reply]]
    assert versions == sorted(versions) and versions[-1] > versions[0]


def _position(game: str, want: Any, seed: int) -> tuple[str, Any]:
    spec = find_game(game)
    text = find_position(spec, want, seed, 400)
    assert text is not None
    return text, spec.notation.parse_position(text)


def _enter(client: TestClient, sid: str, path: list[int]) -> list[dict[str, Any]]:
    """Clicks ``path`` cell by cell, checking each is offered; the answers in turn."""
    answers = []
    for i, cell in enumerate(path):
        found = client.post(f"/api/sessions/{sid}/continuations", json={"clicks": path[:i]}).json()
        assert cell in found["next"], (path, i, found)
        answers.append(found)
    answers.append(client.post(f"/api/sessions/{sid}/continuations", json={"clicks": path}).json())
    return answers


@pytest.mark.parametrize("game", ["checkers", "alquerque"])
def test_a_capture_chain_is_entered_landing_by_landing(client: TestClient, game: str) -> None:
    def chain(rules: Any, s: Any) -> bool:
        moves = rules.legal_moves(s)
        return bool(moves) and any(len(m.captures) >= 2 for m in moves)

    text, s = _position(game, chain, 2)
    spec = find_game(game)
    rules = spec.make()
    side = spec.seat_names[s.to_move]
    snap = client.post(
        "/api/sessions", json={"game": game, "side": side, "position": text, "engine": "random"}
    ).json()
    assert snap["forced"] == "a capture is compulsory" and snap["your_turn"]
    longest = max(rules.legal_moves(s), key=lambda m: len(m.captures))
    path = list(move_path(game, s, longest))
    answers = _enter(client, snap["id"], path)
    # a chain is complete only at its end: no landing before it is a move
    assert [a["complete"] for a in answers] == [False] * len(path) + [True]
    done = client.post(f"/api/sessions/{snap['id']}/move", json={"clicks": path}).json()
    assert done["moves"][0]["text"] == spec.notation.format_move(longest, seat=0)


@pytest.mark.parametrize("game", ["halma", "chinese-checkers"])
def test_a_hop_chain_is_entered_hop_by_hop_and_may_stop_at_a_landing(
    client: TestClient, game: str
) -> None:
    def chains(rules: Any, s: Any) -> list[Any]:
        """Chains of two hops or more whose first landing is a legal end too."""
        ends = {(m.origin, m.target) for m in rules.legal_moves(s)}
        return [
            m
            for m in rules.legal_moves(s)
            if len(p := move_path(game, s, m)) >= 4 and (p[0], p[1]) in ends
        ]

    text, s = _position(game, lambda rules, s: bool(chains(rules, s)), 3)
    spec = find_game(game)
    rules = spec.make()
    snap = client.post(
        "/api/sessions",
        json={"game": game, "side": spec.seat_names[s.to_move], "position": text},
    ).json()
    m = chains(rules, s)[0]
    path = list(move_path(game, s, m))
    answers = _enter(client, snap["id"], path)
    # after the first landing the chain is a move already and may go on
    assert answers[2]["complete"] and path[2] in answers[2]["next"]
    assert answers[-1]["complete"]
    done = client.post(f"/api/sessions/{snap['id']}/move", json={"clicks": path}).json()
    assert done["ply"] >= 1 and done["last"][0] == path[0] and done["last"][-1] == path[-1]


@pytest.mark.parametrize("game", ["halma", "chinese-checkers"])
def test_clicks_that_skip_a_landing_of_a_hop_chain_are_no_move(
    client: TestClient, game: str
) -> None:
    spec = find_game(game)
    rules = spec.make()
    neighbours = {"halma": halma_rules.NEIGHBOURS, "chinese-checkers": cc_rules.NEIGHBOURS}[game]

    def skipping(s: Any) -> list[tuple[int, int]]:
        """(start, second landing) of chains of two hops or more, the landing no
        neighbour of the start: a legal end, but not one hop on from the start."""
        found = []
        for m in rules.legal_moves(s):
            p = move_path(game, s, m)
            if len(p) >= 3 and p[2] not in neighbours[p[0]]:
                found.append((p[0], p[2]))
        return found

    text, s = _position(game, lambda rules, s: bool(skipping(s)), 3)
    start, landing = skipping(s)[0]
    assert any(m.origin == start and m.target == landing for m in rules.legal_moves(s))
    sid = client.post(
        "/api/sessions",
        json={"game": game, "side": spec.seat_names[s.to_move], "position": text},
    ).json()["id"]
    found = client.post(
        f"/api/sessions/{sid}/continuations", json={"clicks": [start, landing]}
    ).json()
    assert not found["complete"] and found["next"] == []
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": [start, landing]})
    assert r.status_code == 422 and "error" in r.json()
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0


@pytest.mark.parametrize("game", ["halma", "chinese-checkers"])
def test_a_chain_with_one_click_that_is_no_hop_is_no_move(client: TestClient, game: str) -> None:
    """Every click after the first must be one hop on from the one before, not only the
    first of them: a chain whose first hop is right and whose next click is a legal end
    of the move but no hop on from the landing offers nothing and makes no move."""
    spec = find_game(game)
    rules = spec.make()
    clicking = spec.board_view().clicks

    def wrong(s: Any) -> list[list[int]]:
        """(start, a first landing, an end of the start's not one hop on from it)."""
        found = []
        for m in rules.legal_moves(s):
            path = move_path(game, s, m)
            if len(path) < 3:  # a hop chain: its first landing is one hop on
                continue
            start, landing = path[0], path[1]
            on = clicking.hops(s, start, landing)
            ends = {e.target for e in rules.legal_moves(s) if e.origin == start}
            found += [[start, landing, e] for e in sorted(ends - set(on) - {landing, start})]
        return found

    text, s = _position(game, lambda rules, s: bool(wrong(s)), 3)
    clicks = wrong(s)[0]
    sid = client.post(
        "/api/sessions",
        json={"game": game, "side": spec.seat_names[s.to_move], "position": text},
    ).json()["id"]
    found = client.post(f"/api/sessions/{sid}/continuations", json={"clicks": clicks}).json()
    assert not found["complete"] and found["next"] == []
    r = client.post(f"/api/sessions/{sid}/move", json={"clicks": clicks})
    assert r.status_code == 422 and "error" in r.json()
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0


def test_a_bad_start_position_is_refused_by_name(client: TestClient) -> None:
    r = client.post("/api/sessions", json={"game": "checkers", "position": "not a board"})
    assert r.status_code == 422 and r.json()["error"].startswith("bad position: ")


class SessionClock:
    """The sessions' ``time`` module with a monotonic clock that moves only when told:
    which games count as abandoned does not depend on the machine's load."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def test_abandoned_games_are_ended_so_they_never_fill_the_server(monkeypatch) -> None:
    from arbiter.web import served as web
    from arbiter.web import sessions

    monkeypatch.setattr(web, "MAX_SESSIONS", 3)
    monkeypatch.setattr(web, "ABANDONED_AFTER", 0.5)
    clock = SessionClock()
    monkeypatch.setattr(sessions, "time", clock)
    new = {"game": "votey", "engine": "random", "move_time": 0.1}
    with TestClient(create_app()) as client:
        sids = [client.post("/api/sessions", json=new).json()["id"] for _ in range(3)]
        assert client.post("/api/sessions", json=new).status_code == 503  # all three fresh
        with client.websocket_connect(f"/api/sessions/{sids[0]}/live") as watched:
            watched.receive_json()
            clock.now += 0.8  # the other two are closed pages now
            r = client.post("/api/sessions", json=new)
            assert r.status_code == 201, r.json()
            assert client.get(f"/api/sessions/{sids[0]}").status_code == 200  # watched: kept
        gone = [client.get(f"/api/sessions/{sid}").status_code for sid in sids[1:]]
        assert 404 in gone  # at least one abandoned game made room


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        ("alphabeta:hash=1500", "hash must be at most 64 here"),
        ("alphabeta:hash=100000", "hash must be at most 4096"),
        ("alphabeta:depth=40", "depth must be at most 12 here"),
    ],
)
def test_engine_options_a_page_may_ask_for_are_bounded(
    client: TestClient, engine: str, message: str
) -> None:
    r = client.post("/api/matches", json={"game": "votey", "engines": [engine, "random"]})
    assert r.status_code in (400, 422) and message in r.json()["error"], r.json()


def test_engine_options_at_their_bounds_are_taken_and_one_past_refused(client: TestClient) -> None:
    """The bounds themselves are a page's to ask (the person moves first here, so the
    engine never thinks); one past any of them is refused by name."""
    side = find_game("votey").seat_names[0]
    at_bounds = "alphabeta:hash=64,depth=12,nodes=10000000"
    body = {"game": "votey", "engine": at_bounds, "side": side, "move_time": 1.0}
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 201, r.json()
    for option, past in (("hash", 65), ("depth", 13), ("nodes", 10_000_001)):
        body["engine"] = f"alphabeta:{option}={past}"
        r = client.post("/api/sessions", json=body)
        assert r.status_code == 422 and f"{option} must be at most" in r.json()["error"], option
    # an engine's minute a move is the most a page asks, for a game or a match
    body["engine"] = "random"
    for path, extra in (("/api/sessions", {}), ("/api/matches", {"engines": ["random"] * 2})):
        for seconds, status in ((60.0, 201), (60.01, 422)):
            r = client.post(path, json={**body, **extra, "move_time": seconds})
            assert r.status_code == status, (path, seconds, r.json())
