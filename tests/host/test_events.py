"""The live standings stream as plain ASGI, without a server: what a page is sent
(the retry, keep-alive comments while idle, the latest table after news, the end when
the server stops), what is refused and why, and that a stream's slot is given back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from arbiter.host import events
from arbiter.host.events import EventStreams
from arbiter.host.service import News


class Slots:
    """Stream slots in memory: ``free`` slots, or a database away (``away``)."""

    most = 8

    def __init__(self, free: int = 1, away: bool = False) -> None:
        self.free, self.away = free, away
        self.taken: list[str] = []
        self.given_back: list[int] = []

    def take(self, address: str) -> int | None:
        if self.away:
            raise OSError("the database is away")
        if self.free == 0:
            return None
        self.free -= 1
        self.taken.append(address)
        return len(self.taken)

    def give_back(self, slot: int) -> None:
        self.given_back.append(slot)
        self.free += 1


async def passed_on(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the stream's request went to the app")


class Page:
    """One page's request to the stream: what it was sent, as text, and a way to leave."""

    def __init__(self, streams: EventStreams, method: str = "GET") -> None:
        self.sent: list[dict[str, Any]] = []
        self.leave = asyncio.Event()
        scope = {"type": "http", "path": events.PATH, "method": method, "client": ("10.0.0.9", 1)}
        self.task = asyncio.ensure_future(streams(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def text(self) -> str:
        return "".join(m.get("body", b"").decode() for m in self.sent[1:])

    async def until(self, part: str) -> None:
        """Waits until ``part`` was sent (at most 10 s: a stream that never sends it
        fails the test rather than hanging it)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while part not in self.text:
            assert not self.task.done() and loop.time() < deadline, self.text
            await asyncio.sleep(0.001)


def streams_of(news: News, slots: Slots, tables: list[str]) -> EventStreams:
    return EventStreams(
        passed_on, news=lambda: news, payload=lambda: tables[-1], slots=slots, headers={"X-A": "b"}
    )


def test_an_idle_stream_beats_then_sends_the_latest_table_and_ends_with_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(events, "HEARTBEAT", 0.01)
    monkeypatch.setattr(events, "STREAM_INTERVAL", 0.2)

    async def run() -> None:
        news, slots, tables = News(), Slots(), ['{"n":0}']
        page = Page(streams_of(news, slots, tables))
        await page.until("retry: 2000\n\n")
        assert page.status == 200
        headers = dict(page.sent[0]["headers"])
        assert headers[b"content-type"].startswith(b"text/event-stream")
        assert headers[b"cache-control"] == b"no-cache" and headers[b"x-a"] == b"b"
        await page.until(": keep-alive\n\n")  # nothing new: a comment keeps it open
        assert "event:" not in page.text
        tables.append('{"n":1}')
        await news.post()
        await page.until('event: standings\ndata: {"n":1}\n\n')
        tables.extend(['{"n":2}', '{"n":3}'])  # a burst: its latest table goes out
        await news.post()
        await news.post()
        await page.until('data: {"n":3}')
        assert '{"n":2}' not in page.text and '{"n":0}' not in page.text
        news.close()  # the server stops: the stream ends, its slot given back
        await asyncio.wait_for(page.task, 10)
        assert page.sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
        assert slots.taken == ["10.0.0.9"] and slots.given_back == [1]

    asyncio.run(run())


def test_a_page_that_leaves_gives_its_slot_back() -> None:
    async def run() -> None:
        news, slots = News(), Slots()
        page = Page(streams_of(news, slots, ["{}"]))
        await page.until("retry")
        page.leave.set()
        await asyncio.wait_for(page.task, 10)
        assert slots.given_back == [1] and slots.free == 1

    asyncio.run(run())


@pytest.mark.parametrize(
    ("method", "slots", "status", "said"),
    [
        ("POST", Slots(), 405, "the live standings are read with GET"),
        ("GET", Slots(free=0), 429, "at most 8 live pages per address"),
        ("GET", Slots(away=True), 503, "the live standings are away for a moment"),
    ],
    ids=["post", "no-slot", "database-away"],
)
def test_a_stream_refused_says_why_in_json(
    method: str, slots: Slots, status: int, said: str
) -> None:
    async def run() -> None:
        page = Page(streams_of(News(), slots, ["{}"]), method)
        await asyncio.wait_for(page.task, 10)
        assert page.status == status
        assert json.loads(page.sent[1]["body"]) == {"error": said}
        assert slots.given_back == []

    asyncio.run(run())


def test_the_next_news_is_a_fresh_wait_once_the_last_is_posted_or_given_up() -> None:
    """Every stream waits on the same future of the next news; once that news is out,
    or the future was cancelled (a waiter that gave up with it), the next asked for is
    a new one, still waiting: a done future would wake the streams at once, for ever."""

    async def run() -> None:
        news = News()
        first = news.next
        assert news.next is first and not first.done()  # one wait shared
        await news.post()
        assert first.done() and news.number == 1
        second = news.next
        assert second is not first and not second.done()
        second.cancel()
        third = news.next
        assert third is not second and not third.done()
        await news.post()
        assert third.done() and news.number == 2

    asyncio.run(run())
