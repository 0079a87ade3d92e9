#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# restart.sh PENCIL_EVENTS CHECK: pencild is killed (SIGKILL) twice under two
# subscribers, once mid-stroke and once mid-squeeze, and started again on the same
# socket; libpencil closes what was open, reconnects by itself and subscribes again with
# the same filters. The third pencild replays a short recording and exits at its end.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
pencil_events=${1:?usage: $0 PENCIL_EVENTS CHECK}
checker=${2:?usage: $0 PENCIL_EVENTS CHECK}
filter=deviceAdded,deviceRemoved,tipDown,tipUp,squeeze,proximityOut

start_pencild --demo
client "$pencil_events" --removed 3 </dev/null >"$work/all.json" 2>"$work/all.err" &
all_pid=$!
client "$pencil_events" --removed 3 --events "$filter" </dev/null >"$work/some.json" 2>"$work/some.err" &
some_pid=$!
helper_pids=("$all_pid" "$some_pid")

lines() { wc -l <"$1"; }
# kill_pencild_during STATE: stops the demo pen's pencild while both subscribers have
# seen STATE (stroke or squeeze) begin and not end, and kills it there.
kill_pencild_during() {
    local wanted=$1 deadline=$((SECONDS + 30)) before after
    while [ "$SECONDS" -lt "$deadline" ]; do
        if [ "$(python3 "$checker" state "$work/all.json")" = "$wanted" ]; then
            kill -STOP "$daemon_pid"
            # What was sent before the stop reaches the subscribers: wait until it has.
            before=-1
            after=$(lines "$work/all.json")
            while [ "$before" != "$after" ]; do
                sleep 0.1
                before=$after
                after=$(lines "$work/all.json")
            done
            if [ "$(python3 "$checker" state "$work/all.json")" = "$wanted" ] &&
                [ "$(python3 "$checker" state "$work/some.json")" = "$wanted" ]; then
                kill -KILL "$daemon_pid"
                wait "$daemon_pid" 2>/dev/null || true
                daemon_pid=""
                echo "killed pencild during a $wanted"
                return 0
            fi
            kill -CONT "$daemon_pid"
        fi
        sleep 0.02
    done
    echo "FAIL: the demo pen's pencild never showed a $wanted"
    exit 1
}
# at_least FILE PATTERN N: FILE has N lines matching PATTERN.
at_least() { [ "$(grep -c -- "$2" "$1")" -ge "$3" ]; }
closeout='"type":"deviceRemoved".*"synthetic":true'

wait_for "the demo pen to draw" 20 grep -q '"type":"motion"' "$work/all.json"
kill_pencild_during stroke
wait_for "the library's close-out" 10 at_least "$work/all.json" "$closeout" 1
wait_for "the filtered close-out" 10 at_least "$work/some.json" "$closeout" 1

start_pencild --demo
wait_for "the library to reconnect" 20 at_least "$work/all.json" '"type":"deviceAdded"' 2
wait_for "the filtered subscriber to reconnect" 20 at_least "$work/some.json" '"type":"deviceAdded"' 2
kill_pencild_during squeeze
wait_for "the second close-out" 10 at_least "$work/all.json" "$closeout" 2
wait_for "the second filtered close-out" 10 at_least "$work/some.json" "$closeout" 2

RECORDING_NAME="Restart Test Pen" write_recording "$work/pen.evemu"
start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay --wait-monitors 2
status=0
wait "$all_pid" || { echo "FAIL: pencil-events exited with $?: $(cat "$work/all.err")"; status=1; }
wait "$some_pid" || { echo "FAIL: pencil-events --events exited with $?: $(cat "$work/some.err")"; status=1; }
helper_pids=()  # read by cleanup
wait "$daemon_pid" || true
daemon_pid=""

echo "every event:"
python3 "$checker" check "$work/all.json" --expect tipUp,squeeze || status=1
echo "subscribed to $filter:"
python3 "$checker" check "$work/some.json" --events "$filter" --expect tipUp,squeeze || status=1
grep -q '"device":"replay0"' "$work/all.json" || { echo "FAIL: the third pencild's pen never came"; status=1; }
exit "$status"
