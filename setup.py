"""Builds the optional compiled core (``arbiter._core``) with ``pip install``.

The extension is optional: without a C compiler, or if it fails to build, the
install still succeeds and arbiter runs on its pure-Python rules and search.
"""

import hashlib
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


setup(
    ext_modules=[
        Extension(
            "arbiter._core",
            sources=SOURCES,
            depends=sorted(str(p) for p in Path("src/arbiter/csrc").glob("*.h")),
            extra_compile_args=["-O3", "-std=c11"],
            define_macros=[("ARBITER_SOURCES", f'"{sources_digest()}"')],
            optional=True,
        )
    ]
)
