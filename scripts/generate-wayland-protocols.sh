#!/bin/sh
# Regenerates the C code of the Wayland protocols pencil-actions speaks, from protocols/*.xml,
# with wayland-scanner (libwayland-bin). SwiftPM cannot run wayland-scanner while it builds a
# C target, so the generated files are kept in the tree; `--check` (packaging checks) fails
# when they differ from what the XML gives.
set -eu
cd "$(dirname "$0")/.."
command -v wayland-scanner >/dev/null || { echo "generate-wayland-protocols: wayland-scanner is missing (apt-get install libwayland-bin)" >&2; exit 1; }
check=false
[ "${1:-}" = --check ] && check=true
status=0
name=wlr-foreign-toplevel-management-unstable-v1
target=Sources/CWlrForeignToplevel
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
wayland-scanner client-header "protocols/$name.xml" "$scratch/$name-client-protocol.h"
wayland-scanner private-code "protocols/$name.xml" "$scratch/$name-protocol.c"
for pair in "$name-client-protocol.h:include/$name-client-protocol.h" "$name-protocol.c:$name-protocol.c"; do
    generated=$scratch/${pair%%:*}
    kept=$target/${pair#*:}
    if $check; then
        cmp -s "$generated" "$kept" || { echo "generate-wayland-protocols: $kept is not what protocols/$name.xml gives: run scripts/generate-wayland-protocols.sh" >&2; status=1; }
    else
        cp "$generated" "$kept"
    fi
done
exit $status
