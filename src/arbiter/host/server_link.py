"""A worker's link to its contest's server: every call signed with the worker's key
(:class:`~arbiter.host.request_signing.SignedCalls`), made again while the server is
away (each wait longer, with a little jitter), and made only to a server that has
just proved it holds the contest's key.

A worker's first contact decides whether the address is its contest's: a server
that answers but is not it (a plain web server, another contest, one that cannot
prove the key) ends the worker with one line (:class:`NotTheContest`); after the
contest has answered there once, the same answers are the server being away."""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx2 as httpx

from arbiter.errors import ArbiterError
from arbiter.host.request_signing import SignedCalls, Token, proves
from arbiter.host.wire import ContestInfo

T = TypeVar("T")


class Revoked(ArbiterError):
    """The server refused this worker's token: the one way a worker stops by itself."""


class Away(Exception):
    """The server did not answer as this worker's contest (tried again later)."""


class Stranger(Away):
    """A server answered, but not as this token's contest: a wrong address when it is
    the worker's first contact (said once, and the worker stops), a server away if
    the worker has met its contest there before (a proxy's page while it restarts)."""


class NotTheContest(ArbiterError):
    """The address answers, but it is not this token's contest server."""


class ServerLink:
    """The link to the server at ``url`` of the contest the worker ``token`` text
    names; ``say`` gets its lines (the server away, then back); ``away_max`` caps the
    wait between two tries while the server is away.

    :raises TokenError: for a token text that is not one.
    """

    def __init__(self, url: str, token: str, say: Callable[[str], None], away_max: float) -> None:
        self.url = url.rstrip("/")
        self.instance = secrets.token_hex(8)
        self.token = Token.parse(token)
        self.client = httpx.Client(
            base_url=self.url,
            timeout=httpx.Timeout(60.0, connect=10.0),
            auth=SignedCalls(self.token, self.instance),
        )
        self.contest = self.token.contest
        self.say = say
        self.away_max = away_max
        self.verified = False
        self.met = False  # whether this contest ever answered here
        self.stopped = threading.Event()
        """Set when the worker is told to stop: its calls stop waiting for a server
        that is away (:meth:`retrying`)."""

    def verify(self) -> None:
        """Checks the server is this token's contest before any call: it must sign a
        fresh challenge with the key the token pins.

        :raises Away: if it does not answer as one, or cannot prove it.
        """
        challenge = secrets.token_urlsafe(24)
        response = self.client.get("/api/contest", params={"challenge": challenge}, auth=None)
        if response.status_code in (502, 503, 504):
            raise Away(f"{self.url} answered {response.status_code}")
        try:
            info = ContestInfo.model_validate(response.json())
        except ValueError:
            raise Stranger(
                f"{self.url} answers, but not as an arbiter contest server "
                f"(/api/contest: {response.status_code}); is it the contest's address?"
            ) from None
        if info.id != self.contest:
            raise Stranger(
                f"{self.url} is contest {info.name!r} ({info.id}), not this token's "
                f"({self.contest})"
            )
        if not proves(self.token.contest_key, info.id, challenge, info.proof):
            raise Stranger(
                f"{self.url} does not prove it holds contest {info.id}'s key: "
                "not the contest's server"
            )
        self.verified = self.met = True

    def retrying(self, attempt: Callable[[], T]) -> T:
        """``attempt()``, tried again while the server is away, each wait longer (with
        a little jitter, so workers that lost one server do not all return at once).

        :raises Revoked: when the server refuses the token.
        :raises NotTheContest: when the first server to answer is not this contest's.
        :raises KeyboardInterrupt: in the main thread, told to stop while the server
            is away.
        """
        delay, since, said = 0.5, 0.0, ""
        while True:
            try:
                if not self.verified:
                    self.verify()
                result = attempt()
            except (httpx.TransportError, Away) as e:
                if isinstance(e, Stranger) and not self.met:
                    raise NotTheContest(str(e)) from None
                self.verified = False
                why = str(e) if isinstance(e, Away) else f"{type(e).__name__}: {e}"
                if not since or why != said:
                    self.say(f"server away ({why}); trying again")
                    since, said = since or time.monotonic(), why
                self._wait(delay * random.uniform(0.8, 1.2))
                delay = min(delay * 2, self.away_max)
                continue
            if since:
                self.say(f"server back after {time.monotonic() - since:.0f} s")
            return result

    def _wait(self, seconds: float) -> None:
        """Waits before the next try. The worker's own thread stops waiting when it is
        told to stop (:attr:`stopped`), so a worker stopped while its server is away
        stops at once rather than never. Nothing is lost: a server that is away granted
        no lease, a result waits in the spool for the next start, and a game whose
        failure goes unsaid returns to the queue when its lease runs out. (The game's
        own threads wait on, as they did.)

        :raises KeyboardInterrupt: in the main thread, once :attr:`stopped` is set.
        """
        if threading.current_thread() is not threading.main_thread():
            time.sleep(seconds)
        elif self.stopped.is_set() or self.stopped.wait(seconds):
            raise KeyboardInterrupt

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """One call of the worker API, made until the server answers it.

        :raises Revoked: for a refused token.
        """

        def attempt() -> httpx.Response:
            response = self.client.request(method, path, json=body)
            if response.status_code in (502, 503, 504):
                raise Away(f"{self.url} answered {response.status_code}")
            if response.status_code == 401:
                raise Revoked(f"the server refused this worker's token: {error_of(response)}")
            return response

        return self.retrying(attempt)


def error_of(response: httpx.Response) -> str:
    try:
        data = response.json()
        return str(data.get("error", data)) if isinstance(data, dict) else str(data)
    except ValueError:
        return response.text[:200] or f"status {response.status_code}"


def code_of(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return ""
    return str(data.get("code", "")) if isinstance(data, dict) else ""
