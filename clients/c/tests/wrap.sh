#!/usr/bin/env bash
# wrap.sh PROGRAM ARGS...: runs PROGRAM under $PENCIL_TEST_WRAPPER (valgrind, in
# `meson test --setup valgrind`), or as it is.
set -euo pipefail
wrapper=()
if [ -n "${PENCIL_TEST_WRAPPER:-}" ]; then
    read -r -a wrapper <<<"$PENCIL_TEST_WRAPPER"
fi
exec "${wrapper[@]}" "$@"
