"""A scripted stand-in for a program's line pipe, to test a protocol without processes.

Like python-chess's ``MockTransport``: the test says which line the referee should
write next and what the program answers to it; anything else fails at once.

>>> import asyncio
>>> ch = ScriptedChannel(greeting=["1434"])
>>> ch.expect("2123", ["1232"])
>>> async def talk() -> list[str]:
...     first = await ch.read_line()
...     await ch.send_line("2123")
...     return [first, await ch.read_line()]
>>> asyncio.run(talk())
['1434', '1232']
>>> ch.assert_done()
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence

from arbiter.errors import Crash


class ScriptedChannel:
    """Answers the referee's lines from a script; ``seconds`` of CPU are used per reply,
    after ``delay`` seconds of wall time."""

    def __init__(
        self, greeting: Sequence[str] = (), seconds: float = 0.0, delay: float = 0.0
    ) -> None:
        self._expected: deque[tuple[str, list[str]]] = deque()
        self._replies: deque[str] = deque(greeting)
        self._cpu = 0.0
        self.seconds = seconds
        self.delay = delay
        self.sent: list[str] = []
        #: what happened, in order: ``send X``, ``read X``, ``suspend``, ``resume``, ``close``
        self.log: list[str] = []
        self.closed = False
        self.suspended = False

    def expect(self, line: str, replies: Sequence[str] = ()) -> None:
        """The referee must write ``line`` next; the program then answers ``replies``."""
        self._expected.append((line, list(replies)))

    def assert_done(self) -> None:
        """Fails if an expected line was never written or a reply never read."""
        assert not self._expected, f"never written: {[e for e, _ in self._expected]}"
        assert not self._replies, f"never read: {list(self._replies)}"

    async def start(self) -> None:
        pass

    async def send_line(self, text: str) -> None:
        if self.closed:
            raise Crash("input closed", who="scripted program")
        for line in text.split("\n"):
            self.sent.append(line)
            self.log.append(f"send {line}")
            assert self._expected, f"unexpected line {line!r}"
            want, replies = self._expected.popleft()
            assert line == want, f"expected {want!r}, got {line!r}"
            self._replies.extend(replies)

    async def read_line(
        self,
        *,
        cpu_limit: float | None = None,
        cpu_base: float = 0.0,
        wall_limit: float | None = None,
        memory_limit: int | None = None,
    ) -> str:
        if not self._replies:
            raise Crash("closed its output", who="scripted program")
        if self.delay:
            await asyncio.sleep(self.delay)
        self._cpu += self.seconds
        line = self._replies.popleft()
        self.log.append(f"read {line}")
        return line

    def pending(self) -> list[str]:
        return []

    def cpu_time(self) -> float:
        return self._cpu

    def suspend(self) -> None:
        self.suspended = True
        self.log.append("suspend")

    def resume(self) -> None:
        self.suspended = False
        self.log.append("resume")

    async def close(self, grace: float = 0.5) -> int | None:
        self.closed = True
        self.log.append("close")
        return 0
