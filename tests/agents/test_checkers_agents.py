"""Built-in agents on checkers: legal and repeatable, and alpha-beta sees tactics."""

from __future__ import annotations

import pytest

from arbiter.agents.registry import ENGINES, make_agent
from arbiter.agents.spec import AgentSpec
from arbiter.clock import Limit
from arbiter.games import find_game
from arbiter.games.checkers.evaluate import evaluate
from arbiter.games.checkers.notation import format_move

from ..games.checkers.test_rules import pos

SPEC = find_game("checkers")


@pytest.mark.parametrize("name", ENGINES)
def test_same_seed_same_game(name: str) -> None:
    game = SPEC.make()

    def play(seed: int) -> list[str]:
        agents = [
            make_agent(SPEC, AgentSpec.parse(name).with_options(depth=3)),
            make_agent(SPEC, AgentSpec.parse(name).with_options(depth=3)),
        ]
        for seat, agent in enumerate(agents):
            agent.reset(game, seat, seed + seat)
        s, out = game.initial(), []
        while game.outcome(s) is None and len(out) < 30:
            m = agents[game.to_move(s)].choose(s, Limit(time=5))
            assert m in game.legal_moves(s)
            out.append(format_move(m, seat=0))
            s = game.apply(s, m)
        return out

    assert play(4) == play(4)


def test_alphabeta_finds_the_two_for_one_shot() -> None:
    # red 5, 9, 19 against white 10, 17, 18: 9-14 gives a man, white's only reply is
    # to take it, and red then jumps two: the search must see it is a man up.
    game = SPEC.make()
    s = SPEC.notation.parse_position(
        "00000000/10000000/01020000/00000000/02020100/00000000/00000000/00000000 1"
    )
    alphabeta = make_agent(SPEC, "alphabeta:depth=4")
    alphabeta.reset(game, 0, 0)
    assert format_move(alphabeta.choose(s, Limit()), seat=0) == "9-14"
    assert alphabeta.last_info is not None and alphabeta.last_info.score >= 100


def test_alphabeta_avoids_walking_into_a_capture() -> None:
    # 10-15 would be taken by the white man on 19; the other three moves are safe
    game = SPEC.make()
    s = pos(red=[10, 1], white=[19, 32])
    agent = make_agent(SPEC, "alphabeta:depth=4")
    agent.reset(game, 0, 0)
    m = agent.choose(s, Limit())
    assert format_move(m, seat=0) != "10-15"
    assert not any(x.captures for x in game.legal_moves(game.apply(s, m)))


def test_evaluation_counts_kings_above_men() -> None:
    assert evaluate(pos(red_kings=[14], white=[19])) > evaluate(pos(red=[14], white=[19]))
    assert evaluate(pos(red=[14, 15], white=[19])) > 50


@pytest.mark.parametrize("game_name", ["checkers", "votey"])
def test_greedy_is_a_step_up_from_random(game_name: str) -> None:
    from arbiter.agents.random import RandomAgent

    spec = find_game(game_name)
    game = spec.make()
    points = 0.0
    for i in range(8):
        greedy, rnd = make_agent(spec, "greedy"), RandomAgent()
        seats = [greedy, rnd] if i % 2 == 0 else [rnd, greedy]
        for seat, agent in enumerate(seats):
            agent.reset(game, seat, i)
        s = game.initial()
        while (out := game.outcome(s)) is None:
            s = game.apply(s, seats[game.to_move(s)].choose(s, Limit()))
        points += out.points(i % 2)
    assert points >= 7
