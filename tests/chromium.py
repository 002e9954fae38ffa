"""Debian's Chromium driven by Playwright, for the browser tests of both servers.

CI installs Chromium and sets ``ARBITER_BROWSER_TESTS=required``, so there the
browser tests run or fail, never skip; elsewhere they skip when no Chromium is
installed (:data:`skip_without_chromium`, a module's ``pytestmark``)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("ARBITER_BROWSER_TESTS") == "required"
SHOTS = Path(os.environ.get("ARBITER_SCREENSHOTS", "build/screenshots"))

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

skip_without_chromium = pytest.mark.skipif(
    (CHROMIUM is None or sync_playwright is None) and not REQUIRED,
    reason="no Chromium or Playwright here (apt-get install chromium)",
)


@contextlib.contextmanager
def launch() -> Iterator[Any]:
    """A headless Chromium, closed at the end."""
    assert CHROMIUM is not None, "no Chromium: apt-get install chromium"
    assert sync_playwright is not None, "no Playwright: pip install playwright"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()
