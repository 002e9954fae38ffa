"""Builds the optional compiled core (``arbiter._core``) with ``pip install``.

The extension is optional: without a C compiler, or if it fails to build, the
install still succeeds and arbiter runs on its pure-Python rules and search.
"""

from pathlib import Path

from setuptools import Extension, setup

SOURCES = sorted(str(p) for p in Path("src/arbiter/csrc").glob("*.c"))

setup(
    ext_modules=[
        Extension(
            "arbiter._core",
            sources=SOURCES,
            depends=sorted(str(p) for p in Path("src/arbiter/csrc").glob("*.h")),
            extra_compile_args=["-O3", "-std=c11"],
            optional=True,
        )
    ]
)
