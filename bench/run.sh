#!/usr/bin/env bash
# run.sh: pencild's benchmarks (`make bench`); writes docs/benchmarks.md.
#
# On the host: throughput from a replay at --speed max to 1, 16 and 64 clients, instructions
# per frame under callgrind and bytes per event (each against its goal: PASS or MISS), RSS,
# idle wake-ups, and pencil-bench's figures (decoding and frame assembly against theirs).
# `python3 bench/bench.py costs BIN PROBE` measures the per-event costs alone, in a minute. In one VM run
# (tests/kernel/vm-run.sh): latency from the kernel's timestamp to receipt for a bare evdev
# reader, a pencild client and libinput debug-events, on the same emulated pen.
#
# Environment: PENCILD_RECORDINGS (the Cintiq 22HDT recording for the host figures; default
# ../shared/recordings beside the repository), BENCH_RESULTS (default .build/bench-results),
# BENCH_SKIP_BUILD=1, BENCH_SKIP_VM=1 (host figures only), BENCH_DOC (default docs/benchmarks.md).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"

if [ -z "${PENCILD_RECORDINGS:-}" ] && [ -f "$repo/../shared/recordings/README.md" ]; then
    PENCILD_RECORDINGS=$(cd "$repo/../shared/recordings" && pwd)
fi
export PENCILD_RECORDINGS=${PENCILD_RECORDINGS:-}
results=${BENCH_RESULTS:-$repo/.build/bench-results}
doc=${BENCH_DOC:-$repo/docs/benchmarks.md}

# What the VM needs, and valgrind for the instruction counts.
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
if [ "${BENCH_SKIP_VM:-0}" != 1 ]; then "${sudo[@]}" bash "$repo/tests/kernel/install-deps.sh"; fi
if ! command -v valgrind >/dev/null; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends valgrind
fi

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
    swift build -c release --static-swift-stdlib
fi
bin=$(swift build -c release --show-bin-path)
mkdir -p "$repo/.build/bench"
probe=$repo/.build/bench/probe
swiftc -O -swift-version 6 "$here/probe.swift" -o "$probe"

rm -rf "$results"
mkdir -p "$results/vm"
python3 "$here/bench.py" pattern "$bin" "$results/pattern.evemu"

vm_status=0
if [ "${BENCH_SKIP_VM:-0}" = 1 ]; then
    echo "bench: BENCH_SKIP_VM=1: no VM run, host figures only"
    touch "$results/vm/skipped"
else
    echo "bench: latency in the VM"
    set +e
    VM_RESULTS_DIR=$results/vm VM_TIMEOUT=${VM_TIMEOUT:-1800} \
        bash "$repo/tests/kernel/vm-run.sh" "$here/guest-latency.sh" "$bin" "$probe" "$results/pattern.evemu"
    vm_status=$?
    set -e
fi
if [ "$vm_status" -ne 0 ]; then
    echo "bench: ERROR: the VM latency run failed (status $vm_status); see $results/vm/console.log" >&2
fi

echo "bench: host figures"
python3 "$here/bench.py" host "$bin" "$probe" "$results"
python3 "$here/bench.py" report "$results" "$doc"
echo "bench: wrote $doc"
# The goals, as the report states them.
grep -E '^(PASS|MISS|info):' "$doc" || true
exit "$vm_status"
