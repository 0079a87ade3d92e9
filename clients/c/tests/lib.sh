# shellcheck shell=bash
# Sourced by the tests: a real pencild on a private socket, and the rules for what
# cannot run here (under CI=true it fails; elsewhere the test is skipped, status 77,
# and says why).
set -euo pipefail


cannot() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: cannot run: $*" >&2
        exit 1
    fi
    echo "skipped: $*" >&2
    exit 77
}

if [ -z "${PENCILD_BIN_DIR:-}" ] || [ ! -x "$PENCILD_BIN_DIR/pencild" ] || [ ! -x "$PENCILD_BIN_DIR/pencilctl" ]; then
    cannot "pencild and pencilctl are not built (meson option pencild-bin-dir, or PENCILD_BIN_DIR: '${PENCILD_BIN_DIR:-}')"
fi
pencild=$PENCILD_BIN_DIR/pencild
# shellcheck disable=SC2034 # used by the tests that source this file
pencilctl=$PENCILD_BIN_DIR/pencilctl

# PENCIL_TEST_WRAPPER runs the C programs (valgrind, from `meson test --setup valgrind`).
wrapper=()
if [ -n "${PENCIL_TEST_WRAPPER:-}" ]; then
    read -r -a wrapper <<<"$PENCIL_TEST_WRAPPER"
    command -v "${wrapper[0]}" >/dev/null || cannot "${wrapper[0]} is not installed"
fi
client() { "${wrapper[@]}" "$@"; }

work=$(mktemp -d)
export PENCILD_SOCKET=$work/pencild.sock
unset XDG_RUNTIME_DIR
daemon_pid=""
helper_pids=()

stop_pencild() {
    if [ -n "$daemon_pid" ]; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
        daemon_pid=""
    fi
}
cleanup() {
    stop_pencild
    for pid in "${helper_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "${PENCIL_TEST_KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# start_pencild ARGS...: pencild on $PENCILD_SOCKET with its state in $work/state;
# returns once the socket is there.
start_pencild() {
    mkdir -p "$work/state"
    rm -f "$PENCILD_SOCKET"
    "$pencild" --socket "$PENCILD_SOCKET" --state-dir "$work/state" --no-udev "$@" </dev/null 2>>"$work/pencild.log" &
    daemon_pid=$!
    wait_for "pencild's socket" 10 test -S "$PENCILD_SOCKET"
}

# wait_for WHAT SECONDS COMMAND...: polls COMMAND until it succeeds, at most SECONDS.
wait_for() {
    local what=$1 seconds=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "FAIL: waited ${seconds}s for $what" >&2
            [ -f "$work/pencild.log" ] && sed 's/^/pencild: /' "$work/pencild.log" >&2
            exit 1
        fi
        if [ -n "$daemon_pid" ] && ! kill -0 "$daemon_pid" 2>/dev/null && [ "$what" = "pencild's socket" ]; then
            echo "FAIL: pencild exited before its socket appeared" >&2
            sed 's/^/pencild: /' "$work/pencild.log" >&2
            exit 1
        fi
        sleep 0.05
    done
}

# The recordings: every *.events and *.evemu file, each with the .desc it needs (a
# recording without a header takes the .desc whose name starts like its own, up to the
# first dot: "Wacom Intuos4 6x9.stylus-tap.events" and "Wacom Intuos4 6x9 Pen.desc").
# Prints "RECORDING<TAB>DESC" lines (DESC empty when the recording has a header).
recordings() {
    local dir=${PENCILD_RECORDINGS:-}
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then
        cannot "the shared pen recordings are not found (set PENCILD_RECORDINGS)"
    fi
    local file base desc found=0
    for file in "$dir"/*.events "$dir"/*.evemu; do
        [ -f "$file" ] || continue
        found=$((found + 1))
        desc=""
        if ! grep -q '^N:' "$file"; then
            base=$(basename "$file")
            for candidate in "$dir/${base%%.*}"*.desc; do
                [ -f "$candidate" ] && desc=$candidate
            done
            if [ -z "$desc" ]; then
                echo "FAIL: $file has no header and no .desc beside it" >&2
                exit 1
            fi
        fi
        printf '%s\t%s\n' "$file" "$desc"
    done
    [ "$found" -gt 0 ] || cannot "no recordings in $dir"
}

# write_recording FILE: a pen (Intuos4-like: pen, two barrel buttons, pressure, distance)
# that comes into range, double-clicks its first barrel button, draws a short stroke,
# squeezes (holds its second button) and leaves. Needs no outside data.
write_recording() {
    local t=0
    frame() { printf 'E: %d.%06d 0000 0000 0000\n' $((t / 1000000)) $((t % 1000000)); t=$((t + 8000)); }
    ev() { printf 'E: %d.%06d %s\n' $((t / 1000000)) $((t % 1000000)) "$1"; }
    {
        echo "N: ${RECORDING_NAME:-Test Pen}"
        echo "I: 0003 056a 00b9 0100"
        echo "P: 00 00 00 00 00 00 00 00"
        echo "B: 00 0b 00 00 00 00 00 00 00"
        for _ in 1 2 3 4 5; do echo "B: 01 00 00 00 00 00 00 00 00"; done
        echo "B: 01 03 1c 00 00 00 00 00 00"
        echo "B: 03 03 00 00 03 00 00 00 00"
        echo "A: 00 0 44704 4 0 200"
        echo "A: 01 0 27940 4 0 200"
        echo "A: 18 0 2047 0 0 0"
        echo "A: 19 0 63 0 0 0"
        ev "0001 0140 1"; ev "0003 0000 22000"; ev "0003 0001 14000"; ev "0003 0019 30"; frame
        for _ in 1 2; do
            ev "0001 014b 1"; frame
            t=$((t + 60000)); ev "0001 014b 0"; frame
            t=$((t + 60000))
        done
        ev "0003 0018 900"; ev "0001 014a 1"; ev "0003 0019 0"; frame
        for step in $(seq 1 ${STROKE_STEPS:-6}); do ev "0003 0000 $((22000 + step * 30))"; frame; done
        ev "0003 0018 0"; ev "0001 014a 0"; ev "0003 0019 20"; frame
        ev "0001 014c 1"; frame
        for step in 1 2 3; do ev "0003 0001 $((14000 + step * 40))"; frame; done
        ev "0001 014c 0"; frame
        ev "0001 0140 0"; frame
    } >"$1"
}
