#!/usr/bin/env bash
# The pure core reads no clock and makes no system call, and the compiler says so: a line
# that calls `HostTime.now()` or opens an `Epoll` does not compile in a pure module, because
# PencilSystem is not among the modules it can import. Run by `make test-purity` (in
# `make test`), after the debug build, whose .swiftmodule files it compiles against.
#
# Each snippet is type-checked as a file of the module it names, seeing only the modules
# that module depends on in Package.swift (its dependencies' closure, as SwiftPM declares
# it), so a module built beside it in .build cannot make a wrong import pass. A failure
# counts only for the reason expected; the same snippet must compile in a module that may
# read the clock (the positive control), so a snippet that cannot compile anywhere proves
# nothing and fails the check. Each import in a pure module's sources is checked too,
# since SwiftPM would let a file import any module that happens to be built.
#
# PURE_CORE_MODULES: the folder of the built .swiftmodule files (by default the debug
# build's, from `swift build --show-bin-path`).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

pure_modules=(JSON PencilProtocol PencilTime PencilInput GestureRecognizer PencilTestDevices PencilBenchmarks CommandLineOptions)
# Modules that may read the clock: the daemon, and the OS layer itself.
control_modules=(PencilDaemon)

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"

modules=${PURE_CORE_MODULES:-$(swift build --show-bin-path)/Modules}
if [ ! -f "$modules/PencilSystem.swiftmodule" ]; then
    echo "pure core: FAIL: no PencilSystem.swiftmodule in $modules: run swift build first"
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift package dump-package >"$work/package.json"

# closure MODULE: the targets MODULE may import (its declared dependencies, and theirs),
# one a line, as "swift NAME" or "system NAME PATH-OF-ITS-MODULE-MAP".
closure() {
    python3 - "$work/package.json" "$1" <<'EOF'
import json, sys
package = json.load(open(sys.argv[1]))
targets = {target["name"]: target for target in package["targets"]}

def names(target):
    for dependency in target["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency:
                yield dependency[kind][0]

seen, pending = set(), list(names(targets[sys.argv[2]]))
while pending:
    name = pending.pop()
    if name in seen or name not in targets:
        continue
    seen.add(name)
    pending.extend(names(targets[name]))
for name in sorted(seen):
    target = targets[name]
    if target["type"] == "system":
        print("system", name, target.get("path") or f"Sources/{name}", sep="\t")
    else:
        print("swift", name, sep="\t")
EOF
}

# typecheck MODULE SNIPPET: compiles SNIPPET as a file of MODULE against the .swiftmodule of
# MODULE's dependencies alone; the compiler's messages go to $work/out.
typecheck() {
    local module=$1 snippet=$2 kind name path
    local visible="$work/visible-$module"
    local flags=()
    if [ ! -d "$visible" ]; then
        mkdir "$visible"
        while IFS=$'\t' read -r kind name path; do
            if [ "$kind" = swift ]; then
                ln -s "$modules/$name.swiftmodule" "$visible/$name.swiftmodule"
            else
                echo "$repo/$path/module.modulemap" >>"$visible.maps"
            fi
        done < <(closure "$module")
    fi
    if [ -f "$visible.maps" ]; then
        while read -r path; do flags+=(-Xcc "-fmodule-map-file=$path"); done <"$visible.maps"
    fi
    swiftc -typecheck -swift-version 6 -module-name "$module" -module-cache-path "$work/cache" \
        -I "$visible" "${flags[@]}" "$work/$snippet" >"$work/out" 2>&1
}

first_error() { grep -m1 'error:' "$work/out" | sed 's/^.*error: //'; }

cat >"$work/clock.swift" <<'EOF'
import PencilSystem
let startedAt = HostTime.now()
EOF
cat >"$work/epoll.swift" <<'EOF'
import PencilSystem
let poll = try? Epoll()
EOF
# The time types a pure module does see carry no clock.
cat >"$work/time-types.swift" <<'EOF'
import PencilTime
let startedAt = HostTime.now()
EOF

echo "pure core: the positive controls (modules that may read the clock)"
controls_compile=true
for module in "${control_modules[@]}"; do
    for snippet in clock.swift epoll.swift; do
        if typecheck "$module" "$snippet"; then
            pass "$module compiles $snippet"
        else
            fail "$module does not compile $snippet, so its failing in a pure module proves nothing: $(first_error)"
            controls_compile=false
        fi
    done
done
if typecheck PencilSystem time-types.swift; then
    fail "PencilSystem compiles HostTime.now() with PencilTime alone: the clock is in the time types"
elif [[ $(first_error) == *"has no member 'now'"* ]]; then
    pass "HostTime.now() needs PencilSystem: PencilTime alone has no clock"
else
    fail "time-types.swift fails in PencilSystem for another reason: $(first_error)"
fi

# SwiftPM puts every module of the build in one folder, so a source file could import a
# module its target does not depend on and still build: each import of a pure module's
# sources is checked against its dependencies. From Glibc it takes single functions that
# make no system call (`import func Glibc.atan2`), never the whole of it.
glibc_functions=(tan atan atan2 memchr)

echo "pure core: what a pure module cannot compile"
for module in "${pure_modules[@]}"; do
    # Read whole before grep: grep -q would stop the pipe early, and pipefail count that.
    dependencies=$(closure "$module")
    if grep -qx $'swift\tPencilSystem' <<<"$dependencies"; then
        fail "$module depends on PencilSystem (Package.swift)"
    fi
    allowed=$(cut -f2 <<<"$dependencies")
    strays=()
    while IFS= read -r line; do
        file=${line%%:*}
        imported=$(sed -E 's/^[^:]*:[0-9]+:[[:space:]]*(@_exported[[:space:]]+)?import[[:space:]]+//' <<<"$line")
        case $imported in
            "func Glibc."*)
                [[ " ${glibc_functions[*]} " == *" ${imported#func Glibc.} "* ]] || strays+=("$file: import $imported") ;;
            *)
                grep -qx "$imported" <<<"$allowed" || strays+=("$file: import $imported") ;;
        esac
    done < <(grep -rnE '^[[:space:]]*(@_exported[[:space:]]+)?import[[:space:]]' "Sources/$module")
    if [ "${#strays[@]}" -eq 0 ]; then
        pass "$module imports its dependencies alone$(grep -rqE 'import func Glibc\.' "Sources/$module" && echo ", and single Glibc functions")"
    else
        fail "$module imports what it does not depend on: ${strays[*]}"
    fi
    for snippet in clock.swift epoll.swift; do
        if typecheck "$module" "$snippet"; then
            fail "$module compiles $snippet: a pure module can reach the system"
        elif [[ $(first_error) == *"no such module 'PencilSystem'"* ]]; then
            pass "$module cannot compile $snippet (no such module 'PencilSystem')"
        else
            fail "$module fails $snippet for another reason than PencilSystem's absence: $(first_error)"
        fi
    done
done

# A control that does not compile has failed already; it is checked again all the same.
summary && [ "$controls_compile" = true ]
