"""A program's transcript: what it was sent and wrote, its standard error up to a cap
(a program flooding it cannot fill the disk), and what was left out said at the end."""

from __future__ import annotations

import asyncio
from pathlib import Path

from arbiter.clock import Clock, TimeControl
from arbiter.contract import Program
from arbiter.errors import Reason
from arbiter.game import Outcome
from arbiter.games.votey.referee import VoteySeat
from arbiter.referee.scripted import ScriptedChannel
from arbiter.referee.supervision import Supervision
from arbiter.referee.transcript import STDERR_BYTES, Transcript


def test_standard_error_is_kept_up_to_its_cap_and_the_rest_counted(tmp_path: Path) -> None:
    log = Transcript(str(tmp_path), 0, "flood")
    log.open("started: flood")
    line = "x" * 999  # a thousand bytes with its newline
    sent = STDERR_BYTES // 1000 * 3
    for _ in range(sent):
        log.stderr(line)
    log.sent("1434")
    log.finish(Outcome(1, Reason.CRASH, "exited"))
    log.close()
    text = log.path.read_text()
    kept = [row for row in text.splitlines() if " e " in row]
    assert len(kept) == STDERR_BYTES // 1000  # the cap, and not a line past it
    assert f"standard error: {sent * 1000} bytes, the first {STDERR_BYTES} kept" in text
    assert "> 1434" in text and "game over: 0-1 by crash (exited)" in text


def test_standard_error_of_exactly_the_cap_is_kept_whole_and_nothing_said(
    tmp_path: Path,
) -> None:
    log = Transcript(str(tmp_path), 0, "full")
    log.open("started: full")
    line = "x" * 1023  # 1024 bytes with its newline: the cap is a whole number of them
    for _ in range(STDERR_BYTES // 1024):
        log.stderr(line)
    log.finish(Outcome(0, Reason.NO_MOVES))
    log.close()
    text = log.path.read_text()
    assert sum(" e " in row for row in text.splitlines()) == STDERR_BYTES // 1024
    assert "kept" not in text  # nothing was left out, so nothing is said


class _SlowToStop(ScriptedChannel):
    """A program whose stopping never ends (a busy machine killing a big tree)."""

    async def close(self, grace: float = 0.5) -> int | None:
        self.log.append("close")
        await asyncio.Event().wait()
        return None


def test_how_the_game_ended_is_written_before_the_program_is_stopped(tmp_path: Path) -> None:
    """A worker told to stop has a few seconds to stop its game's programs, then ends
    anyway: its transcripts must already say how the game ended."""
    channel = _SlowToStop()
    seat = VoteySeat(
        Program(("unused",), name="slow"),
        supervision=Supervision(log_dir=str(tmp_path)),
        transport_factory=lambda argv, cwd: channel,
    )

    async def cut_short() -> None:
        await seat.start(0, Clock.start(TimeControl.per_move_seconds(1.0)))
        stopping = asyncio.create_task(seat.stop(Outcome(None, Reason.ABORTED, "interrupted")))
        while "close" not in channel.log:
            await asyncio.sleep(0.01)
        stopping.cancel()  # the referee ends here, the program not yet stopped

    asyncio.run(cut_short())
    last = (tmp_path / "1-slow.log").read_text().splitlines()[-1]
    assert last.endswith("! game over: 1/2-1/2 by aborted (interrupted)")
