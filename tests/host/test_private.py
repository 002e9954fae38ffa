"""The contest's data is the server's alone: with games and the gate at ``--isolation
user`` (a uid of its own for each program, no namespaces: the machine's files are in
plain sight), a submitted program reads neither the database, the key that signs
sessions nor another contestant's sources, and cannot list the contest's folder."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from arbiter.referee.isolation import available
from arbiter.referee.sandbox import detect
from tests.host.running import Server, free_port, make_contest, person, settled, upload
from tests.host.test_contest import KITS

# in C: at ``user`` level nothing is bound for a program, so it can use only what
# every account may run (this machine's Python may sit in a private home)
ATTACK = r"""
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>

static void say(const char *what, int reached) {
    fprintf(stderr, "%s %s; ", reached ? "REACHED" : "blocked", what);
}

int main(void) {
    say("database", open("{database}", O_RDONLY) >= 0);
    say("key", open("{key}", O_RDONLY) >= 0);
    say("sources", open("{source}", O_RDONLY) >= 0);
    say("listing", opendir("{folder}") != NULL);
    struct sockaddr_in to = {0};
    to.sin_family = AF_INET;
    to.sin_port = htons({port});
    to.sin_addr.s_addr = htonl(0x7f000001);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    say("network", s >= 0 && connect(s, (struct sockaddr *)&to, sizeof to) == 0);
    say("signal", kill({pid}, 0) == 0);
    fprintf(stderr, "\n");
    return 1;
}
"""

pytestmark = pytest.mark.skipif(
    not available(detect()).own_uid,
    reason="programs get no uid of their own here (run as root with setpriv)",
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_program_at_user_level_reads_none_of_the_contests_data(tmp_path: Path) -> None:
    make_contest(tmp_path, 'game = "alquerque"\n[workers]\nlocal = 0\n')
    server = Server(tmp_path, free_port(), "--isolation", "user")
    try:
        server.start()
        alice = person(server.url, "alice")
        first = upload(alice, "main.c", (KITS / "c" / "main.c").read_bytes())
        assert settled(alice, first)["state"] == "accepted"
        data = tmp_path / "cup-data"
        # what a stranger's account would see: nothing below the folder, not the database
        assert mode(data) == 0o700 and mode(tmp_path / "cup.db") == 0o600
        archives = list((data / "programs").glob("*.tar.gz"))
        assert archives and all(mode(a) == 0o600 for a in archives)
        source = ATTACK.replace("{", "{{").replace("}", "}}")
        for name in ("database", "key", "source", "folder", "port", "pid"):
            source = source.replace("{{" + name + "}}", "{" + name + "}")
        source = source.format(
            database=str(tmp_path / "cup.db"),
            key=str(data / "secret.key"),
            source=str(data / "versions" / str(first) / "source" / "main.c"),
            folder=str(data),
            port=server.port,
            pid=server.process.pid if server.process else 1,
        )
        mallory = person(server.url, "mallory")
        report = settled(mallory, upload(mallory, "main.c", source.encode()))
        said = "\n".join(line for c in report["checks"] for line in c["transcript"])
        for what in ("database", "key", "sources", "listing", "network", "signal"):
            assert f"blocked {what}" in said, said
        assert "REACHED" not in said
    finally:
        server.close()
