#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# restart.sh PENCIL_EVENTS CHECK: pencild is killed (SIGKILL) twice under two
# subscribers, once mid-stroke and once mid-squeeze, and started again on the same
# socket; libpencil closes what was open, reconnects by itself and subscribes again with
# the same filters. The third pencild replays a short recording and exits at its end.
# One subscriber claims focus: its gestures carry "this" from every daemon (the library
# claims again on each new connection), the other's "other". The demo pen makes no gesture
# by itself: `pencilctl try` asks it for one.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
pencil_events=${1:?usage: $0 PENCIL_EVENTS CHECK}
checker=${2:?usage: $0 PENCIL_EVENTS CHECK}
filter=deviceAdded,deviceRemoved,tipDown,tipUp,squeeze,proximityOut

start_pencild --demo
spawn "$pencil_events" --removed 3 --focus </dev/null >"$work/all.json" 2>"$work/all.err"
all_pid=$!
spawn "$pencil_events" --removed 3 --events "$filter" </dev/null >"$work/some.json" 2>"$work/some.err"
some_pid=$!
background_pids=("$all_pid" "$some_pid")

# idle PID: the program is blocked in poll(2) (or ppoll, epoll_wait, epoll_pwait on
# x86_64), so it has read and printed everything that reached it.
idle() {
    local call
    call=$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null) || return 1
    case $call in 7 | 271 | 232 | 281) return 0 ;; *) return 1 ;; esac
}
# both_idle: both subscribers idle in two looks 50 ms apart (a poll that returns at once
# because something is waiting is not seen twice).
both_idle() {
    idle "$all_pid" && idle "$some_pid" && sleep 0.05 && idle "$all_pid" && idle "$some_pid"
}
# play GESTURE: the demo pen makes one (pencilctl waits for it in the background: the
# daemon may be stopped meanwhile, and killed).
play() {
    "$pencilctl" try "$1" >>"$work/try.log" 2>&1 &
    background_pids+=("$!")
}
# kill_pencild_during STATE [GESTURE]: stops the demo pen's pencild while the subscriber to
# every event has seen STATE (stroke or squeeze) begin and not end, and kills it there; the
# demo pen is asked for GESTURE every 3 s meanwhile. (The filtered one may lag behind or not:
# its close-out must match what it saw, either way.)
kill_pencild_during() {
    local wanted=$1 gesture=${2:-} deadline=$((SECONDS + 60)) asked=-10
    while [ "$SECONDS" -lt "$deadline" ]; do
        if [ -n "$gesture" ] && [ $((SECONDS - asked)) -ge 3 ]; then
            play "$gesture"
            asked=$SECONDS
        fi
        kill -STOP "$daemon_pid"
        # What was sent before the stop reaches the subscribers: wait until they have read
        # and printed all of it (under valgrind on a busy machine they lag far behind, and
        # what they have seen is what counts).
        wait_for 60 both_idle
        if [ "$(python3 "$checker" state "$work/all.json")" = "$wanted" ]; then
            kill -KILL "$daemon_pid"
            wait "$daemon_pid" 2>/dev/null || true
            daemon_pid=""
            echo "killed pencild during a $wanted"
            return 0
        fi
        kill -CONT "$daemon_pid"
        sleep 0.05
    done
    echo "FAIL: the demo pen's pencild never showed a $wanted"
    exit 1
}
# at_least FILE PATTERN N: FILE has N lines matching PATTERN.
at_least() { [ "$(grep -c -- "$2" "$1")" -ge "$3" ]; }
closeout='"type":"deviceRemoved".*"synthesized":true'

# Both subscribers are there (their first events came) before the double-tap is asked for.
wait_for 60 grep -q '"type":"deviceAdded"' "$work/all.json"
wait_for 60 grep -q '"type":"deviceAdded"' "$work/some.json"
play double-tap
play squeeze
wait_for 20 grep -q '"type":"doubleTap"' "$work/all.json"
wait_for 20 grep -q '"type":"squeeze"' "$work/some.json"
kill_pencild_during stroke
wait_for 10 at_least "$work/all.json" "$closeout" 1
wait_for 10 at_least "$work/some.json" "$closeout" 1

start_pencild --demo
wait_for 20 at_least "$work/all.json" '"type":"deviceAdded"' 2
wait_for 20 at_least "$work/some.json" '"type":"deviceAdded"' 2
kill_pencild_during squeeze squeeze
wait_for 10 at_least "$work/all.json" "$closeout" 2
wait_for 10 at_least "$work/some.json" "$closeout" 2

RECORDING_NAME="Restart Test Pen" write_recording "$work/pen.evemu"
start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay --wait-monitors 2
status=0
wait "$all_pid" || { echo "FAIL: pencil-events exited with $?: $(cat "$work/all.err")"; status=1; }
wait "$some_pid" || { echo "FAIL: pencil-events --events exited with $?: $(cat "$work/some.err")"; status=1; }
background_pids=()  # read by cleanup
wait "$daemon_pid" || true
daemon_pid=""

echo "every event:"
python3 "$checker" check "$work/all.json" --expect tipUp,squeeze --focus this || status=1
echo "subscribed to $filter:"
python3 "$checker" check "$work/some.json" --events "$filter" --focus other || status=1
grep -q '"device":"replay0"' "$work/all.json" || { echo "FAIL: the third pencild's pen never came"; status=1; }
exit "$status"
