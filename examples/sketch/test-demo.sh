#!/usr/bin/env bash
# test-demo.sh BIN_DIR: `make test-demo`. Runs the sketch demo on a private Broadway display
# (gtk4-broadwayd) against pencild replaying the Cintiq 22HDT recording, which ends with a
# double-tap, and checks in the demo's log that its active window claimed the focus, that the
# tool switched to the eraser on the double-tap, that a squeeze showed the palette and that
# hover showed the brush preview; then, with another process holding the focus, that the demo
# ignored every gesture. A prerequisite that is missing fails under CI=true; elsewhere the
# test is skipped and says so.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)

tier=test-demo
# shellcheck source=tests/desktop-tier.sh
. "$here/../../tests/desktop-tier.sh"
[ -x "$bin/pencild" ] || { echo "test-demo: $bin/pencild is missing: build first" >&2; exit 1; }
command -v gtk4-broadwayd >/dev/null || cannot_run "gtk4-broadwayd is not installed (apt-get install libgtk-4-bin)"
python=$("$here/../../scripts/gi-python.sh") || cannot_run "PyGObject with GTK 4 is not installed"
recording=${PENCILD_RECORDINGS:-}/"Wacom Cintiq 22HDT Pen.events"
if [ -z "${PENCILD_RECORDINGS:-}" ] || [ ! -f "$recording" ]; then
    cannot_run "the Cintiq 22HDT recording (set PENCILD_RECORDINGS)"
fi

begin_scratch


# A private display: its socket in a runtime folder of our own; the HTTP port is 8080 + the
# display number, so a busy one is skipped.
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 0700 "$XDG_RUNTIME_DIR"
display=""
for attempt in 1 2 3 4 5 6; do
    candidate=$((40 + ($$ + attempt * 7) % 50))
    gtk4-broadwayd ":$candidate" >"$work/broadwayd.log" 2>&1 &
    broadway_pid=$!
    if wait_for 10 test -S "$XDG_RUNTIME_DIR/broadway$((candidate + 1)).socket" 2>/dev/null &&
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

# run_demo NAME [--wait-monitors N]: pencild replaying the recording on a fresh socket and the
# demo on the display; returns once the demo's log is complete (pencild has left). The demo
# stays running; its pid is $sketch_pid, its log $log.
run_demo() {
    local name=$1
    shift
    socket=$work/$name.sock
    log=$work/$name.log
    mkdir -p "$work/$name-state"
    "$bin/pencild" --socket "$socket" --state-dir "$work/$name-state" --no-udev --replay "$recording" \
        --speed max --exit-after-replay "$@" 2>"$work/$name-pencild.log" &
    pids+=("$!")
    wait_for 20 test -S "$socket"
    # The daemon answers once it has loaded the recording (a call that does not subscribe
    # leaves the replay waiting).
    answers() { PENCILD_SOCKET=$socket "$bin/pencilctl" devices 2>/dev/null | grep -q '^replay0'; }
    wait_for 60 answers
    GDK_BACKEND=broadway BROADWAY_DISPLAY=":$display" "$python" "$here/sketch.py" --socket "$socket" --log "$log" \
        >"$work/$name.out" 2>&1 &
    sketch_pid=$!
    pids=("$sketch_pid" "${pids[@]}")
}
# finish NAME: waits for the end of the replay in the demo's log (deviceRemoved).
finish() {
    gone() { grep -q 'pen: replay0 gone' "$log" 2>/dev/null; }
    if ! wait_for 90 gone; then
        echo "--- the demo's log:" >&2; cat "$log" >&2 || true
        echo "--- its output:" >&2; cat "$work/$1.out" >&2
        exit 1
    fi
}
# logged PATTERN NAME / not_logged PATTERN NAME: the demo's log has (or lacks) PATTERN.
logged() { check "$2" grep -q -- "$1" "$log"; }
not_logged() { if grep -q -- "$1" "$log"; then fail "$2"; else pass "$2"; fi; }
running() { check "the demo is still running" kill -0 "$sketch_pid" 2>/dev/null; }

# wait_claimed: waits until the demo's window has claimed the focus.
wait_claimed() {
    claimed() { grep -q 'focus: claimed' "$log" 2>/dev/null; }
    if ! wait_for 30 claimed; then
        cat "$log" "$work"/*.out >&2
        exit 1
    fi
}

# The replay starts once a second client subscribes, after the demo's window has claimed
# the focus: every gesture then comes with focus `this`.
echo "test-demo: the demo alone, its window active"
run_demo alone --wait-monitors 2
wait_claimed
PENCILD_SOCKET=$socket "$bin/pencilctl" monitor --events doubleTap >"$work/watcher.out" 2>&1 &
pids+=("$!")
finish alone
logged 'window: shown' "the window opened on the Broadway display"
logged 'focus: claimed (window active)' "the active window claimed the pen's focus"
logged 'pen: Wacom Cintiq 22HDT Pen' "the demo saw the replayed pen"
logged 'preferences: doubleTapAction=switchEraser' "the demo shows the user's preferences"
logged 'hover: preview shown' "hover events preview the brush"
logged 'palette: shown (squeeze showContextualPalette, focus this)' "a squeeze showed the palette"
not_logged 'focus none' "no gesture came without the focus"
logged 'tool: eraser (doubleTap switchEraser, focus this)' "the double-tap switched to the eraser"
running
alone_log=$log

# Another process of the user claims the focus after the demo did: the demo sees `other`
# and must not act. The replay starts once both have subscribed.
echo "test-demo: another app holds the focus"
run_demo other --wait-monitors 2
wait_claimed
PENCILD_SOCKET=$socket PYTHONPATH=$here/../../clients/python/src "$python" -c '
import pencild
client = pencild.Client()
client.set_focused(True)
for event in client.monitor(events=["doubleTap"], reconnect=False):
    print("other app:", event.type, event.focus, flush=True)
' >"$work/claimer.out" 2>&1 &
pids+=("$!")
finish other
logged 'ignored: doubleTap switchEraser (focus other)' "the double-tap was ignored: another app has the focus"
logged 'ignored: squeeze showContextualPalette (focus other)' "so were the squeezes"
not_logged 'tool: eraser' "the tool did not switch"
not_logged 'palette: shown' "the palette stayed hidden"
if grep -q '^other app: doubleTap this$' "$work/claimer.out"; then
    pass "the other app had the double-tap with focus this"
else
    fail "the other app's view" "$(cat "$work/claimer.out")"
fi
running

if [ "$failed" -gt 0 ]; then
    for file in "$alone_log" "$log" "$work"/*.out; do echo "--- $file"; cat "$file"; done
else
    grep -v -e 'hover: preview' "$alone_log" "$log"
fi
summary
