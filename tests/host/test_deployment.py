"""The contest as deployed: Debian's nginx in front with the README's configuration
(``deploy/nginx/arbiter.conf``, this very file, its EDIT lines filled in) and a
certificate made here, two ``arbiter host`` processes behind it on one PostgreSQL,
and two remote workers playing over HTTPS. The process that leads is killed with
SIGKILL mid-round: the workers go on through the other, no game is lost or stored
twice, the pages and the live standings keep answering (a stream reconnects), and
the log-in delays still hold, whatever address a client claims. Along the way: a
result stored through the leader reaches a live page held by the other process,
the organiser's page lists both processes and which leads, and the other takes the
lead within seconds of the kill. CI installs nginx and requires this test
(``ARBITER_DEPLOY_TESTS=required``)."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import create_engine, text

from tests.host.running import (
    PASSWORD,
    Server,
    add_worker,
    csrf,
    free_port,
    leader,
    make_contest,
    person,
    settled,
    slow_kit,
    upload,
)
from tests.host.test_workers import RemoteWorker

SITE = Path(__file__).parents[2] / "deploy" / "nginx" / "arbiter.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def filled(site: str, edits: dict[str, str]) -> str:
    """The site file with each line ``old`` replaced by ``new`` (each found once: a
    changed deployment file fails here, not silently)."""
    for old, new in edits.items():
        assert site.count(old) == 1, f"{old!r} is not in {SITE} once"
        site = site.replace(old, new)
    return site


def start_nginx(folder: Path, port: int, upstreams: list[int], cert: Path, key: Path) -> Path:
    """Writes nginx's configuration around the site file and checks it; returns it."""
    site = filled(
        SITE.read_text(),
        {
            "    server 127.0.0.1:8001 max_fails=1 fail_timeout=5s;\n": "".join(
                f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstreams
            ),
            "    server 127.0.0.1:8002 max_fails=1 fail_timeout=5s;\n": "",
            "    listen 80;\n    listen [::]:80;\n": f"    listen 127.0.0.1:{free_port()};\n",
            "    listen 443 ssl http2;\n    listen [::]:443 ssl http2;\n": (
                f"    listen 127.0.0.1:{port} ssl http2;\n"
            ),
            "/etc/letsencrypt/live/contest.example.org/fullchain.pem": str(cert),
            "/etc/letsencrypt/live/contest.example.org/privkey.pem": str(key),
        },
    )
    (folder / "site.conf").write_text(site)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir()
    user = "user root;\n" if os.geteuid() == 0 else ""  # its folders are root's own
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log;\nevents {{ worker_connections 256; }}\n"
        f"http {{\n  access_log {folder}/access.log;\n"
        + "".join(f"  {t}_temp_path {folder}/{t};\n" for t in ("proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  client_body_temp_path {folder}/body;\n  include {folder}/site.conf;\n}}\n"
    )
    assert NGINX is not None
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(folder), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    return conf


def live_standings(
    url: str, seen: list[dict[str, object]], opened: list[int], stop: threading.Event
) -> None:
    """Holds the live standings open through the proxy as a page does: when a stream
    ends or breaks, another is opened (after the ``retry`` the server asks for)."""
    while not stop.is_set():
        try:
            with (
                httpx.Client(base_url=url, timeout=30) as client,
                client.stream("GET", "/api/events") as live,
            ):
                if live.status_code != 200:
                    time.sleep(2)
                    continue
                opened.append(1)
                for line in live.iter_lines():
                    if line.startswith("data: "):
                        seen.append(json.loads(line[6:]))
                    if stop.is_set():
                        return
        except httpx.HTTPError:
            pass
        time.sleep(2)


@pytest.mark.early
def test_a_contest_behind_nginx_over_https_survives_a_server_killed_mid_round(
    tmp_path: Path, postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if NGINX is None:
        if os.environ.get("ARBITER_DEPLOY_TESTS") == "required":
            pytest.fail("nginx is not installed, and ARBITER_DEPLOY_TESTS=required")
        pytest.skip("nginx is not installed (Debian: apt install nginx)")
    cert, key = certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the clients and workers trust it
    make_contest(
        tmp_path,
        f'name = "Proxy Cup"\ngame = "alquerque"\nclock = "30"\ndatabase = "{postgres}"\n'
        '[format]\nkind = "round-robin"\n[workers]\nlocal = 0\nlease_seconds = 10\n',
    )
    flags = ("--workers", "0", "--secure-cookies", "--forwarded-allow-ips", "127.0.0.1")
    servers = [Server(tmp_path, free_port(), *flags, log=f"server-{i}.log") for i in range(2)]
    port = free_port()
    url = f"https://127.0.0.1:{port}"
    (tmp_path / "nginx").mkdir()
    conf = start_nginx(tmp_path / "nginx", port, [s.port for s in servers], cert, key)
    proxy = subprocess.Popen(
        [NGINX, "-p", str(tmp_path / "nginx"), "-c", str(conf), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
        text=True,
    )
    workers: list[RemoteWorker] = []
    stop = threading.Event()
    try:
        pids = [s.start() for s in servers]
        deadline = time.monotonic() + 30
        while leader(postgres) is None:
            assert time.monotonic() < deadline, "no process took the lead"
            time.sleep(0.2)
        leading = next(i for i, pid in enumerate(pids) if f"-{pid}-" in str(leader(postgres)))

        clients = {name: person(url, name) for name in ("alice", "bob", "carol")}
        for client in clients.values():
            # behind TLS the session cookie is sent over HTTPS only
            assert all(cookie.secure for cookie in client.cookies.jar)
            version = upload(client, "main.py", slow_kit(), "python")
            assert settled(client, version, timeout=180)["state"] == "accepted"
        workers = [
            RemoteWorker(
                tmp_path, url, add_worker(tmp_path, f"lab-{i}"), f"lab-{i}", tmp_path / f"cache-{i}"
            )
            for i in range(2)
        ]
        # a live page through the proxy, and one held by the process that does not
        # lead: a result stored through the leader reaches it
        seen: list[dict[str, object]] = []
        opened: list[int] = []
        heard: list[dict[str, object]] = []
        other = servers[1 - leading]
        for target, into, count in ((url, seen, opened), (other.url, heard, [])):
            threading.Thread(target=live_standings, args=(target, into, count, stop)).start()
        boss = person(url, "boss", register=False)
        made = boss.post("/organiser/rounds", data={"csrf": csrf(boss, "/organiser")})
        assert made.status_code == 303, made.text[:300]
        deadline = time.monotonic() + 120
        while not any(int(str(e.get("games", 0))) >= 1 for e in heard):
            assert time.monotonic() < deadline, f"no result reached the other process: {heard}"
            time.sleep(0.1)
        # the organiser sees both processes, and which of them leads
        listed = boss.get("/organiser").text.split('id="servers"')[1].split("</table>")[0]
        assert listed.count("leads: standings") == 1 and listed.count("answers requests") == 1
        first = leader(postgres)
        assert first is not None and first in listed

        # the leader is killed mid-round; everything goes on through the other
        engine = create_engine(postgres)
        with engine.connect() as c:  # the round is under way when the leader dies
            stored = c.execute(text("SELECT count(*) FROM games WHERE state = 'done'")).scalar()
        engine.dispose()
        assert stored is not None and stored < 6
        servers[leading].stop(signal.SIGKILL)
        deadline = time.monotonic() + 30
        while leader(postgres) in (None, first):
            assert time.monotonic() < deadline, "the lead was never taken again"
            time.sleep(0.2)
        assert other.process is not None and f"-{other.process.pid}-" in str(leader(postgres))
        deadline = time.monotonic() + 240
        while True:
            rounds = httpx.get(f"{url}/api/standings", timeout=30).json()["rounds"]
            if rounds and rounds[0]["state"] == "done":
                break
            assert time.monotonic() < deadline, f"the round never ended: {rounds}"
            time.sleep(0.5)
        deadline = time.monotonic() + 30
        while not any(int(str(e.get("games", 0))) == 6 for e in seen):
            assert time.monotonic() < deadline, "the live standings never showed the round's end"
            time.sleep(0.2)
        stop.set()
        assert opened  # the live page was served through the proxy
        engine = create_engine(postgres)
        with engine.connect() as c:
            done_games = c.execute(text("SELECT count(*) FROM games WHERE state = 'done'")).scalar()
            counted = c.execute(text("SELECT sum(games) FROM tallies")).scalar()
            attempts = c.execute(text("SELECT max(attempts) FROM games")).scalar()
        engine.dispose()
        assert done_games == counted == 6  # three entrants, each pair both ways: once each
        assert attempts is not None and attempts <= 2  # a game cut off was played again
        # each worker says a game is stored once the server has answered, a moment
        # after the database holds it
        deadline = time.monotonic() + 30
        while sum(w.said().count(": stored") for w in workers) != 6:
            assert time.monotonic() < deadline, [w.said() for w in workers]
            time.sleep(0.2)
        for w in workers:
            assert w.process.poll() is None and "Traceback" not in w.complained()
        for path in ("/", "/contest", "/contestants/alice", "/api/standings"):
            assert httpx.get(f"{url}{path}", timeout=30).status_code == 200

        # log-in delays hold across the processes, whatever address a client claims:
        # three failures are free, then each holds the address back twice as long as
        # the last (1 s, 2 s, 4 s, 8 s); a try while held is refused and not counted.
        # Six failures, so the right password comes inside an 8 s hold, however slowly
        # a busy machine answers.
        statuses = []
        for i in range(60):
            with httpx.Client(base_url=url, timeout=30) as c:
                form = {"name": "alice", "password": "wrong password!", "csrf": csrf(c, "/login")}
                forged = {"X-Forwarded-For": f"10.9.9.{i}"}
                statuses.append(c.post("/login", data=form, headers=forged).status_code)
            if statuses.count(401) == 6:
                break
            if statuses[-1] == 429:
                time.sleep(0.25)
        assert statuses[:3] == [401] * 3 and set(statuses) == {401, 429}
        assert statuses.count(401) == 6
        with httpx.Client(base_url=url, timeout=30) as c:
            form = {"name": "alice", "password": PASSWORD, "csrf": csrf(c, "/login")}
            held = c.post("/login", data=form, headers={"X-Forwarded-For": "10.9.9.9"})
        assert held.status_code == 429 and "wait" in held.text
    finally:
        stop.set()
        for w in workers:
            w.stop()
        proxy.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            proxy.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proxy.kill()
        for s in servers:
            s.close()
