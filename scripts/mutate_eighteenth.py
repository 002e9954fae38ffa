# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""An eighteenth fresh probe, its places drawn rather than chosen:
``python scripts/draw_sites.py --seed 18 --each 5 --spares 3`` drew five functions from
each of the contract, the learning environments, the contest server and the C core,
none an earlier probe used, and each got the one plausible bug below. Written before
any test for them; each is put in, tested and taken out. (Three spares, not four: the
contract has eight functions no probe has used, and the draw takes them all.)

The draws, in order:

- contract: ``HopChains.path``, ``WholePaths.move_path``, ``GameSpec.of_folder``,
  ``Drops.move_path``, ``GameSpec.make``;
- environments: ``PythonStepper._narrow``, ``Batch._answer``, ``PythonStepper.__init__``
  (passed over: it sets fields that :meth:`begin` sets again before any is read, so
  no bug there changes what a caller sees), ``encoding_of``, ``SingleAgentEnv.render``,
  and the first spare, ``SingleAgentEnv._answer`` (passed over too: a bug in its loop
  or its sum changes nothing in games whose sides alternate and reward once, at the
  end), then the second, ``Batch.__init__``;
- contest server: ``Language.exposed``, ``_limits``, ``latest_strengths``,
  ``tallies.read``, ``db._safe``;
- C core: ``publish`` (the batch), ``py_noisy``, ``py_moves_from`` (Votey), ``hold``
  (the batch), ``reach`` (Halma).

The draw came after the practice sets of ``practice_mixed.py`` (seed 1801) and
``practice_host.py`` (seeds 1804 to 1808), which shared eight of these functions
(``HopChains.path``, ``WholePaths.move_path``, ``GameSpec.of_folder``,
``Drops.move_path``, ``GameSpec.make``, ``encoding_of``, ``Batch._answer``, ``hold``);
the bugs here are none of the practice sets'. A bug in the C core is judged by the
rules tests of its game too: the rules engines call the kernel, and those tests run
on both cores.

    python scripts/mutate_eighteenth.py --suite              # every mutation
    python scripts/mutate_eighteenth.py host-safe-first-at   # only these

See ``mutation.py`` for how a mutation is run.
"""

from __future__ import annotations

import sys

from mutation import (
    BOARD_TESTS,
    CONTRACT_TESTS,
    CORE_TESTS,
    CSRC,
    ENVS_TESTS,
    HOST,
    SRC,
    TOY_TESTS,
    Mutation,
    main,
)

STANDINGS = (
    "tests/host/test_standings.py",
    "tests/host/test_tallies.py",
    "tests/host/test_rounds.py",
    "tests/host/test_pairing.py",
    "tests/host/test_final.py",
)

MUTATIONS = (
    Mutation(
        "contract-hop-path-one-level",
        "a chain of clicks is looked for one hop deep",
        SRC + "contract/layout.py",
        "        while frontier and m.target not in chains:",
        "        if frontier and m.target not in chains:",
        BOARD_TESTS,
    ),
    Mutation(
        "contract-whole-path-first-leg",
        "a move's path is shown to its first landing",
        SRC + "contract/layout.py",
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)',
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)[:2]',
        BOARD_TESTS,
    ),
    Mutation(
        "contract-kits-always",
        "every game folder is taken to hold starter kits",
        SRC + "contract/spec.py",
        '            kits=folder / "kits" if (folder / "kits").is_dir() else None,',
        '            kits=folder / "kits",',
        (*CONTRACT_TESTS, *TOY_TESTS),
    ),
    Mutation(
        "contract-drop-path-leg",
        "a drop's path is its cell twice, as its leg",
        SRC + "contract/layout.py",
        "        return (self.cell(s, m),)",
        "        return (self.cell(s, m), self.cell(s, m))",
        BOARD_TESTS,
    ),
    Mutation(
        "contract-unknown-option-ignored",
        "an option the game does not have is passed over",
        SRC + "contract/spec.py",
        '            if name not in known:\n                names = ", ".join(known) or "none"\n                raise ConfigError(f"{self.name} has no rule option {name!r} (it has: {names})")',
        "            if name not in known:\n                continue",
        (*CONTRACT_TESTS, "tests/test_bad_input.py", "tests/test_mistakes.py"),
    ),
    Mutation(
        "envs-next-as-set",
        "the actions that may follow are kept as a set",
        SRC + "envs/stepping.py",
        "        self._next = dict.fromkeys(acts[k] for acts, _ in moves if len(acts) > k)",
        "        self._next = dict.fromkeys(sorted({acts[k] for acts, _ in moves if len(acts) > k}))",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-batch-engine-unlimited",
        "the batch's engine moves without the limit it was given",
        SRC + "envs/batch.py",
        "                m = self._engine.choose(s, self._limit)",
        "                m = self._engine.choose(s, Limit())",
        ENVS_TESTS,
    ),
    Mutation(
        "envs-neither-unsaid",
        "a game with neither a board nor an encoding is not named as such",
        SRC + "envs/encoding.py",
        '    if spec.board is None:\n        raise ConfigError(\n            f"{spec.name} has neither a board nor an encoding of its own to learn it by"\n        )\n',
        "",
        (*ENVS_TESTS, "tests/test_contract.py"),
    ),
    Mutation(
        "envs-single-render-none",
        "the single-agent environment draws its board and gives nothing back",
        SRC + "envs/single.py",
        '        """The board as text (``ansi``), or printed (``human``)."""\n        return self.game.render()',
        '        """The board as text (``ansi``), or printed (``human``)."""\n        self.game.render()\n        return None',
        ENVS_TESTS,
    ),
    Mutation(
        "envs-batch-engine-seedless",
        "the batch's engine is reset with seed 0 whatever the batch's seed",
        SRC + "envs/batch.py",
        "            self._engine.reset(self.rules, 1 - seat, seed)",
        "            self._engine.reset(self.rules, 1 - seat, 0)",
        ENVS_TESTS,
    ),
    Mutation(
        "host-rust-folder-by-run",
        "the Rust toolchain's folder is exposed when the run command names it",
        HOST + "languages.py",
        '        extra = (_rustc()[1],) if "{rustc}" in (self.compile or "") and _rustc()[1] else ()',
        '        extra = (_rustc()[1],) if "{rustc}" in self.run and _rustc()[1] else ()',
        ("tests/host/test_kits.py", "tests/host/test_build.py", "tests/host/test_programs.py"),
    ),
    Mutation(
        "host-memory-limits-swapped",
        "a program's memory and a build's are read into each other's place",
        HOST + "config.py",
        '        lim.number("compile_memory_mb", 2048, 64, 1 << 16),\n        lim.number("memory_mb", 1024, 16, 1 << 16),',
        '        lim.number("memory_mb", 1024, 16, 1 << 16),\n        lim.number("compile_memory_mb", 2048, 64, 1 << 16),',
        ("tests/host/test_config.py", "tests/host/test_contest.py"),
    ),
    Mutation(
        "host-strengths-before-inclusive",
        "the fit before a round starts from that round's own ratings",
        HOST + "ratings.py",
        "        query = query.where(Round.number < before)",
        "        query = query.where(Round.number <= before)",
        STANDINGS,
    ),
    Mutation(
        "host-tallies-empty-pairs",
        "pairs whose games were all taken out are read with the rest",
        HOST + "tallies.py",
        '        f"SELECT {names} FROM tallies WHERE phase = {mark} AND games > 0", (phase,)',
        '        f"SELECT {names} FROM tallies WHERE phase = {mark}", (phase,)',
        STANDINGS,
    ),
    Mutation(
        "host-safe-first-at",
        "a database address is cut at its first @ to hide the password",
        HOST + "db.py",
        '    head, at, tail = url.rpartition("@")',
        '    head, at, tail = url.partition("@")',
        (
            "tests/host/test_config.py",
            "tests/host/test_keys_and_sessions.py",
            "tests/host/test_storage.py",
        ),
    ),
    Mutation(
        "batch-observed-from-first-seat",
        "the batch observes every game from the first seat's side",
        CSRC + "envs.c",
        "    write_obs(B, i, seat, (int8_t *)B->obs.buf + i * B->obs_size);",
        "    write_obs(B, i, 0, (int8_t *)B->obs.buf + i * B->obs_size);",
        ENVS_TESTS,
    ),
    Mutation(
        "noisy-all-moves",
        "the kernel's noisy moves are all its moves",
        CSRC + "module.c",
        "    return move_codes(args, n, 1);",
        "    return move_codes(args, n, 0);",
        (*CORE_TESTS, "tests/agents/test_agents.py"),
    ),
    Mutation(
        "votey-moves-from-sides-swapped",
        "Votey's move list is made with the two sides swapped",
        CSRC + "votey.c",
        "    return codes_list(codes, moves_from(own, enemy, codes));",
        "    return codes_list(codes, moves_from(enemy, own, codes));",
        (*CORE_TESTS, "tests/games/votey/test_rules.py"),
    ),
    Mutation(
        "batch-buffer-held-uncounted",
        "a buffer of the wrong size is held and never given back",
        CSRC + "envs.c",
        '    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return 0;\n    B->views++;\n    if (view->len != want) {\n        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, want);\n        return 0;\n    }\n    return 1;',
        '    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return 0;\n    if (view->len != want) {\n        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, want);\n        return 0;\n    }\n    B->views++;\n    return 1;',
        (*ENVS_TESTS, "tests/test_core.py"),
    ),
    Mutation(
        "halma-reach-other-camps",
        "Halma's camp rules are applied for the other side",
        CSRC + "halma.c",
        "    return allowed(p, start, ends);",
        "    return allowed(1 - p, start, ends);",
        (*CORE_TESTS, "tests/games/halma/test_rules.py"),
    ),
)


if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
