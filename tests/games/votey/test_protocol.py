"""The Votey protocol: the referee's judge and the agent side's dialogue, scripted."""

from __future__ import annotations

import io

import pytest

from arbiter.agents.random import RandomAgent
from arbiter.clock import TimeControl
from arbiter.contract import AgentRun
from arbiter.errors import FalseClaim, IllegalMove, NotationError, UnclaimedWin
from arbiter.games import find_game
from arbiter.games.votey.contest import judge, move_text
from arbiter.games.votey.notation import parse_position
from arbiter.games.votey.player import serve
from arbiter.games.votey.rules import Votey

from .test_rules import FIGURE3


def run(stdin: str, stdout: io.StringIO, stderr: io.StringIO | None = None) -> AgentRun:
    """The streams and clock of an agent run."""
    return AgentRun(
        TimeControl.per_move_seconds(1), io.StringIO(stdin), stdout, stderr or io.StringIO()
    )


class ScriptedMover:
    """An agent that plays a fixed list of moves (as contest text)."""

    name = "scripted"

    def __init__(self, texts: list[str]) -> None:
        self.texts = list(texts)
        self.seen: list[str] = []

    def reset(self, game, seat, seed) -> None:
        self.game = game

    def choose(self, s, limit):
        from arbiter.games.votey.notation import resolve_move

        return resolve_move(self.texts.pop(0), s, seat=0)

    def observe(self, s, m) -> None:
        self.seen.append(str(m))

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        pass


def test_judge_accepts_claimed_win_and_rejects_wrong_claims() -> None:
    game = Votey()
    s = parse_position(FIGURE3 + " b")
    assert str(judge(game, s, "-2454", seat=0)) == "2454"
    with pytest.raises(UnclaimedWin):
        judge(game, s, "2454", seat=0)
    with pytest.raises(FalseClaim):
        judge(game, s, "-2425", seat=0)
    with pytest.raises(IllegalMove):
        judge(game, s, "-2446", seat=0)
    with pytest.raises(NotationError):
        judge(game, s, "24 54", seat=0)
    # well written, never legal: an illegal move, not a malformed line
    with pytest.raises(IllegalMove, match="starts and ends on one square"):
        judge(game, s, "1111", seat=0)
    assert move_text(game, s, judge(game, s, "-2454", seat=0), seat=0) == "-2454"


def test_black_writes_first_and_stops_on_end_of_input() -> None:
    out = io.StringIO()
    agent = ScriptedMover(["1434", "8264"])
    status = serve(agent, Votey(), ["1"], run("2123\n", out))
    assert status == 0
    assert out.getvalue() == "1434\n8264\n"
    assert agent.seen == ["2123"]


def test_white_reads_first_and_stops_on_minus_one() -> None:
    out = io.StringIO()
    agent = ScriptedMover(["2123"])
    status = serve(agent, Votey(), ["2"], run("1434\n-1\n", out))
    assert status == 0 and out.getvalue() == "2123\n"


def test_agent_stops_on_a_winning_opponent_move() -> None:
    out = io.StringIO()
    # white has no pieces to connect quickly: just check a negative move ends the game
    status = serve(RandomAgent(), Votey(), ["2"], run("-1434\n1232\n", out))
    assert status == 0 and out.getvalue() == ""


def test_agent_negates_its_own_winning_move() -> None:
    # From Figure 3 the greedy agent must find 2454 and write -2454. The agent side
    # always starts from the contest's start position, so drive serve's helpers
    # directly through move_text, which serve uses for every line it writes.
    from arbiter.agents.greedy import GreedyAgent
    from arbiter.clock import Limit
    from arbiter.games.votey import evaluate

    game = Votey()
    s = parse_position(FIGURE3 + " b")
    agent = GreedyAgent(evaluate)
    agent.reset(game, 0, 0)
    assert move_text(game, s, agent.choose(s, Limit(time=1)), seat=0) == "-2454"


def test_bad_opponent_move_exits_with_status_1() -> None:
    err = io.StringIO()
    with pytest.raises(SystemExit) as e:
        serve(RandomAgent(), Votey(), ["2"], run("1418\n", io.StringIO(), err))
    assert e.value.code == 1
    assert "1418" in err.getvalue()


@pytest.mark.parametrize(
    ("position", "move", "why"),
    [
        (None, "2131", "no piece of yours on 21 (white has one there)"),
        (None, "4455", "no piece of yours on 44"),
        (
            None,
            "1224",
            "12 and 24 are not on one row, column or diagonal (12 can go to 18, 32, 34)",
        ),
        (None, "1213", "the row through 12 holds 6 pieces, so a piece on it moves exactly 6"),
        (None, "1242", "the column through 12 holds 2 pieces, so a piece on it moves exactly 2"),
        (
            "bwb...../......../......../......../......../......../......../......w. b",
            "1114",
            "it would jump the opponent's piece on 12",
        ),
        (
            "b.b...../......../......../......../......../......../......../......w. b",
            "1113",
            "it would land on your own piece on 13",
        ),
    ],
)
def test_an_illegal_move_is_explained_in_the_contests_squares(
    position: str | None, move: str, why: str
) -> None:
    spec = find_game("votey")
    s = spec.make().initial() if position is None else spec.notation.parse_position(position)
    with pytest.raises(IllegalMove) as e:
        spec.contest.judge(spec.make(), s, move, seat=0)
    assert f"illegal votey move '{move}' for black: {why}" in str(e.value)
    assert "/" not in str(e.value)  # the reason, not the whole position
