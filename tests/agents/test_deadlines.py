"""Built-in engines answer before the referee's wall stop however starved their thread
is: the stop is given to them (``Limit.wall_stop``) in process and as a program, and
their search ends a starved thread's margin before it. The clocks here are fakes, so
nothing depends on the machine's load."""

from __future__ import annotations

import asyncio
import io
import os
from dataclasses import dataclass
from typing import Any

import pytest

from arbiter.agents import alphabeta, greedy
from arbiter.agents import program as program_module
from arbiter.agents.program import ProgramClock
from arbiter.agents.random import RandomAgent
from arbiter.agents.registry import make_agent
from arbiter.clock import STARVED_MARGIN, Charging, Clock, Limit, TimeControl
from arbiter.contract import Supervision
from arbiter.games import find_game
from arbiter.referee import seat as seat_module
from arbiter.referee.match import play_game
from arbiter.referee.seat import LocalSeat


class StarvedClock:
    """A ``time`` module for a thread that never gets a core: its CPU time stands
    still while the wall clock runs on, ``step`` seconds at every look."""

    def __init__(self, step: float = 0.01) -> None:
        self.wall = 0.0
        self.step = step

    def thread_time(self) -> float:
        return 0.0

    def perf_counter(self) -> float:
        self.wall += self.step
        return self.wall


@pytest.mark.parametrize("seconds", [0.1, 1.0, 3.0, 10.0, 60.0])
@pytest.mark.parametrize("charging", [Charging.CPU, Charging.WALL])
def test_a_starved_search_ends_before_the_referees_stop(monkeypatch, seconds, charging) -> None:
    clock = Clock.start(TimeControl.per_move_seconds(seconds))
    stop = Supervision(charging).wall_limit(clock.kill_at(0))
    assert stop is not None
    starved = StarvedClock(step=stop / 200)  # a few hundred looks, whatever the clock
    monkeypatch.setattr(alphabeta, "time", starved)
    spec = find_game("votey")
    game = spec.make()
    engine = make_agent(spec, "alphabeta:pure=1")
    engine.reset(game, 0, 0)
    limit = Limit(time=seconds, wall=charging is Charging.WALL, wall_stop=stop)
    engine.choose(game.initial(), limit)
    # it stopped searching by the referee's stop less a starved thread's margin
    assert starved.wall <= max(stop - STARVED_MARGIN, stop / 2) + 5 * starved.step


def test_a_starved_greedy_move_ends_before_the_referees_stop(monkeypatch) -> None:
    starved = StarvedClock()
    monkeypatch.setattr(greedy, "time", starved)
    spec = find_game("halma")
    game = spec.make()
    engine = make_agent(spec, "greedy")
    engine.reset(game, 0, 0)
    engine.choose(game.initial(), Limit(time=3.0, wall_stop=7.0))
    assert starved.wall <= 6.0 + 0.05


@dataclass
class Recorder:
    """An engine that plays the first legal move and keeps the limits it was given."""

    game: Any = None
    name: str = "recorder"

    def __post_init__(self) -> None:
        self.limits: list[Limit] = []

    def reset(self, game: Any, seat: int, seed: int) -> None:
        self.game = game

    def choose(self, s: Any, limit: Limit) -> Any:
        self.limits.append(limit)
        return self.game.legal_moves(s)[0]

    def observe(self, s: Any, m: Any) -> None:
        pass

    def halt(self) -> None:
        pass

    def note(self) -> str:
        return ""


class StoppedClock:
    """A ``time`` module whose clocks stand still: what a seat computes from them is
    exact, whatever the machine's load."""

    def perf_counter(self) -> float:
        return 1000.0

    def thread_time(self) -> float:
        return 0.0

    def process_time(self) -> float:
        return 0.0


@pytest.mark.parametrize(("tc", "stop"), [("st=3", 7.0), ("st=1", 3.0), ("30", 30.0)])
def test_an_engine_in_process_is_told_the_referees_stop(
    monkeypatch: pytest.MonkeyPatch, tc: str, stop: float
) -> None:
    """Told as what is left of it when the engine's thread begins."""
    monkeypatch.setattr(seat_module, "time", StoppedClock())
    spec = find_game("alquerque" if tc == "30" else "votey")
    charging = Charging.WALL if tc == "30" else Charging.CPU
    engine = Recorder()
    game = spec.make()
    seat = LocalSeat(engine, game, spec.contest, supervision=Supervision(charging))
    clock = Clock.start(TimeControl.parse(tc))

    async def one_move() -> None:
        await seat.start(0, clock)
        await seat.ask(game.initial(), clock)

    asyncio.run(one_move())
    assert engine.limits[0].wall_stop == stop  # no time passed on the stopped clock


def test_an_engine_as_a_program_is_told_the_referees_stop_less_its_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(program_module, "time", StoppedClock())  # no wait but the unseen
    clock = ProgramClock(TimeControl.parse("st=3"), 0, Charging.CPU)
    clock.message_received()
    clock.replied()
    clock.message_received()
    limit = clock.limit()
    assert limit.wall_stop is not None and 6.9 < limit.wall_stop <= 7.0
    assert limit.answer_by() is not None and limit.answer_by() <= 6.0


def test_an_engine_whose_thread_began_late_is_told_what_is_left_of_the_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(seat_module, "time", StoppedClock())
    spec = find_game("votey")
    engine = Recorder()
    game = spec.make()
    seat = LocalSeat(engine, game, spec.contest)
    clock = Clock.start(TimeControl.parse("st=1"))
    engine.reset(game, 0, 0)
    s = game.initial()
    seat._think(s, Limit(time=1.0), clock, stop_at=1000.0 - 0.5)  # began late
    seat._think(s, Limit(time=1.0), clock, stop_at=1000.0 + 100.0)
    late, early = (limit.wall_stop for limit in engine.limits)
    assert (late, early) == (0.0, 100.0)


class _NeverMoves:
    """An engine that ignores its limit: it waits until halted (or a minute)."""

    name = "never"

    def __init__(self) -> None:
        import threading

        self.halted = threading.Event()

    def reset(self, game: Any, seat: int, seed: int) -> None:
        pass

    def choose(self, s: Any, limit: Limit) -> Any:
        self.halted.wait(60)
        raise RuntimeError("halted")

    def observe(self, s: Any, m: Any) -> None:
        pass

    def note(self) -> str:
        return ""

    def halt(self) -> None:
        self.halted.set()


@pytest.mark.parametrize("charging", [Charging.WALL, Charging.CPU])
def test_an_engine_in_process_past_its_stop_loses_on_time_and_is_halted(
    charging: Charging,
) -> None:
    """The referee does not wait on an engine in its own process that overruns: at the
    stop the move is lost on time, and the engine is told to halt."""
    from arbiter.errors import Reason
    from arbiter.referee.match import play_game

    spec = find_game("votey")
    game = spec.make()
    never = _NeverMoves()
    sup = Supervision(charging)
    seats = [
        LocalSeat(never, game, spec.contest, supervision=sup, name="never"),
        LocalSeat(make_agent(spec, "random"), game, spec.contest, supervision=sup),
    ]
    record = asyncio.run(play_game(spec, game, seats, TimeControl.per_move_seconds(0.2)))
    assert (record.winner, record.reason) == (1, Reason.TIME)
    assert record.detail.startswith("no move within ") and "s wall time" in record.detail
    assert never.halted.is_set()


class WaitingClock(StoppedClock):
    """A ``time`` module whose wall clock moves only when :class:`Waiter` waits, and
    whose CPU clocks never move: what a seat charges from them is exact."""

    def __init__(self) -> None:
        self.wall = 1000.0

    def perf_counter(self) -> float:
        return self.wall


class Waiter(RandomAgent):  # type: ignore[type-arg]
    """A random engine that waits 0.3 s of wall time, at no CPU, before each move."""

    def __init__(self, clock: WaitingClock) -> None:
        super().__init__()
        self.clock = clock

    def choose(self, s, limit):
        self.clock.wall += 0.3
        return super().choose(s, limit)


@pytest.mark.parametrize("charging", [Charging.CPU, Charging.WALL])
def test_a_built_in_engine_is_charged_by_the_clock_its_contest_charges(
    charging: Charging, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a wait costs no CPU: charged by CPU time a waiting engine pays nothing, by the
    # wall clock the whole wait
    clock = WaitingClock()
    monkeypatch.setattr(seat_module, "time", clock)
    spec = find_game("votey")
    game = spec.make({"max_plies": 2})
    sup = Supervision(charging=charging)
    seats = [
        LocalSeat(Waiter(clock), game, spec.contest, supervision=sup),
        LocalSeat(RandomAgent(), game, spec.contest, supervision=sup),
    ]
    record = asyncio.run(play_game(spec, game, seats, TimeControl.parse("st=5")))
    charged = 0.3 if charging is Charging.WALL else 0.0
    assert record.times[0] == pytest.approx(charged), record.times


class BusyClock(StoppedClock):
    """A stopped clock whose process has used 42 s of CPU since it began."""

    def process_time(self) -> float:
        return 42.0


def test_a_program_s_start_up_cpu_is_charged_to_its_first_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # charged by CPU, a program's first move costs all the CPU its process has used
    # since it began (its start-up): its clock tells it what is left after that
    monkeypatch.setattr(program_module, "time", BusyClock())
    clock = ProgramClock(TimeControl.parse("st=100"), 0, Charging.CPU)
    assert clock.limit().time == 100 - 42


def test_a_program_knows_when_its_process_began(monkeypatch: pytest.MonkeyPatch) -> None:
    # under wall charging its first move is charged from its process's start: the
    # kernel's start time (clock ticks since boot, after a command name that may hold
    # parentheses) against the time since boot, on the stopped clock's scale
    fields = ["S", *["0"] * 18, "500", *["0"] * 10]
    files = {
        "/proc/self/stat": b"4242 (odd) name) " + " ".join(fields).encode(),
        "/proc/uptime": b"60.00 100.00\n",
    }
    monkeypatch.setattr(
        program_module, "open", lambda path, mode: io.BytesIO(files[path]), raising=False
    )
    monkeypatch.setattr(program_module, "time", StoppedClock())
    ticks = os.sysconf("SC_CLK_TCK")
    assert program_module._process_start() == pytest.approx(1000.0 - (60.0 - 500 / ticks))
