"""Instances a test watches being made: what a command built (its clock, its engine's
limit, its burners), seen without changing how it is built."""

from __future__ import annotations

from typing import Any

import pytest


def instances(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[Any]:
    """Replaces the class ``owner.name`` (for this test) with a subclass that keeps
    every instance made through it in the list returned."""
    made: list[Any] = []
    base = getattr(owner, name)

    class Recorded(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **options: Any) -> None:
            super().__init__(*args, **options)
            made.append(self)

    monkeypatch.setattr(owner, name, Recorded)
    return made
