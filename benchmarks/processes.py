"""Page throughput of one server process against two, behind nginx, on a contest at
the size of an open one (PostgreSQL).

``DIR`` is a contest folder filled on PostgreSQL by ``contest_scale.py fill DIR
--database URL --games 100000``. For each count of ``--processes`` it starts that
many ``arbiter host`` processes and nginx in front of them (the upstream and proxy
lines of ``deploy/nginx/arbiter.conf``, over plain HTTP: TLS would measure nginx),
then ``--clients`` clients ask for pages back to back for ``--seconds`` (the
standings, home, a contestant's page, a game's positions, a round's page) and it
prints the pages a second, the latency quantiles and the server processes' CPU per
page. On a machine of two cores, the load itself takes a share.

    python benchmarks/contest_scale.py fill /tmp/big --entrants 200 --games 100000 \\
        --database postgresql+psycopg://postgres@127.0.0.1:54329/big
    python benchmarks/processes.py /tmp/big --processes 1 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.host.running import free_port  # noqa: E402 - the tests' own helper


def wait_answering(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/standings", timeout=5).status_code == 200:
                return
        if process.poll() is not None:
            sys.exit(f"{url}: the process ended ({process.returncode})")
        time.sleep(0.3)
    sys.exit(f"{url} did not answer in {seconds:.0f} s")


def nginx_conf(folder: Path, port: int, upstreams: list[int]) -> Path:
    """nginx in front of ``upstreams``, with the deployment file's proxy settings."""
    site = (ROOT / "deploy" / "nginx" / "arbiter.conf").read_text()
    proxy = "\n".join(  # the server block's own settings, not its locations'
        line
        for line in site.splitlines()
        if line.startswith(("    proxy_", "    client_max_body_size"))
    )
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstreams)
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temp).mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 1024; }\nhttp {\n  access_log off;\n"
        + "".join(f"  {t}_temp_path {folder}/{t};\n" for t in ("proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  client_body_temp_path {folder}/body;\n"
        + f"  upstream arbiter {{\n{servers}    keepalive 32;\n  }}\n"
        + f"  server {{\n    listen 127.0.0.1:{port};\n{proxy}\n"
        + "    location / { proxy_pass http://arbiter; }\n  }\n}\n"
    )
    return conf


@contextlib.contextmanager
def deployed(folder: Path, count: int) -> Iterator[tuple[str, list[psutil.Process]]]:
    """``count`` server processes of the contest in ``folder`` behind nginx."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    ports = [free_port() for _ in range(count)]
    started: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-nginx-") as work:
        try:
            for port in ports:
                command = [sys.executable, "-m", "arbiter.cli", "host", str(folder / "cup.toml")]
                process = subprocess.Popen(
                    [*command, "--port", str(port), "--workers", "0"],
                    stdout=subprocess.DEVNULL,
                    start_new_session=True,
                )
                started.append(process)
                wait_answering(f"http://127.0.0.1:{port}", process)
            front = free_port()
            conf = nginx_conf(Path(work), front, ports)
            proxy = subprocess.Popen([nginx, "-p", work, "-c", str(conf), "-g", "daemon off;"])
            started.append(proxy)
            wait_answering(f"http://127.0.0.1:{front}", proxy)
            yield f"http://127.0.0.1:{front}", [psutil.Process(p.pid) for p in started[:-1]]
        finally:
            for process in started:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGTERM)
            for process in started:
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()


def cpu_of(processes: list[psutil.Process]) -> float:
    total = 0.0
    for p in processes:
        with contextlib.suppress(psutil.Error):
            times = p.cpu_times()
            total += times.user + times.system
    return total


async def load(url: str, paths: list[str], clients: int, seconds: float) -> list[float]:
    """``clients`` clients asking for ``paths`` in turn for ``seconds``; the latencies."""
    latencies: list[float] = []
    end = time.monotonic() + seconds

    async def one(start: int) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            i = start
            while time.monotonic() < end:
                t0 = time.perf_counter()
                answer = await client.get(paths[i % len(paths)])
                latencies.append(time.perf_counter() - t0)
                if answer.status_code >= 400:
                    raise SystemExit(f"{paths[i % len(paths)]}: {answer.status_code}")
                i += 1

    await asyncio.gather(*(one(i) for i in range(clients)))
    return latencies


def pages(url: str) -> list[str]:
    standings = httpx.get(f"{url}/api/standings", timeout=120).json()
    names = [r["name"] for r in standings["rows"]]
    name = names[len(names) // 2]
    page = httpx.get(f"{url}/contestants/{name}", timeout=120).text
    game = re.findall(r'<a href="/games/(\d+)\?', page)[0]
    number = standings["rounds"][-1]["number"]
    return [
        "/api/standings",
        "/",
        f"/contestants/{name}",
        f"/api/contest/games/{game}",
        f"/rounds/{number}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="a contest folder filled on PostgreSQL")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    folder = Path(args.dir)
    text = (folder / "cup.toml").read_text()
    if "postgresql" not in text:
        sys.exit(f"{folder}/cup.toml is not on PostgreSQL: fill it with --database URL")
    print(f"{'processes':>9} {'pages/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'CPU ms/page':>12}")
    for count in args.processes:
        with deployed(folder, count) as (url, servers):
            paths = pages(url)
            asyncio.run(load(url, paths, args.clients, 3.0))  # warm
            c0 = cpu_of(servers)
            latencies = asyncio.run(load(url, paths, args.clients, args.seconds))
            used = cpu_of(servers) - c0
        cuts = statistics.quantiles(latencies, n=100)
        print(
            f"{count:>9} {len(latencies) / args.seconds:8.1f} {cuts[49] * 1000:7.1f} "
            f"{cuts[98] * 1000:7.1f} {used / len(latencies) * 1000:12.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
