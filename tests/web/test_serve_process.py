"""``arbiter serve`` as a real process: it stops at once on SIGTERM or Ctrl-C, also
after a client watched a game to its end over the live socket (a socket the game
had stopped sending on once kept the server waiting for ever), and a bad port is a
one-line error."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import websockets

from tests.runs import interruptible

ARBITER = [sys.executable, "-m", "arbiter.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    server = subprocess.Popen(
        [*ARBITER, "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1)
            return server, base
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise
            time.sleep(0.1)


def watch_a_match_to_its_end(base: str) -> None:
    body = {"game": "votey", "engines": ["random", "random"], "move_time": 0.01}
    request = urllib.request.Request(
        base + "/api/matches",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    sid = json.load(urllib.request.urlopen(request, timeout=10))["id"]

    async def watch() -> None:
        url = base.replace("http", "ws") + f"/api/sessions/{sid}/live"
        async with websockets.connect(url) as live:
            while json.loads(await asyncio.wait_for(live.recv(), 30)).get("result") is None:
                pass

    asyncio.run(watch())


@pytest.mark.timing
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_at_once_after_a_game_watched_to_its_end(sig: signal.Signals) -> None:
    server, base = start_server()
    try:
        watch_a_match_to_its_end(base)
        started = time.monotonic()
        server.send_signal(sig)
        _, err = server.communicate(timeout=15)
    finally:
        server.kill()
    assert time.monotonic() - started < 10
    assert "Traceback" not in err and "CancelledError" not in err, err


def test_a_port_out_of_range_is_a_one_line_error() -> None:
    done = subprocess.run(
        [*ARBITER, "serve", "--port", "80000"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--port: '80000' must be from 1 to 65535" in done.stderr
