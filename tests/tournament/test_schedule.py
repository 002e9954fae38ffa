"""Schedules and openings: fair pairs, reproducible and open starts."""

from __future__ import annotations

from collections import Counter

import pytest

from arbiter.errors import ConfigError
from arbiter.games import find_game, game_names
from arbiter.tournament.openings import for_pairs, random_openings, read_openings
from arbiter.tournament.schedule import gauntlet, round_robin, schedule


@pytest.mark.parametrize(("agents", "rounds"), [(2, 1), (3, 2), (5, 3)])
def test_round_robin_meets_every_pair_equally_often_in_both_seats(agents: int, rounds: int) -> None:
    games = round_robin(agents, rounds, seed=9)
    seats = Counter(p.seats for p in games)
    assert set(seats) == {(a, b) for a in range(agents) for b in range(agents) if a != b}
    assert set(seats.values()) == {rounds}
    assert [p.number for p in games] == list(range(1, len(games) + 1))
    # the two games of a pair: seats swapped, one seed, consecutive
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.pair == second.pair and first.seed == second.seed
        assert second.seats == first.seats[::-1]
    assert len({p.pair for p in games}) == len(games) // 2


def test_gauntlet_plays_the_first_agent_against_each_other() -> None:
    with pytest.raises(ConfigError, match="a gauntlet needs two agents or more, not 1"):
        gauntlet(1, 2)
    games = gauntlet(4, 2)
    assert Counter(p.seats for p in games) == {
        (0, 1): 2,
        (1, 0): 2,
        (0, 2): 2,
        (2, 0): 2,
        (0, 3): 2,
        (3, 0): 2,
    }


def test_a_bad_format_or_too_few_agents_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown tournament format 'swiss'"):
        schedule("swiss", 4)
    with pytest.raises(ConfigError, match="two agents"):
        schedule("round-robin", 1)


@pytest.mark.parametrize("name", game_names())
def test_random_openings_are_reproducible_legal_and_open(name: str) -> None:
    spec = find_game(name)
    game = spec.make()
    openings = random_openings(spec, 6, 5, seed=3)
    assert openings == random_openings(spec, 6, 5, seed=3)
    assert openings[:3] == random_openings(spec, 6, 3, seed=3)
    assert openings != random_openings(spec, 6, 5, seed=4)
    for text in openings:
        s = spec.notation.parse_position(text)
        assert game.outcome(s) is None and len(game.legal_moves(s)) > 1


def test_openings_file_lines_are_checked_and_named(tmp_path) -> None:
    spec = find_game("votey")
    good = random_openings(spec, 4, 2, seed=1)
    path = tmp_path / "openings.txt"
    path.write_text("# two starts\n" + good[0] + "\n\n" + good[1] + "\n")
    assert read_openings(spec, path) == good
    path.write_text(good[0] + "\nnot a position\n")
    with pytest.raises(ConfigError, match=r"openings.txt:2: invalid votey position"):
        read_openings(spec, path)
    path.write_text("# nothing\n")
    with pytest.raises(ConfigError, match="holds no openings"):
        read_openings(spec, path)
    with pytest.raises(ConfigError, match="cannot read openings"):
        read_openings(spec, tmp_path / "missing.txt")


def test_pairs_take_the_openings_in_turn() -> None:
    assert for_pairs(["a", "b"], 5) == ["a", "b", "a", "b", "a"]
    assert for_pairs([], 2) == [None, None]
