#!/usr/bin/env bash
# run-tests.sh BIN_DIR: the Python client's checks, run by `make test-client-python`:
#   - `pip install ./clients/python` into a private venv (the package as users get it);
#   - mypy --strict on the library, its tests, the Python example and the sketch demo;
#   - the tests (unittest) with the installed package, against the pencild and pencilctl
#     in BIN_DIR, on the recordings in $PENCILD_RECORDINGS.
# A prerequisite that is missing fails under CI=true; elsewhere that part is skipped and says so.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-python3}
venv=$repo/.build/pencild-python-venv
# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

if ! command -v "$python" >/dev/null; then
    cannot_check "$python is not installed (apt-get install python3 python3-venv)"
    exit "$((failed > 0))"
fi

echo "test-client-python: pip install ./clients/python into a venv"
rm -rf "$venv"
run_python=()
if "$python" -m venv "$venv" >/dev/null 2>&1 &&
    "$venv/bin/pip" install -q --disable-pip-version-check "$repo/clients/python" >"$repo/.build/pencild-python-pip.log" 2>&1; then
    run_python=("$venv/bin/python")
    pass "pip install ./clients/python" "$("$venv/bin/python" -c 'import pencild; print("pencild", pencild.__version__, "from", pencild.__file__)' | sed "s|$repo/||")"
else
    cannot_check "pip install ./clients/python failed: $(tail -n 3 "$repo/.build/pencild-python-pip.log" 2>/dev/null)"
    run_python=(env "PYTHONPATH=$repo/clients/python/src" "$python")
fi

echo "test-client-python: mypy --strict"
if command -v mypy >/dev/null; then
    if MYPYPATH=$repo/clients/python/src:$repo/clients/python/tests \
        mypy --strict --cache-dir "$repo/.build/mypy-cache" \
        "$repo/clients/python/src/pencild" "$repo/clients/python/tests" "$repo/examples/python"; then
        pass "mypy --strict: the library, its tests and the Python example"
    else
        fail "mypy --strict: the library, its tests and the Python example"
    fi
    # The demo uses PyGObject, which has no type hints: its own code is checked all the same.
    if MYPYPATH=$repo/clients/python/src mypy --strict --ignore-missing-imports --cache-dir "$repo/.build/mypy-cache" \
        "$repo/examples/sketch/sketch.py"; then
        pass "mypy --strict: the sketch demo"
    else
        fail "mypy --strict: the sketch demo"
    fi
else
    cannot_check "mypy is not installed (apt-get install mypy)"
fi

echo "test-client-python: unittest"
if (cd "$repo/clients/python/tests" &&
    PENCILD_BIN_DIR=$bin PENCILD_REPOSITORY=$repo "${run_python[@]}" -m unittest discover -s . -t . -v); then
    pass "unittest"
else
    fail "unittest"
fi

summary
