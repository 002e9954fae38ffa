"""Who may see what, decided here and nowhere else.

Public: standings, rounds, every contest game's moves, times and result, each
contestant's list of versions (number, language, date, state). An account's own: its
sources, its build logs, its check reports (with the transcripts of its program), its
program's stderr in each game, and the games of its candidates' evaluations (a
candidate is tested before it counts: its games are its owner's business, not the
field's). The organiser sees everything. A request for what is not the
asker's is answered 404, as if it did not exist (a 403 would confirm that it does).
"""

from __future__ import annotations

from arbiter.host.models import Account, Game, Version


class Hidden(Exception):
    """The asker may not see it: answered 404."""


def is_organiser(viewer: Account | None) -> bool:
    return viewer is not None and viewer.role == "organiser"


def owns(viewer: Account | None, version: Version) -> bool:
    """Whether ``viewer`` may see ``version``'s sources, build log and checks."""
    return viewer is not None and (viewer.id == version.account_id or is_organiser(viewer))


def check_version(viewer: Account | None, version: Version | None) -> Version:
    """:raises Hidden: unless ``viewer`` owns ``version`` or organises."""
    if version is None or not owns(viewer, version):
        raise Hidden
    return version


def game_log(viewer: Account | None, game: Game, seat: int) -> str:
    """A seat's program stderr in ``game``.

    :raises Hidden: unless ``viewer`` owns that seat's version or organises.
    """
    version = game.first if seat == 0 else game.second
    check_version(viewer, version)
    return game.log_first if seat == 0 else game.log_second


def logs_visible(viewer: Account | None, game: Game) -> tuple[bool, bool]:
    """Which seats' stderr ``viewer`` may open in ``game``."""
    return owns(viewer, game.first), owns(viewer, game.second)


def sees_game(viewer: Account | None, game: Game) -> bool:
    """Whether ``viewer`` may see ``game`` at all: every game of the contest's own
    rounds, and a candidate evaluation's games only by the candidate's owner."""
    if game.phase != "candidate" or is_organiser(viewer):
        return True
    if viewer is None:
        return False
    owner = game.first_account_id if game.first_id == game.round.candidate_id else None
    if owner is None and game.second_id == game.round.candidate_id:
        owner = game.second_account_id
    return owner == viewer.id
