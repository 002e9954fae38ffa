"""The Channel to a child process: lines, CPU of its tree, suspension, and its end."""

from __future__ import annotations

import asyncio
import sys

import pytest

from arbiter.errors import Crash
from arbiter.referee.process import Channel

ECHO = [
    sys.executable,
    "-c",
    "import sys\nfor line in sys.stdin: print(line.strip()[::-1], flush=True)",
]
BURN = [sys.executable, "-c", "print('ready', flush=True)\nwhile True: pass"]


def test_lines_go_both_ways_and_close_ends_the_program() -> None:
    async def main() -> tuple[str, str, int | None]:
        ch = Channel(ECHO, name="echo")
        await ch.start()
        await ch.send_line("1434")
        first = await ch.read_line(wall_limit=10)
        await ch.send_line("abc")
        second = await ch.read_line(wall_limit=10)
        return first, second, await ch.close()

    assert asyncio.run(main()) == ("4341", "cba", 0)


def test_suspended_program_uses_no_cpu_until_resumed() -> None:
    async def main() -> tuple[float, float]:
        ch = Channel(BURN, name="burn")
        await ch.start()
        await ch.read_line(wall_limit=10)
        ch.suspend()
        await asyncio.sleep(0.1)
        before = ch.cpu_time()
        await asyncio.sleep(0.4)
        still = ch.cpu_time() - before
        ch.resume()
        await asyncio.sleep(0.6)
        grown = ch.cpu_time() - before - still
        await ch.close()
        return still, grown

    still, grown = asyncio.run(main())
    assert still < 0.05
    assert grown > 0.1  # most of 0.6 s on an idle core; generous for a busy machine


def test_reading_from_an_exited_program_is_a_crash_with_its_code() -> None:
    async def main() -> None:
        ch = Channel([sys.executable, "-c", "import sys; sys.exit(7)"], name="quitter")
        await ch.start()
        try:
            await ch.read_line(wall_limit=10)
        finally:
            await ch.close()

    with pytest.raises(Crash, match="exited with code 7"):
        asyncio.run(main())
