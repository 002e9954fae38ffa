"""The learning environments' compiled step held to the Python one, which is the
reference: every observation, mask, reward, end and move equal over random games of
each game with a kernel, one at a time (AEC) and in batches; the games without one
stepped in Python; and the batch's own contract (shapes, illegal actions, resets)."""

from __future__ import annotations

import gc
import random
import sys
from typing import Any

import numpy as np
import pytest

from arbiter import core, envs
from arbiter.envs.kernel import Arrays, compiled_games
from arbiter.envs.stepping import CompiledStepper, PythonStepper
from arbiter.errors import ConfigError
from arbiter.games import find_game, game_names
from tests.test_envs import _double_jump

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

try:
    from arbiter._core import GAMES as KERNELS
except ImportError:  # no compiled core here: every test below is skipped
    KERNELS = ()
"""The games with a compiled kernel: a new kernel is held to the Python step here as
soon as the core lists it."""

FIELDS = (
    "observation",
    "legal_action_mask",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
)


def pure_and_compiled(make: Any) -> tuple[Any, Any]:
    """The same environment on the Python step and on the compiled one."""
    with core.forced_pure():
        pure = make()
    return pure, make()


@pytest.mark.parametrize("game", KERNELS)
def test_the_compiled_aec_environment_says_what_the_python_one_says(game: str) -> None:
    # each agent's observation and mask, the rewards, ends, infos, the legal actions,
    # the position and the last move, at every step of random games with an action
    # the mask forbids now and then (the mover loses)
    pure, fast = pure_and_compiled(lambda: envs.raw_env(game))
    assert isinstance(pure._step, PythonStepper) and isinstance(fast._step, CompiledStepper)
    rng = random.Random(game)
    steps = 0
    for episode in range(3):
        pure.reset(seed=episode)
        fast.reset(seed=episode)
        while steps < 250 * (episode + 1):
            for agent in envs.AGENTS:
                a, b = pure.observe(agent), fast.observe(agent)
                assert (a["observation"] == b["observation"]).all(), (steps, agent)
                assert (a["action_mask"] == b["action_mask"]).all(), (steps, agent)
            assert pure.agent_selection == fast.agent_selection
            assert (pure.rewards, pure.terminations, pure.infos) == (
                fast.rewards,
                fast.terminations,
                fast.infos,
            )
            assert pure.legal_actions() == fast.legal_actions()
            assert pure.position == fast.position and pure.last_move == fast.last_move
            if pure.terminations[pure.agent_selection]:
                break
            legal = pure.legal_actions()
            wrong = rng.random() < 0.004
            action = rng.randrange(-1, pure.encoding.actions + 1) if wrong else rng.choice(legal)
            pure.step(action)
            fast.step(action)
            steps += 1


@pytest.mark.parametrize("game", KERNELS)
@pytest.mark.parametrize("auto_reset", [True, False])
def test_a_compiled_batch_steps_as_the_python_batch_does(game: str, auto_reset: bool) -> None:
    # random openings, random and illegal actions, games ending and (or not) restarting:
    # every array equal at every step, and the random players' draws too
    seed = 7 if auto_reset else 7 + (3 << 40)  # a seed past 32 bits, as any may be
    pure, fast = pure_and_compiled(
        lambda: envs.batch(game, 5, seed=seed, opening_plies=3, auto_reset=auto_reset)
    )
    assert fast.compiled and not pure.compiled
    rng = np.random.default_rng(7)
    a, b = pure.init(), fast.init()
    ended = 0
    for step in range(180):
        for field in FIELDS:
            x, y = getattr(a, field), getattr(b, field)
            assert x.dtype == y.dtype and (x == y).all(), (step, field)
        ended += int(a.terminated.sum())
        for seat in (0, 1):  # the games an engine opponent is asked to move in
            assert pure._games.waiting(seat) == fast._games.waiting(seat), (step, seat)
        chosen = pure.random_actions()
        assert (chosen == fast.random_actions()).all()
        wrong = rng.random(5) < 0.02
        chosen[wrong] = rng.integers(-3, pure.num_actions + 3, int(wrong.sum()))
        a, b = pure.step(chosen), fast.step(chosen)
    assert ended  # some game ended on the way (by a rule or an illegal action)


@pytest.mark.parametrize("game", KERNELS)
def test_unpack_is_the_inverse_of_pack(game: str) -> None:
    # the compiled step makes the rules' position from the kernel's bytes
    rules = find_game(game).make()
    assert rules.compiled is not None
    s = rules.initial()
    rng = random.Random(game)
    for _ in range(60):
        assert rules.unpack(rules.pack(s)) == s
        legal = rules.legal_moves(s)
        if not legal:
            break
        s = rules.apply(s, rng.choice(legal))


def test_an_illegal_action_loses_the_game_for_its_mover_and_the_batch_goes_on() -> None:
    games = envs.batch("checkers", 3, seed=1)
    state = games.init()
    assert state.current_player.tolist() == [0, 0, 0]
    legal = games.random_actions()
    chosen = legal.copy()
    chosen[1] = np.flatnonzero(~state.legal_action_mask[1])[0]  # one the mask forbids
    state = games.step(chosen)
    assert state.terminated.tolist() == [False, True, False]
    assert state.rewards.tolist() == [[0, 0], [-1, 1], [0, 0]]
    # restarted at once: the next game's start, the first seat to move
    assert state.current_player.tolist() == [1, 0, 1]
    assert state.legal_action_mask[1].sum() == 7
    state = games.step(games.random_actions())
    assert not state.terminated.any() and not state.rewards.any()


@pytest.mark.parametrize("game", ["votey", "checkers", "chinese-checkers", "alquerque", "halma"])
def test_a_number_outside_the_actions_loses_in_the_compiled_batch(game: str) -> None:
    """One past the last action, and far past it, lose like a forbidden action (never
    taken for another action, as a number cut to the table's size or to 32 bits would
    be), and the game beside them goes on."""
    games = envs.batch(game, 3, seed=1, auto_reset=False)
    games.init()
    size = games.num_actions
    chosen = games.random_actions()
    chosen[0], chosen[2] = size, 2**62
    state = games.step(chosen)
    assert state.terminated.tolist() == [True, False, True]
    assert state.rewards[0].tolist() == state.rewards[2].tolist() == [-1, 1]


def test_a_finished_game_stays_finished_without_auto_reset() -> None:
    games = envs.batch("votey", 2, auto_reset=False)
    state = games.init()
    state = games.step(np.array([-5, games.random_actions()[1]]))
    assert state.terminated.tolist() == [True, False]
    assert state.rewards[0].tolist() == [-1, 1] and not state.legal_action_mask[0].any()
    before = state.observation[0].copy()
    state = games.step(games.random_actions())
    assert state.terminated[0] and not state.rewards[0].any()
    assert (state.observation[0] == before).all()
    assert games.random_actions()[0] == -1


def test_a_capture_chain_is_one_action_per_jump_in_the_batch_too() -> None:
    # a checkers double jump: the same seat acts twice, the path plane marks its start
    # and its first landing between the two
    s, move = _double_jump()
    games = envs.batch("checkers", 1)
    games.init()
    rules = games.rules
    games._games.set(0, rules.pack(s))
    arrays: Arrays = games._arrays
    mover = rules.to_move(s)
    first, second = games.encoding.actions_of(s, move)
    assert arrays.current_player[0] == mover
    assert np.flatnonzero(arrays.legal_action_mask[0]).tolist() == [first]
    state = games.step(np.array([first]))
    assert state.current_player[0] == mover and not state.terminated[0]
    assert state.observation[0, :, :, 3].sum() == 2  # the chain's start and first landing
    assert np.flatnonzero(state.legal_action_mask[0]).tolist() == [second]
    state = games.step(np.array([second]))
    assert state.current_player[0] == 1 - mover
    assert state.observation[0, :, :, 3].sum() == 0
    assert games._games.last(0) == rules.compiled.code(move)


def test_the_batch_refuses_actions_of_the_wrong_shape_and_bad_sizes() -> None:
    games = envs.batch("votey", 4)
    games.init()
    for wrong in (np.zeros(3), np.zeros((4, 1)), np.zeros((1, 4)), np.zeros((2, 2))):
        with pytest.raises(ValueError, match=r"expected \(4,\)"):
            games.step(wrong)  # four games want four actions in a row, not another shape
    with pytest.raises(ConfigError, match="a batch of 0 games"):
        envs.batch("votey", 0)
    with pytest.raises(ConfigError, match="opening_plies -1"):
        envs.batch("votey", 2, opening_plies=-1)
    rules = find_game("votey").make()
    encoding = envs.BoardEncoding(find_game("votey"))
    small = Arrays.zeros(2, encoding.shape, encoding.actions - 1)
    with pytest.raises(ValueError, match="legal_action_mask"):
        compiled_games(encoding, rules, small)


TOYS = [
    name
    for name in game_names()
    if name not in KERNELS
    and (find_game(name).board is not None or find_game(name).encoding is not None)
]
"""The registered games without a kernel that can be learnt: Nim (an encoding of its
own) and the drop game (a board)."""


@pytest.mark.parametrize("game", ["checkers", *TOYS])
def test_a_batch_s_arrays_have_pgx_s_shapes_and_types(game: str) -> None:
    """What a learner's code is written against (pgx's names, shapes and types): a
    boolean mask (``~mask`` of int8 is -1 and -2, every action "allowed"), float
    rewards, an int32 player, boolean ends, small integer planes; on either path."""
    games = envs.batch(game, 3, seed=2)
    state = games.init()
    actions, shape = games.num_actions, games.observation_shape
    expected = {
        "observation": ((3, *shape), np.int8),
        "legal_action_mask": ((3, actions), np.bool_),
        "current_player": ((3,), np.int32),
        "rewards": ((3, 2), np.float32),
        "terminated": ((3,), np.bool_),
        "truncated": ((3,), np.bool_),
    }
    for name, (size, kind) in expected.items():
        array = getattr(state, name)
        assert (array.shape, array.dtype) == (size, np.dtype(kind)), name


def test_a_compiled_batch_freed_lets_go_of_every_array_it_wrote_into() -> None:
    """The kernel holds each of its six arrays while it lives (it writes into them);
    freed, it lets go of all six: a learner that keeps a state past its batch holds
    those arrays alone, as it holds an array of its own (one held back would never be
    freed: memory lost with every batch made)."""
    games = envs.batch("votey", 3, seed=1)
    state = games.init()
    names = ("observation", "legal_action_mask", "current_player", "rewards")
    held = {name: getattr(state, name) for name in (*names, "terminated", "truncated")}
    held["mine"] = np.zeros(3)
    assert games.compiled
    del games, state
    gc.collect()
    counts = {name: sys.getrefcount(array) for name, array in held.items()}
    assert set(counts.values()) == {counts["mine"]}, counts


@pytest.mark.parametrize("game", TOYS)
def test_a_game_without_a_kernel_is_batched_in_python(game: str) -> None:
    games = envs.batch(game, 3, seed=2)
    assert not games.compiled
    state = games.init()
    assert state.observation.shape == (3, *games.observation_shape)
    for _ in range(40):
        chosen = games.random_actions()
        assert all(state.legal_action_mask[i, a] for i, a in enumerate(chosen))
        state = games.step(chosen)
    assert isinstance(envs.raw_env(game)._step, PythonStepper)


def test_a_game_held_in_the_kernel_keeps_a_halma_mask_row_by_its_entries() -> None:
    # the mask row is cleared by the entries it set: after many moves it still holds
    # exactly the legal actions, no entry of an earlier position left behind
    pure, fast = pure_and_compiled(lambda: envs.raw_env("halma"))
    pure.reset(seed=3)
    fast.reset(seed=3)
    rng = random.Random(3)
    for _ in range(120):
        agent = fast.agent_selection
        mask = fast.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(pure.legal_actions())
        action = rng.choice(pure.legal_actions())
        pure.step(action)
        fast.step(action)


@pytest.mark.parametrize("game", ["checkers", "alquerque"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_random_opponent_answers_in_the_core_as_in_python(game: str, seat: int) -> None:
    # the learner holds its seat in every game; the opponent's moves (chains and all)
    # are drawn from each game's generator on both paths, restarts included
    pure, fast = pure_and_compiled(
        lambda: envs.batch(game, 4, seed=3, opponent="random", seat=seat, opening_plies=2)
    )
    a, b = pure.init(), fast.init()
    ended = 0
    for step in range(150):
        for field in FIELDS:
            assert (getattr(a, field) == getattr(b, field)).all(), (step, field)
        assert (a.current_player == seat).all(), step
        ended += int(a.terminated.sum())
        chosen = pure.random_actions()  # a draw from each game's generator, on both
        assert (chosen == fast.random_actions()).all()
        a, b = pure.step(chosen), fast.step(chosen)
    assert ended


def test_an_engine_opponent_answers_every_game_within_the_step() -> None:
    games = envs.batch("checkers", 3, seed=1, opponent="greedy", seat=1)
    state = games.init()  # greedy holds the first seat: it has moved in every game
    assert (state.current_player == 1).all()
    assert all(games.rules.to_move(games._position(i)) == 1 for i in range(3))
    results = []
    for _ in range(300):
        state = games.step(games.random_actions())
        assert (state.current_player == 1).all()
        results += state.rewards[state.terminated, 1].tolist()
    # greedy against random play: games end, nearly all lost by the random learner
    assert len(results) >= 3 and sum(r < 0 for r in results) > len(results) / 2
    with pytest.raises(ConfigError, match="seat 2"):
        envs.batch("checkers", 2, opponent="random", seat=2)
    with pytest.raises(ConfigError, match="unknown engine"):
        envs.batch("checkers", 2, opponent="nobody")


def test_the_core_s_batch_refuses_what_would_take_it_outside_its_memory() -> None:
    """The compiled batch is called by arbiter's own Python, which never gives it
    these; called otherwise, each one is a Python error naming it, not a write past an
    array's end: a bad count, grid, opening or rival; places of the wrong length or off
    the grid; arrays, actions or an output of the wrong size or type; a game or a seat
    that is not there."""
    from arbiter.envs.encoding import BoardEncoding

    spec = find_game("votey")
    rules = spec.rules()
    encoding = BoardEncoding(spec)
    grid = encoding.grid
    compiled: Any = getattr(rules, "compiled")  # noqa: B009
    n = 3

    def made(**changed: Any) -> Any:
        arrays = Arrays.zeros(n, encoding.shape, encoding.actions)
        given: dict[str, Any] = {
            "game": "votey",
            "start": compiled.pack(rules.initial()),
            "n": n,
            "rows": grid.rows,
            "columns": grid.columns,
            "places": bytes(x for c in zip(grid.row_of, grid.column_of, strict=True) for x in c),
            "seed": 1,
            "opening": 0,
            "auto_reset": True,
            **{f: getattr(arrays, f) for f in FIELDS},
            "rival": -1,
        }
        return compiled.core.Batch(**(given | changed))

    good = made()
    good.init()
    for changed, said in [
        ({"game": "chess"}, "no compiled kernel for chess"),
        ({"n": 0}, "a batch of 0 games"),
        ({"rows": 0}, "0x8"),
        ({"columns": 0}, "8x0"),
        ({"opening": -1}, "opening -1"),
        ({"rival": 2}, "rival 2"),
        ({"rival": -2}, "rival -2"),
        ({"places": bytes(2 * 64 - 2)}, "places: 64 cells' rows and columns wanted"),
        ({"places": bytes([8, 0] + [0] * 126)}, "places: cell 0 is off the 8x8 grid"),
        ({"places": bytes([0, 8] + [0] * 126)}, "places: cell 0 is off the 8x8 grid"),
        ({"observation": np.zeros((n - 1, *encoding.shape), np.int8)}, "observation: "),
        ({"legal_action_mask": np.zeros((n, encoding.actions - 1), np.bool_)}, "legal_action"),
        ({"rewards": np.zeros((n, 2), np.float64)}, "rewards: "),
        ({"terminated": np.zeros(n + 1, np.bool_)}, "terminated: "),
    ]:
        with pytest.raises(ValueError, match=said):
            made(**changed)
    # a buffer of the wrong size is given back with the refusal: a bytearray still lent
    # out could not grow
    for field in ("terminated", "truncated"):
        lent = bytearray(n + 1)
        with pytest.raises(ValueError, match=f"{field}: {n + 1} bytes, not {n}"):
            made(**{field: lent})
        lent.append(0)
    for wrong in (np.zeros(n, np.int32), np.zeros(n + 1, np.int64), np.zeros(n - 1, np.int64)):
        with pytest.raises(ValueError, match=f"actions: {n} int64 wanted"):
            good.step(wrong)
        with pytest.raises(ValueError, match=f"out: {n} int64 wanted"):
            good.random(wrong)
    for i in (-1, n):
        for call in (good.state, good.before, good.last, good.legal):
            with pytest.raises(IndexError, match=f"game {i} of a batch of {n}"):
                call(i)
        with pytest.raises(IndexError, match=f"game {i} of a batch of {n}"):
            good.play(i, 0)
        with pytest.raises(IndexError, match=f"game {i} of a batch of {n}"):
            good.observe(i, 0, np.zeros(encoding.shape, np.int8))
    with pytest.raises(ValueError, match="seat 2"):
        good.observe(0, 2, np.zeros(encoding.shape, np.int8))
    size = int(np.prod(encoding.shape))
    with pytest.raises(ValueError, match=f"out: {size} bytes wanted"):
        good.observe(0, 0, np.zeros(size - 1, np.int8))
    good.observe(n - 1, 1, np.zeros(encoding.shape, np.int8))  # the last game, the last seat
    assert good.state(n - 1) == good.state(0)


@pytest.mark.parametrize("game", KERNELS)
@pytest.mark.parametrize("auto_reset", [False, True])
def test_a_game_its_cap_ends_within_its_opening_is_over_from_the_start(
    game: str, auto_reset: bool
) -> None:
    """An opening longer than the game's ply cap ends each game before the learner
    moves: a draw, over from the start, nothing allowed, and a step changes nothing
    (restarting where asked gives the same finished game), alike on both paths."""
    pure, fast = pure_and_compiled(
        lambda: envs.batch(game, 3, seed=2, opening_plies=5, max_plies=3, auto_reset=auto_reset)
    )
    assert fast.compiled and not pure.compiled
    for a, b in ((pure.init(), fast.init()), (pure.step(np.zeros(3)), fast.step(np.zeros(3)))):
        for field in FIELDS:
            assert (getattr(a, field) == getattr(b, field)).all(), field
        assert a.terminated.all() and not a.legal_action_mask.any()
        assert not a.rewards.any()


@pytest.mark.parametrize("game", [*KERNELS, "connect4"])
def test_a_batch_begun_again_starts_every_game_afresh_with_no_rewards(game: str) -> None:
    """``init()`` after games have ended (rewards paid at that step) starts every game
    from its start: no reward left over from the last step, nothing ended, the start
    position's mask; alike on both paths (Connect Four, without a kernel, on Python's)."""
    made = [envs.batch(game, 4, seed=5, auto_reset=False)]
    if game in KERNELS:
        made = list(pure_and_compiled(lambda: envs.batch(game, 4, seed=5, auto_reset=False)))
    for games in made:
        fresh = {f: getattr(games.init(), f).copy() for f in FIELDS}
        games.init()
        games.step(games.random_actions())
        state = games.step(np.full(4, -1))  # no action of the game's: each mover loses
        assert state.terminated.all() and (np.abs(state.rewards) == 1).all(), game
        again = games.init()
        for field in FIELDS:
            assert (getattr(again, field) == fresh[field]).all(), (game, field)
