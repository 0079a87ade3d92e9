#!/usr/bin/env bash
# test-demo.sh BIN_DIR: `make test-demo`. Runs the sketch demo on a private Broadway display
# (gtk4-broadwayd) against pencild replaying the Cintiq 22HDT recording, which ends with a
# double-tap, and checks in the demo's log that the tool switched to the eraser on it, that
# a squeeze showed the palette and that hover showed the brush preview. A prerequisite that
# is missing fails under CI=true; elsewhere the test is skipped and says so.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)

cannot() {
    if [ "${CI:-}" = true ]; then echo "test-demo: FAIL: cannot run: $*" >&2; exit 1; fi
    echo "test-demo: skipped: $*" >&2
    exit 0
}
[ -x "$bin/pencild" ] || { echo "test-demo: $bin/pencild is missing: build first" >&2; exit 1; }
command -v gtk4-broadwayd >/dev/null || cannot "gtk4-broadwayd is not installed (apt-get install libgtk-4-bin)"
python=$("$here/../../scripts/gi-python.sh") || cannot "PyGObject with GTK 4 is not installed"
recording=${PENCILD_RECORDINGS:-}/"Wacom Cintiq 22HDT Pen.events"
if [ -z "${PENCILD_RECORDINGS:-}" ] || [ ! -f "$recording" ]; then
    cannot "the Cintiq 22HDT recording (set PENCILD_RECORDINGS)"
fi

work=$(mktemp -d)
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# wait_for WHAT SECONDS COMMAND...: polls COMMAND until it succeeds or the deadline passes.
wait_for() {
    local what=$1 seconds=$2 deadline
    shift 2
    deadline=$((SECONDS + seconds))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "test-demo: FAIL: no $what within $seconds s" >&2
            return 1
        fi
        sleep 0.1
    done
}

# A private display: its socket in a runtime folder of our own; the HTTP port is 8080 + the
# display number, so a busy one is skipped.
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 0700 "$XDG_RUNTIME_DIR"
display=""
for attempt in 1 2 3 4 5 6; do
    candidate=$((40 + ($$ + attempt * 7) % 50))
    gtk4-broadwayd ":$candidate" >"$work/broadwayd.log" 2>&1 &
    broadway_pid=$!
    if wait_for "broadwayd's socket" 10 test -S "$XDG_RUNTIME_DIR/broadway$((candidate + 1)).socket" 2>/dev/null &&
        kill -0 "$broadway_pid" 2>/dev/null; then
        pids+=("$broadway_pid")
        display=$candidate
        break
    fi
    kill "$broadway_pid" 2>/dev/null || true
    wait "$broadway_pid" 2>/dev/null || true
done
[ -n "$display" ] || { echo "test-demo: FAIL: gtk4-broadwayd did not start: $(cat "$work/broadwayd.log")" >&2; exit 1; }
echo "test-demo: broadwayd on :$display"

socket=$work/pencild.sock
mkdir "$work/state"
"$bin/pencild" --socket "$socket" --state-dir "$work/state" --no-udev --replay "$recording" --speed max \
    --exit-after-replay 2>"$work/pencild.log" &
pids+=("$!")
wait_for "pencild socket" 20 test -S "$socket"

log=$work/sketch.log
GDK_BACKEND=broadway BROADWAY_DISPLAY=":$display" "$python" "$here/sketch.py" --socket "$socket" --log "$log" \
    >"$work/sketch.out" 2>&1 &
sketch_pid=$!
pids=("$sketch_pid" "${pids[@]}")
switched() { grep -q 'tool: eraser (doubleTap switchEraser' "$log" 2>/dev/null; }
if ! wait_for "tool switch in the demo's log" 90 switched; then
    echo "--- the demo's log:" >&2; cat "$log" >&2 || true
    echo "--- its output:" >&2; cat "$work/sketch.out" >&2
    exit 1
fi

failures=0
check() {
    if grep -q -- "$1" "$log"; then echo "  ok: $2"; else echo "  FAIL: $2"; failures=$((failures + 1)); fi
}
check 'window: shown' "the window opened on the Broadway display"
check 'pen: Wacom Cintiq 22HDT Pen' "the demo saw the replayed pen"
check 'preferences: doubleTapAction=switchEraser' "the demo shows the user's preferences"
check 'hover: preview shown' "hover events preview the brush"
check 'palette: shown (squeeze showContextualPalette' "a squeeze showed the palette"
check 'tool: eraser (doubleTap switchEraser' "the double-tap switched to the eraser"
if kill -0 "$sketch_pid" 2>/dev/null; then
    echo "  ok: the demo is still running"
else
    echo "  FAIL: the demo exited"
    failures=$((failures + 1))
fi
if [ "$failures" -gt 0 ]; then
    echo "--- the demo's log:"; cat "$log"; cat "$work/sketch.out"
    exit 1
fi
echo "test-demo: passed ($(wc -l <"$log") log lines)"
cat "$log"
