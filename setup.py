"""Builds the optional compiled core (``arbiter._core``) with ``pip install``.

The extension is optional: without a C compiler, or if it fails to build, the
install still succeeds and arbiter runs on its pure-Python rules and search.

On an x86-64 machine whose processor counts bits in one instruction (``popcnt``,
every x86-64 processor since 2008) the core is built to use it: Votey's move
generation counts the pieces on a line at every move, and a counted loop instead
costs about a quarter of its search. A core so built checks the processor when it is
imported and refuses to load on one without the instruction (arbiter then runs on
the pure path and says why), so it never crashes. ``ARBITER_PORTABLE=1`` builds
without it, for a core to be copied to other machines.
"""

import hashlib
import os
import platform
from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("src/arbiter/csrc")
SOURCES = sorted(str(p) for p in CSRC.glob("*.c"))


def sources_digest() -> str:
    """The digest of the core's sources, as ``arbiter.core.sources_digest`` computes it:
    built into the extension, so a build older than its sources is never used."""
    h = hashlib.sha256()
    for p in sorted(p for p in CSRC.iterdir() if p.suffix in (".c", ".h")):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cpu_flags() -> list[str]:
    """The compiler flags for this machine's processor's optional instructions."""
    if os.environ.get("ARBITER_PORTABLE", "") not in ("", "0"):
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []  # elsewhere the compiler's default already counts bits in hardware
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    flags = {
        word for line in cpuinfo.splitlines() if line.startswith("flags") for word in line.split()
    }
    return ["-mpopcnt"] if "popcnt" in flags else []


setup(
    ext_modules=[
        Extension(
            "arbiter._core",
            sources=SOURCES,
            depends=sorted(str(p) for p in Path("src/arbiter/csrc").glob("*.h")),
            extra_compile_args=["-O3", "-std=c11", *cpu_flags()],
            define_macros=[("ARBITER_SOURCES", f'"{sources_digest()}"')],
            optional=True,
        )
    ]
)
