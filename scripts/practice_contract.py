# ruff: noqa: E501  (the bugs are lines of source, quoted whole)
"""Practice mutants over the contract's functions a fresh probe may draw: run before a
probe to find what its tests miss. Kept out of ``mutate_*.py`` on purpose, so
``draw_sites.py`` does not take these functions out of the draw; a probe's bugs are
new ones, never these.

    python scripts/practice_contract.py [NAME ...]
"""

from __future__ import annotations

import sys

from mutation import Mutation, main

L = "src/arbiter/contract/layout.py"
P = "src/arbiter/contract/programs.py"
S = "src/arbiter/contract/spec.py"
PR = "src/arbiter/contract/probes.py"
H = "src/arbiter/host/"
T = "tests/host/"
WEB = ("tests/web/test_api.py", "tests/test_toy_game.py", "tests/test_drop_game.py")

MUTATIONS = [
    Mutation(
        "two-sides-swap",
        "",
        L,
        "return {str(c): str(p) for p in (0, 1) for c in bits(s.pieces[p])}",
        "return {str(c): str(1 - p) for p in (0, 1) for c in bits(s.pieces[p])}",
        WEB,
    ),
    Mutation(
        "whole-prefix",
        "",
        L,
        "            if len(p) == n:\n                move = m",
        "            if len(p) >= n:\n                move = m",
        WEB,
    ),
    Mutation(
        "whole-move-path",
        "",
        L,
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)',
        '        """The cells of the legal move ``m``: its one path."""\n        return self.path(m)[:2]',
        WEB,
    ),
    Mutation(
        "hop-move-path-hops",
        "",
        L,
        "            return (m.origin, *m.hops)",
        "            return (m.origin, m.target)",
        WEB,
    ),
    Mutation(
        "hop-path-step",
        "",
        L,
        "        if m.target in self.neighbours[m.origin]:\n            return (m.origin, m.target)",
        "        if m.target in self.neighbours[m.target]:\n            return (m.origin, m.target)",
        WEB,
    ),
    Mutation(
        "hop-path-fallback",
        "",
        L,
        "        return chains.get(m.target, (m.origin, m.target))",
        "        return chains.get(m.target, (m.origin,))",
        WEB,
    ),
    Mutation(
        "hop-chained-any",
        "",
        L,
        "return all(b in self.hops(s, clicks[0], a) for a, b in itertools.pairwise(clicks))",
        "return any(b in self.hops(s, clicks[0], a) for a, b in itertools.pairwise(clicks))",
        WEB,
    ),
    Mutation(
        "hop-leads-seen", "", L, "        seen = {*clicks, land}", "        seen = {land}", WEB
    ),
    Mutation(
        "hop-leads-ends",
        "",
        L,
        "            if at in ends:\n                return True",
        "            if at in ends and at != land:\n                return True",
        WEB,
    ),
    Mutation(
        "drops-move-path", "", L, "        return (self.cell(s, m),)", "        return (m,)", WEB
    ),
    Mutation(
        "prepared-empty",
        "",
        PR,
        "        for start in [find_position(spec, want, seed, plies)]\n        if start",
        "        for start in [find_position(spec, want, seed, plies)]",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "memory-mb",
        "",
        P,
        "None if self.memory_limit_mb is None else int(self.memory_limit_mb * 2**20)",
        "None if self.memory_limit_mb is None else int(self.memory_limit_mb * 10**6)",
        ("tests/referee/test_program_world.py", "tests/referee/test_faults.py"),
    ),
    Mutation(
        "disk-mb",
        "",
        P,
        "None if self.disk_limit_mb is None else int(self.disk_limit_mb * 2**20)",
        "None if self.disk_limit_mb is None else int(self.disk_limit_mb * 10**6)",
        (
            "tests/referee/test_program_world.py",
            "tests/referee/test_faults.py",
            "tests/referee/test_escapes.py",
        ),
    ),
    Mutation(
        "from-command-name",
        "",
        P,
        '        return cls(argv, cwd, name or " ".join(argv), shown)',
        "        return cls(argv, cwd, name or argv[0], shown)",
        ("tests/test_cli.py", "tests/referee/test_program_world.py"),
    ),
    Mutation(
        "label-argv0",
        "",
        P,
        '        return self.name or " ".join(self.argv)',
        "        return self.name or self.argv[0]",
        ("tests/test_cli.py", "tests/referee/test_program_world.py"),
    ),
    Mutation(
        "split-empty",
        "",
        P,
        '    if not argv:\n        raise ConfigError(f"invalid command {command!r}: it is empty")',
        '    if not argv and isinstance(command, str):\n        raise ConfigError(f"invalid command {command!r}: it is empty")',
        ("tests/test_cli.py", "tests/test_mistakes.py", "tests/test_contract.py"),
    ),
    Mutation(
        "reply-filter-ignored",
        "",
        S,
        "        return text if self.reply_filter is None else self.reply_filter(text)",
        "        return text",
        ("tests/test_check_agent.py", "tests/test_cli.py"),
    ),
    Mutation(
        "post-init-dup",
        "",
        S,
        "        if len(set(names)) != len(names):",
        "        if len(set(names)) > len(names):",
        ("tests/test_contract.py", "tests/test_drop_game.py"),
    ),
    Mutation(
        "of-folder-kits",
        "",
        S,
        '            kits=folder / "kits" if (folder / "kits").is_dir() else None,',
        '            kits=folder / "kits" if (folder / "kits").exists() and False else None,',
        ("tests/test_kit_command.py",),
    ),
    Mutation(
        "of-folder-guide",
        "",
        S,
        '            guide=folder / "contestants.md" if (folder / "contestants.md").is_file() else None,',
        "            guide=None,",
        ("tests/host",),
    ),
    Mutation(
        "of-folder-openings",
        "",
        S,
        '            openings=folder / "openings.txt" if (folder / "openings.txt").is_file() else None,',
        "            openings=None,",
        ("tests/tournament",),
    ),
    Mutation(
        "of-folder-plies",
        "",
        S,
        "            opening_plies=opening_plies,\n            kits",
        "            kits",
        ("tests/tournament", "tests/test_contract.py"),
    ),
    Mutation(
        "of-folder-missing",
        "",
        S,
        "        if found is None or not found.submodule_search_locations:",
        "        if found is None:",
        ("tests/test_contract.py", "tests/test_cli.py"),
    ),
    Mutation(
        "probe-checks-none",
        "",
        S,
        "        return [] if self.probes is None else self.probes()(self)",
        "        return []",
        ("tests/test_check_agent.py",),
    ),
    Mutation(
        "make-check",
        "",
        S,
        "            values[name] = known[name].check(value)",
        "            values[name] = value",
        ("tests/test_contract.py", "tests/test_cli.py"),
    ),
    Mutation(
        "make-known-names",
        "",
        S,
        '                names = ", ".join(known) or "none"',
        '                names = "none"',
        ("tests/test_contract.py", "tests/test_cli.py", "tests/test_mistakes.py"),
    ),
    Mutation(
        "seat-by-number",
        "",
        S,
        "            if key in (name, str(i + 1)):",
        "            if key in (name, str(i)):",
        ("tests/test_cli.py", "tests/test_human.py"),
    ),
    Mutation(
        "seat-by-case",
        "",
        S,
        "        key = text.strip().lower()",
        "        key = text.strip()",
        ("tests/test_cli.py", "tests/test_human.py"),
    ),
    Mutation(
        "loader-name",
        "",
        S,
        "        return found if self.name is None else getattr(found, self.name)",
        "        return found",
        ("tests/test_contract.py", "tests/web/test_api.py"),
    ),
]
MUTATIONS = [m for m in MUTATIONS if m.old]

if __name__ == "__main__":
    sys.exit(main(MUTATIONS, sys.argv[1:]))
