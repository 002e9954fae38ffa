"""Forwarded addresses are believed only from the proxy the organiser names: a
client that sends ``X-Forwarded-For`` itself stays at its own address for the
log-in delays (the real server, as ``arbiter host`` runs it)."""

from __future__ import annotations

from pathlib import Path

import httpx2 as httpx

from tests.host.running import Server, csrf, free_port, make_contest

CONTEST = 'game = "alquerque"\n[workers]\nlocal = 0\n'


def failed_log_ins(url: str, tries: int) -> list[int]:
    """The answers to ``tries`` wrong log-ins at one name, each claiming a new address."""
    client = httpx.Client(base_url=url, timeout=60)
    token = csrf(client, "/login")
    answers = []
    for i in range(tries):
        done = client.post(
            "/login",
            data={"name": "boss", "password": "not the password", "csrf": token},
            headers={"X-Forwarded-For": f"198.51.100.{i + 1}"},
        )
        answers.append(done.status_code)
    return answers


def test_a_local_client_cannot_change_its_address_with_a_header(tmp_path: Path) -> None:
    make_contest(tmp_path, CONTEST)
    server = Server(tmp_path, free_port())
    try:
        server.start()
        answers = failed_log_ins(server.url, 40)
        assert answers[:3] == [401, 401, 401] and 429 in answers, answers
    finally:
        server.close()


def test_a_named_proxy_is_believed(tmp_path: Path) -> None:
    make_contest(tmp_path, CONTEST)
    server = Server(tmp_path, free_port(), "--forwarded-allow-ips", "127.0.0.1")
    try:
        server.start()
        # through a proxy, each address is its own: none of them failed 3 times
        assert set(failed_log_ins(server.url, 10)) == {401}
    finally:
        server.close()
