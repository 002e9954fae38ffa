"""Helpers for sets of cells held as Python ints (bit ``i`` set = cell ``i`` occupied).

Python ints are immutable and as wide as needed, so the same helpers serve the
32-square checkers board and the 256-square Halma board.

>>> list(bits(0b1011))
[0, 1, 3]
>>> popcount(0b1011)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence


def bits(bb: int) -> Iterator[int]:
    """Yields the indices of the set bits of ``bb``, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def popcount(bb: int) -> int:
    """Returns the number of set bits."""
    return bb.bit_count()


def total_and_max(bb: int, values: Sequence[int]) -> tuple[int, int]:
    """Returns the sum and the largest of ``values[c]`` over the set cells ``c`` of ``bb``
    (0 and 0 for none): a side's whole distance to go, and its rearmost piece's.

    >>> total_and_max(0b101, [4, 9, 6])
    (10, 6)
    """
    total = most = 0
    for c in bits(bb):
        v = values[c]
        total += v
        most = max(most, v)
    return total, most


def mask(cells: Iterable[int]) -> int:
    """Returns the set of the given cell indices.

    >>> mask([0, 3])
    9
    """
    m = 0
    for c in cells:
        m |= 1 << c
    return m
