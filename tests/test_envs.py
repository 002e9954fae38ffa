"""The learning environments: PettingZoo's and Gymnasium's own API checks, and that
playing through actions is playing the game's rules (every legal move reachable, no
other, chains by the same agent, the contest's rewards and its illegal-move loss)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from arbiter import envs
from arbiter.agents.random import RandomAgent
from arbiter.clock import Limit
from arbiter.games import find_game, game_names

GAMES = [
    name
    for name in game_names()
    if find_game(name).board is not None or find_game(name).encoding is not None
]
"""Every registered game with a board or an encoding of its own (Nim's): the
environments know no game from another."""

BOARDS = [name for name in game_names() if find_game(name).board is not None]
"""Every registered game with a board: each has the board's encoding, used or not."""


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations, as for chess
        api_test(envs.env(game), num_cycles=200)
        seed_test(lambda: envs.env(game, opening_plies=4), num_cycles=20)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(envs.gym_env(game))


def _allowed(env: Any) -> set[int]:
    mask = env.observe(env.agent_selection)["action_mask"]
    return {int(a) for a in np.flatnonzero(mask)}


@pytest.mark.parametrize("game", GAMES)
def test_actions_play_exactly_the_rules(game: str) -> None:
    """Random games chosen from the rules engine's own legal moves: at every turn the
    mask allows exactly the legal moves' first actions, a move's actions are acted by
    one agent, the last move is known after it (the last of all included), and the game
    ends with the rules' outcome and rewards of +1/-1 (0 each for a draw)."""
    spec = find_game(game)
    rules = spec.rules(max_plies=120)
    env = envs.raw_env(game, max_plies=120)
    rng = random.Random(7)
    for seed in range(3):
        env.reset(seed=seed)
        s = rules.initial()
        while rules.outcome(s) is None:
            assert env.outcome is None
            legal = rules.legal_moves(s)
            m = rng.choice(legal)
            actions = env.encoding.actions_of(s, m)
            mover = env.agent_selection
            assert mover == envs.AGENTS[rules.to_move(s)]
            assert _allowed(env) == {env.encoding.actions_of(s, x)[0] for x in legal}
            for i, action in enumerate(actions):
                assert env.agent_selection == mover
                if i:  # mid-chain: only the chains going on from here
                    assert action in _allowed(env)
                env.step(action)
            s = rules.apply(s, m)
            assert env.position == s
            assert env.last_move == m  # the move that ends the game too
        outcome = rules.outcome(s)
        assert outcome is not None and env.outcome == outcome
        expected = (
            [0.0, 0.0]
            if outcome.winner is None
            else [1.0 if outcome.winner == seat else -1.0 for seat in (0, 1)]
        )
        assert [env.rewards[a] for a in envs.AGENTS] == expected
        assert all(env.terminations.values())
        assert env.infos["player_0"]["result"] == outcome.result()


def _double_jump() -> tuple[Any, Any]:
    """A checkers position from random play whose only move is a double jump."""
    rules = find_game("checkers").rules()
    rng = random.Random(5)
    while True:
        s = rules.initial()
        while rules.outcome(s) is None:
            legal = rules.legal_moves(s)
            if len(legal) == 1 and len(legal[0].captures) == 2:
                return s, legal[0]
            s = rules.apply(s, rng.choice(legal))


def test_a_checkers_double_jump_is_two_actions_of_the_same_agent() -> None:
    spec = find_game("checkers")
    s, move = _double_jump()
    env = envs.raw_env("checkers")
    env.reset(options={"position": spec.notation.format_position(s)})
    s = env.position  # the same pieces, counted from ply 0 (the text has no ply)
    mover = env.agent_selection
    first, second = env.encoding.actions_of(s, move)
    assert _allowed(env) == {first}
    env.step(first)
    assert env.agent_selection == mover and env.position == s  # not applied yet
    obs = env.observe(mover)["observation"]
    assert int(obs[:, :, 3].sum()) == 2  # the path so far: start and first landing
    assert _allowed(env) == {second}
    other = envs.AGENTS[1 - envs.AGENTS.index(mover)]
    assert not env.observe(other)["action_mask"].any()
    env.step(second)
    assert env.agent_selection == other
    assert env.last_move == move


@pytest.mark.parametrize("game", GAMES)
def test_a_number_outside_the_actions_loses_by_name(game: str) -> None:
    """One past the last action, -1 and a word are none of the game's actions: each loses
    the game for its mover, said so (never an IndexError or a wrapped-around action)."""
    size = envs.raw_env(game).action_space("player_0").n
    for action in (size, -1, "x", 2**70):
        env = envs.raw_env(game)
        env.reset(seed=3)
        env.step(action)
        assert env.rewards == {"player_0": -1.0, "player_1": 1.0}, action
        assert "is not one of this game's actions" in env.infos["player_0"]["illegal"]
    env = envs.raw_env(game)
    env.reset(seed=3)
    last = int(np.flatnonzero(env.observe("player_0")["action_mask"])[-1])
    env.step(last)  # the highest action the mask allows is played
    assert "illegal" not in env.infos["player_0"] and not any(env.terminations.values())
    env = envs.raw_env(game)
    env.reset(seed=3)
    zero_allowed = bool(env.observe("player_0")["action_mask"][0])
    env.step(0)  # the first action is one of the game's, allowed here or not
    said = env.infos["player_0"].get("illegal", "")
    assert said == "" if zero_allowed else "is not legal here" in said


@pytest.mark.parametrize("game", GAMES)
def test_an_action_the_mask_forbids_loses_the_game(game: str) -> None:
    env = envs.raw_env(game)
    env.reset(seed=3)
    mask = env.observe("player_0")["action_mask"]
    zeros = np.flatnonzero(mask == 0)  # none where every action is legal at the start
    forbidden, why = (
        (int(zeros[0]), "is not legal here")
        if zeros.size
        else (len(mask), "is not one of this game's actions")
    )
    env.step(forbidden)
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())
    assert why in env.infos["player_0"]["illegal"]
    env.step(None)  # each finished agent steps out, as PettingZoo's loop does
    env.step(None)
    assert env.agents == []


def test_each_agent_sees_its_own_pieces_first() -> None:
    env = envs.raw_env("votey")
    env.reset()
    s = env.position
    for seat, agent in enumerate(envs.AGENTS):
        obs = env.observe(agent)["observation"]
        mine = {r * 8 + c for r, c in zip(*np.nonzero(obs[:, :, 0]), strict=True)}
        assert mine == {c for c in range(64) if (s.pieces[seat] >> c) & 1}
        assert bool(obs[:, :, 5].all()) == (seat == 1)


def test_the_chinese_checkers_star_is_laid_on_its_rows_and_half_steps() -> None:
    enc = envs.BoardEncoding(find_game("chinese-checkers"))
    assert enc.shape == (17, 25, len(envs.CHANNELS))
    obs = envs.raw_env("chinese-checkers")
    obs.reset()
    board = obs.observe("player_0")["observation"][:, :, 4]
    assert int(board.sum()) == 121  # every hole on a cell of its own
    assert [int(n) for n in board.sum(axis=1)] == [
        1,
        2,
        3,
        4,
        13,
        12,
        11,
        10,
        9,
        10,
        11,
        12,
        13,
        4,
        3,
        2,
        1,
    ]


def test_the_gymnasium_opponent_moves_first_from_the_first_seat_and_repeats() -> None:
    def episode() -> list[str]:
        env = envs.gym_env("alquerque", opponent="alphabeta:depth=1", seat=1)
        obs, _ = env.reset(seed=11)
        plies = [env.game.position.ply]
        rng = np.random.default_rng(0)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            obs, reward, done, _, info = env.step(action)
        plies.append(env.game.position.ply)
        return [*map(str, plies), str(reward), info["result"]]

    first = episode()
    assert first[0] == "1"  # the engine, first to move, already moved
    assert first == episode()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_gymnasium_learner_is_paid_for_its_own_seat_whoever_ends_the_game(seat: int) -> None:
    """Over episodes ended by either side's move (the learner's, or the engine's reply
    within the same step), the rewards a learner is given sum to +1 for a game its
    seat won, -1 for one it lost and 0 for a draw, and only the last step pays."""
    env = envs.gym_env("checkers", opponent="random", seat=seat, max_plies=60)
    results = set()
    for episode in range(12):
        obs, _ = env.reset(seed=episode)
        rng = np.random.default_rng(episode)
        paid, done = [], False
        while not done:
            obs, reward, done, truncated, info = env.step(
                rng.choice(np.flatnonzero(obs["action_mask"]))
            )
            assert not truncated
            paid.append(float(reward))
        outcome = env.game.outcome
        assert outcome is not None and info["result"] == outcome.result()
        due = 0.0 if outcome.winner is None else 1.0 if outcome.winner == seat else -1.0
        assert paid[-1] == due and not any(paid[:-1])
        results.add(due)
    assert results == {-1.0, 0.0, 1.0}  # the three ends were met


def test_env_keeps_pettingzoo_s_order_as_its_own_environments_do() -> None:
    """``envs.env`` is wrapped as PettingZoo wraps its own: a step before the first
    reset is refused by name, where the bare environment would fail inside."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = envs.env("votey")
    assert isinstance(env, OrderEnforcingWrapper)
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def test_an_unknown_game_or_engine_is_one_clear_error() -> None:
    from arbiter.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        envs.env("chess")
    with pytest.raises(ConfigError, match="unknown engine"):
        envs.gym_env("votey", opponent="stockfish")
    for wrong, why in (
        ({"render_mode": "rgb_array"}, "render_mode 'rgb_array': expected ansi or human"),
        ({"opening_plies": -1}, "opening_plies -1: expected 0 or more"),
    ):
        with pytest.raises(ConfigError, match=re.escape(why)):
            envs.env("votey", **wrong)
    with pytest.raises(ConfigError, match=re.escape("seat 2: expected 0 (first to move) or 1")):
        envs.gym_env("votey", seat=2)
    with pytest.raises(ConfigError, match=re.escape("options['position']: ")):
        envs.env("votey").reset(seed=1, options={"position": "no such position"})


def test_a_finished_gymnasium_game_takes_no_step_until_reset() -> None:
    env = envs.gym_env("votey", opponent="random", max_plies=2)
    seen, _ = env.reset(seed=3)
    over = False
    while not over:
        action = int(np.flatnonzero(seen["action_mask"])[0])
        seen, _, over, _, _ = env.step(action)
    assert env.game.outcome is not None
    with pytest.raises(RuntimeError, match="the game is over: call reset"):
        env.step(0)
    env.reset(seed=4)
    assert env.game.outcome is None  # a new game, to step again


def test_the_readme_loop_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme[readme.index("## Learning environments") :]
    code = section[section.index("```python") + len("```python") : section.index("```\n")]
    assert len(code.strip().splitlines()) <= 10
    exec(compile(code, "README.md", "exec"), {})
    result, _, reason = capsys.readouterr().out.strip().partition(" ")
    assert result in ("1-0", "0-1", "1/2-1/2") and reason


@pytest.mark.parametrize("game", BOARDS)
def test_every_allowed_leg_starts_at_a_piece_of_the_one_to_act(game: str) -> None:
    # a leg (from, to) of a piece's move leaves one of the mover's own pieces and never
    # lands on another (a drop, or Nim's one click, is a leg onto one cell); the
    # board's encoding of every game with a board, whether its environment uses it
    spec = find_game(game)
    rules = spec.make()
    enc = envs.BoardEncoding(spec)
    s = rules.initial()
    for m in random.Random(3).sample(list(rules.legal_moves(s)), 1):
        s = rules.apply(s, m)  # a position one move in: Nim's start has no gap
    seat = rules.to_move(s)
    planes = enc.observation(s, seat, ())
    allowed = {a for m in rules.legal_moves(s) for a in enc.actions_of(s, m)[:1]}
    assert allowed
    for action in allowed:
        a, b = enc.leg(action)
        if a == b:
            continue
        assert planes[enc.grid.row_of[a], enc.grid.column_of[a], 0], (game, a, b)
        assert not planes[enc.grid.row_of[b], enc.grid.column_of[b], 0], (game, a, b)


def test_a_crowned_piece_is_marked_in_the_kings_plane() -> None:
    spec = find_game("checkers")
    enc = envs.BoardEncoding(spec)
    s = spec.notation.parse_position(
        "00000000/00000000/00000000/00300000/00000000/00000000/00000400/00000000 1"
    )
    planes = enc.observation(s, 0, ())
    kings = {(int(r), int(c)) for r, c in zip(*np.nonzero(planes[:, :, 2]), strict=True)}
    assert kings == {(3, 2), (6, 5)}
    assert planes[3, 2, 0] and planes[6, 5, 1]  # red's king is mine, white's theirs


def test_a_game_s_own_encoding_is_the_one_its_environment_uses() -> None:
    # Nim's encoding.py: three actions (take one, two or three), the pile one-hot as
    # long as the pile the rules start with (the encoding is made for the rules given)
    env = envs.raw_env("nim", stones=5)
    assert not isinstance(env.encoding, envs.BoardEncoding)
    env.reset()
    observed = env.observe("player_0")
    assert observed["observation"].shape == (2, 6) and observed["action_mask"].tolist() == [1] * 3
    assert observed["observation"][0, 5] == 1 and not observed["observation"][1].any()
    env.step(1)  # take two: three left
    assert env.position.pile == 3 and env.agent_selection == "player_1"
    assert env.observe("player_1")["observation"][1].all()  # the second seat's plane
    env.step(0)  # take one: two left
    assert env.observe("player_0")["action_mask"].tolist() == [1, 1, 0]
    env.step(2)
    assert env.infos["player_0"]["illegal"] == "action 2 (take 3) is not legal here"
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}


class _Told(RandomAgent):
    """A random engine that keeps the seat it was told it plays, and its seed."""

    told: list[int] = []  # noqa: RUF012 (one list per test, set by the test)
    seeds: list[int] = []  # noqa: RUF012

    def reset(self, game: Any, seat: int, seed: int) -> None:
        self.told.append(seat)
        self.seeds.append(seed)
        super().reset(game, seat, seed)


class _Limited(RandomAgent):
    """A random engine that keeps the limits it was asked to move within."""

    limits: list[Limit] = []  # noqa: RUF012 (one list per test, set by the test)

    def choose(self, s: Any, limit: Limit) -> Any:
        self.limits.append(limit)
        return super().choose(s, limit)


def test_the_gymnasium_opponent_moves_within_the_limit_it_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a learner that trains against a strong engine bounds its every answer
    _Limited.limits = []
    monkeypatch.setattr("arbiter.envs.single.make_agent", lambda spec, name: _Limited())
    given = Limit(depth=2, nodes=500)
    env = envs.gym_env("votey", seat=1, opponent="alphabeta", opponent_limit=given)
    env.reset(seed=1)  # the engine moves first
    env.step(int(np.flatnonzero(env.game.observe(env.me)["action_mask"])[0]))
    assert len(_Limited.limits) >= 2 and all(limit == given for limit in _Limited.limits)
    # and the batch's engine, in every game it answers
    _Limited.limits = []
    monkeypatch.setattr(sys.modules["arbiter.envs.batch"], "make_agent", lambda s, n: _Limited())
    games = envs.batch("votey", 3, opponent="alphabeta", seat=1, opponent_limit=given)
    games.init()  # the engine moves first in each game
    assert len(_Limited.limits) == 3 and all(limit == given for limit in _Limited.limits)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_gymnasium_opponent_is_told_the_seat_the_learner_does_not_play(
    seat: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an engine that plays by its seat (a contest program's clock, its side's words)
    # must be told the one it holds
    _Told.told = []
    monkeypatch.setattr("arbiter.envs.single.make_agent", lambda spec, name: _Told())
    env = envs.gym_env("votey", seat=seat)
    env.reset(seed=1)
    env.reset(seed=2)
    assert _Told.told == [1 - seat, 1 - seat]
    _Told.told, _Told.seeds = [], []
    monkeypatch.setattr(sys.modules["arbiter.envs.batch"], "make_agent", lambda s, n: _Told())
    envs.batch("votey", 3, opponent="engine", seat=seat, seed=41)
    envs.batch("votey", 3, opponent="engine", seat=seat, seed=42)
    # the batch's engine too, for all its games, its play drawn from the batch's seed
    assert _Told.told == [1 - seat] * 2 and _Told.seeds == [41, 42]


@pytest.mark.parametrize("game", GAMES)
def test_the_legal_actions_come_in_the_order_of_the_legal_moves(game: str) -> None:
    # a learner that indexes the list, or a random player drawing from it, sees the
    # rules engine's order (Nim's moves take the most stones last, its actions first)
    env = envs.raw_env(game)
    rng = random.Random(game)
    env.reset(seed=1)
    for _ in range(12):
        if env.terminations[env.agent_selection]:
            break
        s = env.position
        firsts = [env.encoding.actions_of(s, m)[0] for m in env.rules.legal_moves(s)]
        assert env.legal_actions() == list(dict.fromkeys(firsts)), s
        for action in env.actions_of(rng.choice(env.rules.legal_moves(s))):
            env.step(action)


@pytest.mark.parametrize("game", GAMES)
def test_a_reset_without_openings_starts_from_the_rules_start(game: str) -> None:
    # varied openings are asked for (opening_plies); by default every game is the game
    env = envs.raw_env(game)
    for seed in range(4):
        env.reset(seed=seed)
        assert env.position == env.rules.initial() and env.last_move is None


def test_openings_are_drawn_from_the_reset_s_seed() -> None:
    # varied openings for self-play: each seed its own, the same seed the same one
    env = envs.raw_env("votey", opening_plies=6)
    starts = []
    for seed in (*range(8), 3):
        env.reset(seed=seed)
        starts.append(env.position)
    assert starts[3] == starts[8] and len(set(starts)) == 8


def test_every_shipped_game_is_made_by_its_gymnasium_id_in_a_fresh_process() -> None:
    """``gymnasium.make("arbiter.envs:arbiter/<Game>-v0")`` with nothing imported
    before: Gymnasium imports the module that registers the ids, and the keywords
    reach the environment."""
    script = (
        "import gymnasium\n"
        "from arbiter.games import GAME_NAMES\n"
        "made = []\n"
        "for game in GAME_NAMES:\n"
        "    name = ''.join(p.capitalize() for p in game.split('-'))\n"
        "    e = gymnasium.make(f'arbiter.envs:arbiter/{name}-v0', seat=1)\n"
        "    obs, info = e.reset(seed=3)\n"
        "    assert e.unwrapped.game.spec.name == game and e.unwrapped.seat == 1\n"
        "    assert obs['action_mask'].any()\n"
        "    made.append(e.spec.id)\n"
        "print(' '.join(made))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "arbiter/Votey-v0",
        "arbiter/Checkers-v0",
        "arbiter/Alquerque-v0",
        "arbiter/ChineseCheckers-v0",
        "arbiter/Halma-v0",
    ]


def test_each_environment_has_a_pettingzoo_style_versioned_name() -> None:
    names = {game: envs.raw_env(game).metadata["name"] for game in ("votey", "chinese-checkers")}
    assert names == {"votey": "votey_v0", "chinese-checkers": "chinese_checkers_v0"}


@pytest.mark.parametrize("game", GAMES)
def test_every_environment_starts_at_the_rules_start_unless_asked_for_an_opening(
    game: str,
) -> None:
    # a learner that asked for no opening must see the contest's own start, in the
    # environment it steps and in the batch alike (an opening played by default would
    # train it on positions no contest game begins from)
    start = find_game(game).make().initial()
    raw = envs.raw_env(game)
    raw.reset(seed=3)
    assert raw.position == start
    gym = envs.gym_env(game)
    gym.reset(seed=3)
    assert gym.game.position == start
    arrays = envs.batch(game, 2, seed=3).init()
    mine = raw.observe(envs.AGENTS[0])["observation"]
    assert (arrays.observation[0] == mine).all() and (arrays.observation[1] == mine).all()


@pytest.mark.parametrize(("game", "text"), [("alquerque", "c3 to d4"), ("checkers", "9 to 13")])
def test_an_action_is_told_from_where_its_leg_starts_to_where_it_ends(game: str, text: str) -> None:
    # the first legal move at the start: Alquerque's c3-d4, checkers' 9-13
    env = envs.raw_env(game)
    env.reset(seed=0)
    rules = find_game(game).make()
    s = rules.initial()
    (action,) = env.encoding.actions_of(s, rules.legal_moves(s)[0])
    assert env.encoding.action_text(action) == text
    # the numbering's two ends: the last action is a leg, one past it is none
    last = env.encoding.actions - 1
    assert env.encoding.leg(last) == (env.encoding.cells - 1, env.encoding.cells - 1)
    for outside in (-1, env.encoding.actions):
        with pytest.raises(ValueError, match=f"action {outside} is outside 0..{last}"):
            env.encoding.leg(outside)


@pytest.mark.parametrize("game", GAMES)
def test_an_environment_draws_the_board_its_notation_draws(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ansi`` gives the notation's drawing of the position with its last move, ``human``
    prints it (after every step too) and gives None, and no render mode warns and draws
    nothing; the Gymnasium environment draws its game's board."""
    spec = find_game(game)
    env = envs.raw_env(game, render_mode="ansi")
    env.reset(seed=4)
    assert env.render() == spec.notation.draw_board(env.position, None)
    rng = random.Random(4)
    while env.last_move is None:
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
    assert env.render() == spec.notation.draw_board(env.position, env.last_move)
    capsys.readouterr()
    shown = envs.raw_env(game, render_mode="human")
    shown.reset(seed=4)
    assert shown.render() is None
    assert capsys.readouterr().out == spec.notation.draw_board(shown.position, None) + "\n"
    action = int(np.flatnonzero(shown.observe(shown.agent_selection)["action_mask"])[0])
    shown.step(action)
    drawn = capsys.readouterr().out
    assert drawn == spec.notation.draw_board(shown.position, shown.last_move) + "\n"
    silent = envs.raw_env(game)
    silent.reset(seed=4)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None
    assert capsys.readouterr().out == ""
    single = envs.gym_env(game, render_mode="ansi", seat=1)  # the engine moves first
    single.reset(seed=4)
    assert single.game.last_move is not None
    assert single.render() == spec.notation.draw_board(single.game.position, single.game.last_move)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_tells_both_agents_its_result_reason_and_detail(game: str) -> None:
    """At a game's end both agents' infos hold the outcome's result, reason (its text)
    and detail; after an illegal action, its explanation too, for its mover alone."""
    rules = find_game(game).rules()
    env = envs.raw_env(game)
    env.reset(seed=9)
    rng = random.Random(9)
    while env.outcome is None:
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
    outcome = rules.outcome(env.position)
    assert outcome is not None and env.outcome == outcome
    for agent in envs.AGENTS:
        assert env.infos[agent] == {
            "result": outcome.result(),
            "reason": outcome.reason.value,
            "detail": outcome.detail,
        }
    env.reset(seed=9)
    first = env.agent_selection
    env.step(-1)
    why = f"action {-1!r} is not one of this game's actions"
    other = next(a for a in envs.AGENTS if a != first)
    assert env.infos[first]["illegal"] == why and "illegal" not in env.infos[other]
    for agent in envs.AGENTS:
        assert env.infos[agent]["reason"] == "illegal move"
        assert env.infos[agent]["detail"] == why
        assert env.infos[agent]["result"] == ("0-1" if first == "player_0" else "1-0")
