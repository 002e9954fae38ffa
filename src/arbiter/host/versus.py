"""A person against an entrant, as Botzone allows: any accepted entrant's current
program, played on the boards of ``arbiter serve`` through the same referee, clock
and walls as the contest's games (the contest's clock, memory, disk, no network).

The program is the one workers play: its packed archive from the contest's store,
unpacked once per hash into the contest folder (its files are read-only to it
behind the walls) and run with its language's command."""

from __future__ import annotations

from sqlalchemy.orm import Session

from arbiter.agents.spec import AgentSpec
from arbiter.contract import Program
from arbiter.errors import ArbiterError
from arbiter.host.config import ContestConfig
from arbiter.host.languages import fill, shown
from arbiter.host.models import Version
from arbiter.host.programs import ProgramError, archive_path, store_of, unpack_once
from arbiter.host.rounds import entrants
from arbiter.host.settle import version_name


class NoOpponent(ArbiterError, ValueError):
    """An entrant that cannot be played: none by that name, or its program is gone."""


def entrant_agent(session: Session, config: ContestConfig, name: str) -> AgentSpec:
    """The current program of the entrant ``name``, ready to start.

    :raises NoOpponent: for no entrant ``name`` with an accepted version, or a program
        that is missing from the store or does not unpack.
    """
    found = next((e for e in entrants(session) if e.name == name), None)
    version = None if found is None else session.get(Version, found.version)
    if version is None or version.program_sha256 is None:
        raise NoOpponent(f"{name!r} has no accepted program to play")
    language = config.languages.get(version.language)
    if language is None:
        raise NoOpponent(f"{name!r} plays in {version.language!r}, which the contest dropped")
    folder = config.folder / "play" / version.program_sha256
    if not folder.is_dir():
        try:
            unpack_once(archive_path(store_of(config.folder), version.program_sha256), folder)
        except (ProgramError, OSError) as e:
            raise NoOpponent(f"the program of {name!r} cannot be started: {e}") from None
    program = Program.from_command(
        fill(language.run), cwd=str(folder), name=version_name(version), shown=shown(language.run)
    )
    return AgentSpec(version_name(version), program=program)
