"""A tournament's plan: every setting that decides its games is stored with it, so
resuming with another is refused by name instead of mixing two tournaments' games."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arbiter.agents.spec import AgentSpec
from arbiter.clock import TimeControl
from arbiter.contract import Supervision
from arbiter.errors import ConfigError
from arbiter.games import find_game
from arbiter.tournament.run import Plan, open_tournament, plan_tournament
from arbiter.tournament.store import Store

PLAN = Plan(
    spec=find_game("votey"),
    name="cup",
    agents=(AgentSpec.parse("random"), AgentSpec.parse("greedy")),
    seed=1,
)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"seed": 2}, "started with seed 1, not 2"),  # another schedule and colours
        ({"rounds": 2}, "started with rounds 1, not 2"),
        ({"form": "gauntlet"}, "started with format 'round-robin', not 'gauntlet'"),
        ({"time_control": TimeControl.parse("st=2")}, "time control 'st=1', not 'st=2'"),
        ({"options": {"max_plies": 200}}, "rule options {}, not {'max_plies': 200}"),
        ({"openings": ("a",), "opening_source": "file"}, "started with openings 'none'"),
        ({"supervision": Supervision(single_process=True)}, "started with supervision"),
    ],
)
def test_a_resume_with_another_setting_is_refused_naming_it(
    tmp_path: Path, change: dict[str, Any], says: str
) -> None:
    with Store(tmp_path / "cup.db") as store:
        first = open_tournament(store, PLAN)
        assert open_tournament(store, PLAN).id == first.id  # the same plan resumes
        with pytest.raises(ConfigError, match="tournament 'cup'") as refused:
            open_tournament(store, replace(PLAN, **change))
        assert says in str(refused.value)


def test_other_openings_under_the_same_file_name_are_refused(tmp_path: Path) -> None:
    """The openings count by their contents: a regenerated file of the same name would
    change the starts of the games still to play."""
    plan = replace(PLAN, openings=("a", "b"), opening_source="book.txt")
    with Store(tmp_path / "cup.db") as store:
        open_tournament(store, plan)
        with pytest.raises(ConfigError, match="openings digest"):
            open_tournament(store, replace(plan, openings=("a", "c")))


def test_a_plan_tells_repeated_agents_apart_and_needs_two() -> None:
    plan = plan_tournament(
        find_game("votey"),
        [AgentSpec.parse("random"), AgentSpec.parse("random")],
        time_control=TimeControl.parse("st=1"),
        default_openings=False,
    )
    assert [a.name for a in plan.agents] == ["random", "random'"]
    assert plan.name == "votey" and plan.opening_source == "none"
    with pytest.raises(ConfigError, match="needs two agents or more"):
        plan_tournament(
            find_game("votey"), [AgentSpec.parse("random")], time_control=TimeControl.parse("st=1")
        )
    with pytest.raises(ConfigError, match="contradict"):
        plan_tournament(
            find_game("votey"),
            [AgentSpec.parse("random")] * 2,
            time_control=TimeControl.parse("st=1"),
            opening_plies=4,
            default_openings=False,
        )
