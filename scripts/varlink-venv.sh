#!/usr/bin/env bash
# varlink-venv.sh: makes (once) a private Python environment with the `varlink` package from
# PyPI, the outside client the tests use, and prints its python. Exits non-zero when pip
# cannot install it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=$repo/.build/varlink-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import varlink' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q varlink >&2
fi
echo "$venv/bin/python"
