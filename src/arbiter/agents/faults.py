"""The faults a built-in engine commits on purpose (:mod:`arbiter.agents.faulty`),
named apart from the engine that commits them: the command line offers them as
choices at every start of ``arbiter agent``, which then need not load the engine's
means of misbehaving (threads, processes, signals) unless asked to."""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """What a faulty engine does at its fault move."""

    CRASH = "crash"  # exits with status 3
    SEGV = "segv"  # killed by SIGSEGV
    GARBAGE = "garbage"  # a line that is no move, with a terminal escape sequence
    EMPTY = "empty"  # an empty line
    LONG_LINE = "long-line"  # a 10 MB line
    ILLEGAL = "illegal"  # a well-formed move that is not legal
    TWO_MOVES = "two-moves"  # its move twice, at once
    SLEEP = "sleep"  # never answers, using no CPU
    BURN = "burn"  # burns CPU in its main thread
    BURN_THREAD = "burn-thread"  # burns CPU in a second thread
    BURN_CHILD = "burn-child"  # burns CPU in a child process
    FORK_BOMB = "fork-bomb"  # forks without end
    DETACH = "detach"  # leaves a CPU burner in a session of its own, then plays on
    CLOSE_STDOUT = "close-stdout"  # closes its output
    STDERR_FLOOD = "stderr-flood"  # writes 100 MB to standard error, then plays on
    PONDER = "ponder"  # replies, then burns CPU on its opponent's time
    LONG_LINE_UNENDED = "long-line-unended"  # 10 MB on its output with no line break
    DEBUG_LINES = "debug-lines"  # 1 MB of debug lines on its output before its move
    BINARY = "binary"  # a line that is not UTF-8
    DETACH_EXIT = "detach-exit"  # leaves a CPU burner in a session of its own and exits
    STATS_AFTER = "stats-after"  # plays its game, then writes 1 MB nobody asked for
    KILL_PARENT = "kill-parent"  # sends SIGKILL to the process that started it, plays on
