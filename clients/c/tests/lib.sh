# shellcheck shell=bash
# Sourced by the tests: a real pencild on a private socket, and the rules for what
# cannot run here (under CI=true it fails; elsewhere the test is skipped, status 77,
# and says why).
set -euo pipefail
# wait_for and the results' format are the other tiers' (tests/lib.sh); start_pencild is
# these tests' own, below.
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../tests/lib.sh"
tier=${tier:-test-client-c}

if [ -z "${PENCILD_BIN_DIR:-}" ] || [ ! -x "$PENCILD_BIN_DIR/pencild" ] || [ ! -x "$PENCILD_BIN_DIR/pencilctl" ] || [ ! -x "$PENCILD_BIN_DIR/pencil-test-recordings" ]; then
    cannot_run "pencild, pencilctl and pencil-test-recordings are not built (meson option pencild-bin-dir, or PENCILD_BIN_DIR: '${PENCILD_BIN_DIR:-}')" 77
fi
pencild=$PENCILD_BIN_DIR/pencild
# shellcheck disable=SC2034 # used by the tests that source this file
pencilctl=$PENCILD_BIN_DIR/pencilctl

# PENCIL_TEST_WRAPPER runs the C programs (valgrind, from `meson test --setup valgrind`).
wrapper=()
if [ -n "${PENCIL_TEST_WRAPPER:-}" ]; then
    read -r -a wrapper <<<"$PENCIL_TEST_WRAPPER"
    command -v "${wrapper[0]}" >/dev/null || cannot_run "${wrapper[0]} is not installed" 77
fi
client() { "${wrapper[@]}" "$@"; }
# spawn PROGRAM ARGS... [redirections]: client in the background; $! is the program's own
# pid (not a subshell's), so that cleanup stops the program itself.
spawn() { (exec "${wrapper[@]}" "$@") & }

work=$(mktemp -d)
export PENCILD_SOCKET=$work/pencild.sock
unset XDG_RUNTIME_DIR
daemon_pid=""
background_pids=()

stop_pencild() {
    if [ -n "$daemon_pid" ]; then
        kill -TERM "$daemon_pid" 2>/dev/null || true
        wait "$daemon_pid" 2>/dev/null || true
        daemon_pid=""
    fi
}
cleanup() {
    local status=$?
    # A test that fails shows what pencild said.
    if [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ -s "$work/pencild.log" ]; then sed 's/^/pencild: /' "$work/pencild.log" >&2; fi
    stop_pencild
    for pid in "${background_pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ -n "${PENCIL_TEST_KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# start_pencild ARGS...: pencild on $PENCILD_SOCKET with its state in $work/state;
# returns once the socket is there. (Not tests/lib.sh's, which waits for an answer: here a
# short replay with --exit-after-replay may be over before the first call.) A subscriber
# under valgrind on a busy machine may fall seconds behind (the demo pen sends 400 events a second), which the daemon must not
# punish here by disconnecting it: its output bound and lag timeout are raised.
# $extra_limits: more lines for the [Limits] section.
start_pencild() {
    mkdir -p "$work/state"
    rm -f "$PENCILD_SOCKET"
    printf '[Limits]\nOutputBufferSize=64M\nLagTimeout=1h\n%s\n' "${extra_limits:-}" >"$work/patient.conf"
    local listened
    listened=$(listened_count)
    "$pencild" --socket "$PENCILD_SOCKET" --state-dir "$work/state" --config "$work/patient.conf" --no-udev "$@" \
        </dev/null 2>>"$work/pencild.log" &
    daemon_pid=$!
    wait_for 10 pencild_listened "$listened"
}

# How many times a pencild of this test said it listens (the log is shared by them all).
listened_count() {
    local count
    count=$(grep -c "listening on $PENCILD_SOCKET" "$work/pencild.log" 2>/dev/null) || true
    echo "${count:-0}"
}

# pencild_listened COUNT: the socket is there, or the newest pencild listened and has already
# gone (a short replay with --exit-after-replay may end before the first look). It ends the
# test when pencild has gone without listening.
pencild_listened() {
    test -S "$PENCILD_SOCKET" && return 0
    [ "$(listened_count)" -gt "$1" ] && return 0
    kill -0 "$daemon_pid" 2>/dev/null && return 1
    [ "$(listened_count)" -gt "$1" ] && return 0
    echo "FAIL: pencild exited before its socket appeared" >&2
    exit 1
}

# The recordings: every *.events and *.evemu file, each with the .desc it needs (a
# recording without a header takes the .desc whose name starts like its own, up to the
# first dot: "Wacom Intuos4 6x9.stylus-tap.events" and "Wacom Intuos4 6x9 Pen.desc").
# Prints "RECORDING<TAB>DESC" lines (DESC empty when the recording has a header).
recordings() {
    local dir=${PENCILD_RECORDINGS:-}
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then
        cannot_run "the shared pen recordings are not found (set PENCILD_RECORDINGS)" 77
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
    [ "$found" -gt 0 ] || cannot_run "no recordings in $dir" 77
}

# write_recording FILE: the project's test pen (pencil-test-recordings --client-pen, written
# by its evemu writer) with a double-tap, a stroke and a squeeze, named $RECORDING_NAME.
write_recording() {
    "$PENCILD_BIN_DIR/pencil-test-recordings" --client-pen --squeeze --name "${RECORDING_NAME:-Test Pen}" >"$1"
}
