"""The live standings stream (``GET /api/events``, server-sent events), answered as
plain ASGI ahead of the app's routes.

An open standings page holds one stream for as long as it is open, and a contest
has a thousand of them. Through the app's routes each stream held a task group, a
memory stream and every layer of the middleware and routing in coroutines of its
own: a third of a million objects at a thousand streams, which every full pass of
the collector walked (a quarter-second pause each, every few seconds under load).
Here a stream is one coroutine and one task that hears the page leave.

Every stream shares the standings the server computed last
(:class:`arbiter.host.standings.Board`); it sends them when there is news (at most
one table every :data:`STREAM_INTERVAL` seconds) and a keep-alive comment when there
is none for a while; one address holds at most
:data:`~arbiter.host.stream_slots.STREAMS_PER_CLIENT` streams,
counted over every server process of the contest
(:class:`arbiter.host.stream_slots.StreamSlots`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arbiter.host.service import News
from arbiter.host.stream_slots import StreamSlots

PATH = "/api/events"

HEARTBEAT = 15.0
"""The most seconds between two keep-alive comments on an idle event stream. Each
wait is drawn between half of it and all of it, so streams opened together (a
thousand pages loaded in a minute) do not beat together: a thousand beats at once
held every page behind them for a third of a second."""

STREAM_INTERVAL = 3.0
"""The fewest seconds between two standings sent on one stream. Every result is
news, and each stream sends the whole table: a thousand pages of a 200-entrant
contest took 30 MB a result, which stalled the server; at most one table every few
seconds per page keeps it answering, the latest table always sent."""


class EventStreams:
    """ASGI middleware that answers ``GET /api/events`` itself and passes every other
    request on. ``news`` is what streams wait on, ``payload`` gives the latest
    standings as JSON text, ``slots`` bounds the open streams per address, and
    ``headers`` go on every answer (the server's security headers)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        news: Callable[[], News],
        payload: Callable[[], str],
        slots: StreamSlots,
        headers: Mapping[str, str],
    ) -> None:
        self.app = app
        self.news = news
        self.payload = payload
        self.slots = slots
        self.headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != PATH:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await self._refuse(send, 405, "the live standings are read with GET")
            return
        client = scope.get("client")
        address = client[0] if client else "?"
        try:
            slot = await asyncio.to_thread(self.slots.take, address)
        except Exception:  # the database is away: the page tries again (retry: 2 s)
            await self._refuse(send, 503, "the live standings are away for a moment")
            return
        if slot is None:
            await self._refuse(send, 429, f"at most {self.slots.most} live pages per address")
            return
        gone = asyncio.ensure_future(_left(receive))
        try:
            await self._stream(send, gone)
        except OSError:  # the page went away while a message was being sent
            pass
        finally:
            gone.cancel()
            # freed even while the server stops (the stream's task cancelled); a row
            # left by a failure stops counting once this process stops renewing it
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(asyncio.to_thread(self.slots.give_back, slot))

    async def _stream(self, send: Send, gone: asyncio.Future[None]) -> None:
        news = self.news()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-cache"),
                    *self.headers,
                ],
            }
        )
        await _body(send, "retry: 2000\n\n")
        seen = news.number
        sent = -STREAM_INTERVAL
        while not gone.done():
            await asyncio.wait(
                (news.next, gone, news.closing),
                timeout=HEARTBEAT * random.uniform(0.5, 1.0),
                return_when=asyncio.FIRST_COMPLETED,
            )
            if gone.done():
                return
            if news.closing.done():  # the server stops: the page reconnects elsewhere
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            if news.number == seen:
                await _body(send, ": keep-alive\n\n")
                continue
            # the news of a burst (a round's results) goes out as one update
            wait = sent + STREAM_INTERVAL - time.monotonic()
            if wait > 0:
                await asyncio.wait((gone,), timeout=wait)
                if gone.done():
                    return
            seen = news.number  # the table read next is at least this new
            await _body(send, f"event: standings\ndata: {self.payload()}\n\n")
            sent = time.monotonic()

    async def _refuse(self, send: Send, status: int, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *self.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


async def _body(send: Send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode(), "more_body": True})


async def _left(receive: Receive) -> None:
    """Returns once the page has gone (the connection closed)."""
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            return
