#!/usr/bin/env bash
# fuzz/run.sh [--seconds N] [TARGET...]
#
# Builds the libFuzzer targets (this folder's package, with the fuzzer and address
# sanitizers) and runs each for N seconds (default 20), starting from its seeds in
# fuzz/corpus/TARGET. New inputs go to fuzz/.build/corpus/TARGET, kept between runs,
# so the seeds in the repository only change by hand. A crash, a sanitizer report or a
# hang fails the run; the input is saved as fuzz/.build/artifacts/TARGET-crash-*, and
# `fuzz/.build/release/TARGET FILE` replays it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

seconds=20
targets=()
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) seconds=$2; shift 2 ;;
        --seconds=*) seconds=${1#*=}; shift ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ "${#targets[@]}" -eq 0 ]; then
    for dir in corpus/*/; do targets+=("$(basename "$dir")"); done
fi

echo "fuzz: building ${targets[*]}"
swift build -c release -Xswiftc -sanitize=fuzzer,address
bin=$(swift build -c release -Xswiftc -sanitize=fuzzer,address --show-bin-path)

# Swift's own crash reporter would run inside the sanitizer's signal handling: libFuzzer
# reports the crash and its input instead.
export SWIFT_BACKTRACE=enable=no

failed=()
for target in "${targets[@]}"; do
    [ -x "$bin/$target" ] || { echo "fuzz: no target named $target" >&2; exit 2; }
    corpus=.build/corpus/$target
    artifacts=.build/artifacts
    mkdir -p "$corpus" "$artifacts"
    log=.build/$target.log
    echo "fuzz: $target for ${seconds}s (log: fuzz/$log)"
    if "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
        "$corpus" "corpus/$target" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        coverage=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1)
        echo "fuzz: $target: no finding in ${runs:-?} runs ($coverage, corpus $(find "$corpus" -type f | wc -l) inputs)"
    else
        echo "fuzz: $target: FINDING" >&2
        grep -E 'Fatal error|ERROR|SUMMARY|Test unit written|precondition|Assertion' "$log" | head -n 20 >&2 || tail -n 30 "$log" >&2
        failed+=("$target")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi
