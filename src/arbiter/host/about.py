"""What the contest page (``/contest``) says: the organiser's description, the game's
rules and protocol (as its own folder writes them for contestants), the clock,
memory and disk limits in words, each language's exact commands, the calendar, the
ranking rule and the key the contest signs its records with."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from markdown_it import MarkdownIt

from arbiter.clock import Charging
from arbiter.games import find_game
from arbiter.host.calendar import stamp, words
from arbiter.host.config import ContestConfig, contest_supervision
from arbiter.host.languages import available, shown


def markdown(text: str) -> str:
    """``text`` as HTML: CommonMark with raw HTML escaped (an organiser's description
    is shown to everyone, so it carries no script)."""
    return str(MarkdownIt("commonmark", {"html": False}).render(text))


@dataclass(frozen=True, slots=True)
class LanguageLine:
    key: str
    title: str
    suffixes: str
    compile: str
    run: str
    here: bool


def clock_words(config: ContestConfig) -> str:
    """The contest's clock in words, with what time counts: ``30 s per game, wall
    time (the waiting program is suspended)``."""
    spec = find_game(config.game)
    supervision = spec.supervision
    what = (
        "CPU time of the whole process tree"
        if supervision.charging is Charging.CPU
        else ("wall-clock time")
    )
    text = f"{config.time_control.describe()}, counted in {what}"
    if supervision.suspend:
        text += "; the waiting program is suspended until it is sent the next move"
    return text


def limit_words(config: ContestConfig) -> list[str]:
    """The limits a program plays under, each a sentence."""
    supervision = contest_supervision(
        config.game, config.limits.memory_mb, disk_mb=config.limits.disk_mb
    )
    lines = [
        f"memory: {config.limits.memory_mb} MB resident for the program and all it starts",
        f"disk: {config.limits.disk_mb} MB written in all",
        "network: none (a program reaches nothing outside its own walls)",
    ]
    if supervision.single_process:
        lines.append("processes: one (a program that starts another loses)")
    elif supervision.max_processes:
        lines.append(f"processes and threads: at most {supervision.max_processes} at once")
    lim = config.limits
    lines += [
        f"upload: at most {lim.upload_kb} KB, {lim.archive_files} files, "
        f"{lim.unpacked_kb} KB unpacked; {lim.versions_per_hour} uploads an hour",
        f"build: {lim.compile_seconds:g} s, {lim.compile_memory_mb} MB of memory, "
        f"{lim.compile_disk_mb} MB written; the build kept at most {lim.build_mb} MB",
    ]
    return lines


def languages(config: ContestConfig) -> list[LanguageLine]:
    """Each language the contest takes with its commands as the contest runs them
    (``{python}`` shown as ``python3``), and whether this server can build it."""

    return [
        LanguageLine(
            lang.key,
            lang.title,
            " ".join(lang.suffixes),
            shown(lang.compile) or "(none: run as uploaded)",
            shown(lang.run),
            available(lang),
        )
        for lang in config.languages.values()
    ]


def calendar_lines(config: ContestConfig, at: datetime) -> list[str]:
    """The calendar in sentences, as of ``at``."""
    cal = config.calendar
    lines = []
    if cal.opens is not None:
        verb = "opened" if at >= cal.opens else "open"
        lines.append(f"Uploads {verb} at {stamp(cal.opens)}.")
    if cal.closes is not None:
        verb = "closed" if cal.closed(at) else "close"
        lines.append(f"Uploads {verb} at {stamp(cal.closes)}.")
    if cal.opens is None and cal.closes is None:
        lines.append("Uploads are taken at any time.")
    fmt = config.format
    if fmt.kind == "swiss":
        tests = f"Test rounds: Swiss, {fmt.games_per_pair} games a pairing, both colours"
    elif fmt.kind == "ladder":
        tests = f"Test rounds: a ladder, {fmt.placement_games} placement games a new version"
    else:
        tests = f"Test rounds: a round robin, {fmt.games_per_pair} games a pairing"
    when = f"every {words(cal.every)}" if cal.every else "when the organiser starts them"
    if cal.every and cal.first:
        when += f" from {stamp(cal.first)}"
    lines.append(f"{tests}, {when}.")
    final = cal.final
    if final is not None:
        parts = []
        if final.rounds:
            parts.append(f"{final.rounds} Swiss rounds")
        if final.top:
            parts.append(
                f"then a round robin of the top {final.top} ({final.games_per_pair} games a "
                "pairing, both colours)"
            )
        frozen = "the versions accepted from uploads before uploads close"
        lines.append(
            f"The final: {', '.join(parts)}, played by {frozen}; the final's standings "
            "count only the final's games."
        )
    return lines


def guide_html(config: ContestConfig) -> str | None:
    """The game's rules and protocol as its folder writes them for contestants (its
    :attr:`~arbiter.contract.GameSpec.guide`), as HTML; None for a game without one.

    :raises OSError: if the game's guide cannot be read.
    """
    spec = find_game(config.game)
    if spec.guide is None:
        return None
    return markdown(spec.guide.read_text(encoding="utf-8"))
