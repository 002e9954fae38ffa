"""Two programs of one Votey game that try to meet, and a service of the machine.

Started as ``colluder.py PORT TAG`` (the referee adds the seat; TAG names the
channels, so runs at once never meet; ``colluder.py clean TAG`` removes what a run
with the walls down left on the machine). Black (1)
opens every channel the machine offers before its first move: an abstract and a
path unix socket, TCP and UDP ports on the loopback, files in ``/tmp`` and
``/dev/shm``, a SysV message queue and shared memory, a POSIX message queue. White
(2), told black's first move (so black's channels are open by then), looks for
each and writes on standard error what it reached, one ``reached NAME yes|no`` line
each, then exits. Both try the test's listener on the machine's loopback at PORT.
"""

import ctypes
import os
import socket
import sys

TAG = sys.argv[2]
KEY = int.from_bytes(TAG.encode()[-4:].ljust(4, b"x"), "big") & 0x7FFFFFFF  # SysV key
ABSTRACT = f"\0arbiter-colluder-{TAG}".encode()
PATH = f"/tmp/arbiter-colluder-{TAG}.sock"
SHM_PATH = f"/dev/shm/arbiter-colluder-{TAG}.sock"
FILES = (f"/tmp/arbiter-colluder-{TAG}.txt", f"/dev/shm/arbiter-colluder-{TAG}")
QUEUE = f"/arbiter-colluder-{TAG}".encode()
# loopback ports, the same in both programs, below the range the kernel hands out
# (32768 up): a port another test's connection took would fail the open run
TCP = 20000 + KEY % 12000
UDP = TCP + 1
libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.restype = ctypes.c_int


def say(name, reached):
    print(f"reached {name} {'yes' if reached else 'no'}", file=sys.stderr, flush=True)


def attempt(action):
    try:
        return action() is not False
    except OSError:
        return False


def open_everything():
    keep = []
    for family, address in (
        (socket.AF_UNIX, ABSTRACT),
        (socket.AF_UNIX, PATH),
        (socket.AF_UNIX, SHM_PATH),
    ):
        s = socket.socket(family)
        s.bind(address)
        s.listen()
        keep.append(s)
    os.chmod(PATH, 0o777)
    os.chmod(SHM_PATH, 0o777)
    keep.append(socket.create_server(("127.0.0.1", TCP)))
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind(("127.0.0.1", UDP))
    keep.append(u)
    for name in FILES:
        with open(name, "w") as f:
            f.write("hello")
        os.chmod(name, 0o666)
    assert libc.msgget(KEY, 0o1666) >= 0  # IPC_CREAT | 0666
    assert libc.shmget(KEY, 4096, 0o1666) >= 0
    assert libc.mq_open(QUEUE, os.O_CREAT | os.O_RDWR, 0o666, None) >= 0
    return keep


def look_for_everything():
    def connect(family, address):
        with socket.socket(family) as s:
            s.settimeout(2)
            s.connect(address)

    def bind_udp():  # a port black holds cannot be bound again in the same network
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.bind(("127.0.0.1", UDP))
            except OSError:
                return True
            return False

    say("abstract-socket", attempt(lambda: connect(socket.AF_UNIX, ABSTRACT)))
    say("path-socket", attempt(lambda: connect(socket.AF_UNIX, PATH)))
    say("shm-socket", attempt(lambda: connect(socket.AF_UNIX, SHM_PATH)))
    say("tcp", attempt(lambda: connect(socket.AF_INET, ("127.0.0.1", TCP))))
    say("udp", bind_udp())
    say("tmp-file", os.path.exists(FILES[0]))
    say("shm-file", os.path.exists(FILES[1]))
    say("sysv-queue", libc.msgget(KEY, 0) >= 0)
    say("sysv-memory", libc.shmget(KEY, 0, 0) >= 0)
    say("posix-queue", libc.mq_open(QUEUE, os.O_RDWR, 0, None) >= 0)


def clean():
    for name in (PATH, SHM_PATH, *FILES):
        if os.path.exists(name):
            os.unlink(name)
    libc.msgctl(libc.msgget(KEY, 0), 0, None)  # IPC_RMID
    libc.shmctl(libc.shmget(KEY, 0, 0), 0, None)
    libc.mq_unlink(QUEUE)


def main():
    if sys.argv[1] == "clean":
        clean()
        return
    port, seat = int(sys.argv[1]), sys.argv[3]
    service = attempt(lambda: socket.create_connection(("127.0.0.1", port), timeout=2).close())
    say(f"service-{seat}", service)
    if seat == "1":
        keep = open_everything()
        print("1232", flush=True)  # a legal first move
        sys.stdin.readline()
        del keep
    else:
        sys.stdin.readline()
        look_for_everything()


main()
