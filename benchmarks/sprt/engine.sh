#!/bin/sh
# The built-in engine of an earlier revision as a program, for an SPRT between two
# revisions played as a contest plays them (README: "A change meant to make the engine
# stronger").
#
# usage: engine.sh COMMIT GAME [agent options]
#   COMMIT  the full commit, built once into build/revisions/COMMIT by
#           benchmarks/revisions.py (python -c "import sys; sys.path.insert(0,
#           'benchmarks'); import revisions; print(revisions.built('REV'))")
# A fresh seed every game. Exits 2, saying so, if the commit is not built: the engine
# would otherwise be the working tree's, and the test would compare it with itself.
root=$(cd "$(dirname "$0")/../.." && pwd)
site="$root/build/revisions/$1"
if [ ! -d "$site/arbiter" ]; then
    echo "engine.sh: revision '$1' is not built in $root/build/revisions" >&2
    exit 2
fi
game=$2
shift 2
PYTHONPATH="$site" exec "${ARBITER_PYTHON:-$root/.venv/bin/python}" -m arbiter.cli agent \
    "$game" --seed "$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')" "$@"
