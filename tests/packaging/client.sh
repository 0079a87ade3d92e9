#!/usr/bin/env bash
# End-to-end checks of the clients against a real pencild replaying a recording, run by
# `make test-packaging` after the build:
#   - pencilctl devices, prefs get/set (kept across a restart), monitor (readable and
#     --json, with filters; the user's doubleTapAction applied), and its clear error when
#     the daemon is absent;
#   - an outside client: the `varlink` package from PyPI in a private venv;
#   - pencilctl watch in a tmux terminal;
#   - pencil-actions: a command binding run once per double-tap with the event in its
#     environment, a broken bindings file reported by line while the last good bindings stay,
#     no wake-ups while idle, pencilctl actions (and actions test), a clean stop on SIGTERM.
# Usage: client.sh BIN_DIR. A check that cannot run here says so; under CI that fails.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
pencild=$bin/pencild
pencilctl=$bin/pencilctl
actions=$bin/pencil-actions
for program in "$pencild" "$pencilctl" "$actions"; do
    [ -x "$program" ] || { echo "client: $program is missing: build first" >&2; exit 1; }
done

# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"
work=$(mktemp -d)
stop_daemon() {
    if [ -n "$pencild_pid" ]; then
        kill -TERM "$pencild_pid" 2>/dev/null || true
        wait "$pencild_pid" 2>/dev/null || true
        pencild_pid=""
    fi
}
actions_pid=""
# A tmux server of this run's own, without the user's configuration: what capture-pane shows
# depends on nothing a developer set up.
tmux() { command tmux -L "pencild-test-$$" -f /dev/null "$@"; }
cleanup() {
    if [ -n "$actions_pid" ]; then kill -TERM "$actions_pid" 2>/dev/null || true; wait "$actions_pid" 2>/dev/null || true; fi
    stop_daemon
    tmux kill-server 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A pen that comes into range, double-clicks its first barrel button, draws a short
# stroke and leaves: written by the project's evemu writer, so that the checks need no
# outside data.
recording=$work/double-tap.evemu
"$bin/pencil-test-recordings" --client-pen >"$recording"

socket=$work/pencild.sock
export PENCILD_SOCKET=$socket
# start_daemon [FLAGS...]: pencild on $socket replaying the recording, once it answers.
# $pencild_wrapper, when set, runs pencild (strace, below).
start_daemon() {
    start_pencild "$socket" "$work/pencild.log" --state-dir "$work/state" --no-udev --replay "$recording" "$@" ||
        { echo "client: pencild did not start" >&2; exit 1; }
}
mkdir -p "$work/state"

echo "client: pencilctl against pencild"
if "$pencilctl" devices >"$work/out" 2>"$work/err"; then
    fail "devices succeeded with no daemon"
elif [ $? -eq 69 ] && grep -q "$socket" "$work/err" && grep -q "systemctl start pencild.socket" "$work/err"; then
    pass "no daemon: exit 69, the socket tried and how to start pencild"
else
    fail "no daemon: unexpected message: $(cat "$work/err")"
fi

start_daemon
"$pencilctl" devices >"$work/out"
if grep -q '^replay0 *Client Test Pen' "$work/out" && grep -q 'buttons: stylus stylus2' "$work/out"; then
    pass "devices lists the replayed pen"
else
    fail "devices: $(cat "$work/out")"
fi

"$pencilctl" prefs set doubleTapAction=showColorPalette longPressDuration=650 >/dev/null
if "$pencilctl" prefs set longPressDuration=0 2>"$work/err"; then
    fail "prefs set accepted longPressDuration=0"
else
    grep -q '^pencilctl prefs: longPressDuration: ' "$work/err" && pass "prefs set reports the daemon's InvalidPreferences by field" ||
        fail "prefs set longPressDuration=0: $(cat "$work/err")"
fi
stop_daemon
start_daemon
"$pencilctl" prefs get >"$work/out"
if grep -q '^doubleTapAction *showColorPalette$' "$work/out" && grep -q '^longPressDuration *650 ms$' "$work/out"; then
    pass "prefs set is kept across a restart"
else
    fail "prefs get after a restart: $(cat "$work/out")"
fi

# monitor_replay OUT ERR OPTIONS...: pencilctl monitor OPTIONS through one replay at full speed;
# pencild leaves once it has delivered it (--exit-after-replay), and monitor, having said so
# on ERR, is interrupted.
monitor_replay() {
    local out=$1 err=$2
    shift 2
    start_daemon --speed max --exit-after-replay
    timeout 20 "$pencilctl" monitor "$@" >"$out" 2>"$err" &
    monitor_pid=$!
    wait "$pencild_pid" || true
    pencild_pid=""
    wait_for 10 grep -q 'went away' "$err" || true
    kill -INT "$monitor_pid" 2>/dev/null || true
    wait "$monitor_pid" || true
}

# The replay starts with the first Monitor and ends with the recording; --exit-after-replay
# makes the daemon leave once the events are delivered, which ends monitor's stream.
stop_daemon
monitor_replay "$work/monitor.json" "$work/monitor.err" --json --events doubleTap,deviceRemoved
if [ "$(grep -c '"type":"doubleTap"' "$work/monitor.json")" = 1 ] &&
    grep -q '"action":"showColorPalette"' "$work/monitor.json" &&
    ! grep -qv -e '"type":"doubleTap"' -e '"type":"deviceRemoved"' "$work/monitor.json"; then
    pass "monitor --json --events: one doubleTap with the user's action, nothing unasked for"
else
    fail "monitor --json: $(cat "$work/monitor.json" "$work/monitor.err")"
fi
if grep -q 'went away' "$work/monitor.err"; then
    pass "monitor notices the daemon leaving and waits for it"
else
    fail "monitor did not report the daemon leaving: $(cat "$work/monitor.err")"
fi

monitor_replay "$work/monitor.txt" "$work/monitor-plain.err"
expected=(deviceAdded proximityIn "hover began" buttonDown doubleTap tipDown motion tipUp proximityOut deviceRemoved)
missing=()
for type in "${expected[@]}"; do
    grep -q "^ *+[0-9.]*s  replay0   $type" "$work/monitor.txt" || missing+=("$type")
done
if [ "${#missing[@]}" -eq 0 ]; then
    pass "monitor's readable lines: ${#expected[@]} kinds of event, $(wc -l <"$work/monitor.txt") lines"
else
    fail "monitor lacks ${missing[*]}: $(head -n 20 "$work/monitor.txt")"
fi

echo "client: an outside client, the \`varlink\` package from PyPI"
venv=$repo/.build/varlink-venv
if ! "$repo/scripts/varlink-venv.sh" >"$work/pip.log" 2>&1; then
    rm -rf "$venv"
    cannot_check "pip install varlink failed: $(tail -n 3 "$work/pip.log")"
fi
if [ -x "$venv/bin/python" ]; then
    # What a program written for any varlink service does: list the pens, then follow the
    # stream and print the gestures.
    cat >"$work/example.py" <<PYTHON
import varlink

with varlink.Client("unix:$socket") as client:
    with client.open("org.pencild.Pen") as pen:
        for device in pen.ListDevices()["devices"]:
            print(device["id"], device["name"])
        for reply in pen.Monitor(_more=True):
            event = reply["event"]
            if event["type"] in ("doubleTap", "squeeze"):
                print(event["type"], event.get("phase", ""), event["action"] if "action" in event else "")
PYTHON
    start_daemon --speed max --exit-after-replay
    timeout 20 "$venv/bin/python" "$work/example.py" >"$work/python.out" 2>"$work/python.err" || true
    wait "$pencild_pid" || true
    pencild_pid=""
    if grep -q '^replay0 Client Test Pen$' "$work/python.out" && grep -q '^doubleTap  showColorPalette$' "$work/python.out"; then
        pass "the varlink package lists the pen and prints the double-tap"
    else
        fail "the varlink package's client printed: $(cat "$work/python.out" "$work/python.err")"
    fi
fi

echo "client: pencilctl watch in a terminal"
if ! command -v tmux >/dev/null; then
    cannot_check "tmux is not installed (apt-get install tmux)"
else
    start_daemon --speed 4
    tmux_session=pencild-watch-$$
    tmux new-session -d -s "$tmux_session" -x 90 -y 32 \
        "PENCILD_SOCKET=$socket '$pencilctl' watch; echo watch-exited-\$?; sleep 60"
    seen=""
    for _ in $(seq 60); do
        tmux capture-pane -p -t "$tmux_session" >"$work/screen.txt"
        if grep -q 'doubleTap → showColorPalette' "$work/screen.txt" && grep -q 'out of proximity' "$work/screen.txt"; then
            seen=yes
            break
        fi
        sleep 0.25
    done
    if [ -n "$seen" ] && grep -q '^replay0  Client Test Pen  (gone' "$work/screen.txt" && grep -q '^pressure  \[' "$work/screen.txt"; then
        pass "watch shows the pen, its bars and the double-tap with the user's action"
    else
        fail "watch screen:"$'\n'"$(cat "$work/screen.txt")"
    fi
    tmux send-keys -t "$tmux_session" q
    for _ in $(seq 40); do
        tmux capture-pane -p -t "$tmux_session" >"$work/screen.txt"
        grep -q 'watch-exited-' "$work/screen.txt" && break
        sleep 0.1
    done
    if grep -q 'watch-exited-0' "$work/screen.txt"; then
        pass "q ends watch with status 0"
    else
        fail "watch did not end on q:"$'\n'"$(cat "$work/screen.txt")"
    fi
    tmux kill-session -t "$tmux_session" 2>/dev/null || true
    tmux_session=""
    stop_daemon
fi

echo "client: pencil-actions against pencild"
# has_line FILE PATTERN: a line of FILE matches.
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }
config=$work/config/pencild/actions.conf
mkdir -p "$(dirname "$config")"
# The user's doubleTapAction is showColorPalette (set above). The command gets the event in
# its environment; switchEraser's chord needs /dev/uinput.
cat >"$config" <<EOF
[showColorPalette]
command = sh -c 'echo "\$PENCIL_GESTURE \$PENCIL_ACTION \$PENCIL_FOCUS \$PENCIL_DEVICE" >>"\$0"' $work/ran.txt
[switchEraser]
key = shift+e
EOF
start_daemon   # the replay starts at the first Monitor: pencil-actions'
XDG_CONFIG_HOME=$work/config "$actions" --verbose 2>"$work/actions.log" &
actions_pid=$!
if wait_for 20 has_line "$work/ran.txt" . && [ "$(cat "$work/ran.txt")" = "doubleTap showColorPalette none replay0" ]; then
    pass "pencil-actions ran the command binding once for the double-tap, with the event in its environment"
else
    fail "pencil-actions: ran.txt holds '$(cat "$work/ran.txt" 2>/dev/null)'; its log: $(cat "$work/actions.log")"
fi
if [ -w /dev/uinput ]; then
    if grep -q 'virtual keyboard "pencil-actions keyboard"' "$work/actions.log"; then
        pass "pencil-actions made its virtual keyboard"
    else
        fail "pencil-actions did not make its keyboard: $(cat "$work/actions.log")"
    fi
elif grep -q 'no keyboard of its own (/dev/uinput: .*): chords go to pencild' "$work/actions.log"; then
    pass "without /dev/uinput, pencil-actions says it has no keyboard of its own, leaves chords to pencild's, and runs commands"
else
    fail "pencil-actions did not say why keys are off: $(cat "$work/actions.log")"
fi
# Idle (the replay over: no pen event comes): no wake-ups at all. A measuring window, not a
# wait for an event; it opens once the replay has ended, since pencil-actions hears the pen's
# proximity (for the system palette) as well as its gestures.
wait_for 30 grep -q 'proximityOut of replay0' "$work/actions.log" || fail "pencil-actions did not hear the pen leave: $(tail -n 5 "$work/actions.log")"
switches() { awk '/ctxt_switches/ { n += $2 } END { print n }' "/proc/$actions_pid/status"; }
before=$(switches)
sleep 2
after=$(switches)
if [ "$before" = "$after" ]; then
    pass "pencil-actions idle: no wake-ups in 2 s ($(awk '/VmRSS/ { print $2, $3 }' "/proc/$actions_pid/status") resident, debug build)"
else
    fail "pencil-actions woke up $((after - before)) times in 2 s while idle"
fi
XDG_CONFIG_HOME=$work/config "$pencilctl" actions >"$work/out" 2>&1 || true
if grep -q '^  showColorPalette *command sh -c' "$work/out" &&
    grep -q '^  doubleTap *doubleTapAction=showColorPalette -> command sh -c' "$work/out" &&
    grep -q '^  squeeze *squeezeAction=showContextualPalette -> the system palette: Undo, Redo (no \[palette\] section)' "$work/out"; then
    pass "pencilctl actions: the bindings and what each gesture does now"
else
    fail "pencilctl actions: $(cat "$work/out")"
fi
XDG_CONFIG_HOME=$work/config "$pencilctl" actions test showColorPalette >"$work/out" 2>&1 || true
if grep -q 'the command ran and exited with status 0' "$work/out" && [ "$(grep -c '^test showColorPalette' "$work/ran.txt")" = 1 ]; then
    pass "pencilctl actions test runs the binding once, as gesture \"test\""
else
    fail "pencilctl actions test: $(cat "$work/out" "$work/ran.txt")"
fi
# A broken file: the error names the file and line, and the bindings in force stay.
printf '[showColorPalette]\nkey = shift+nosuchkey\n' >"$config"
if wait_for 20 has_line "$work/actions.log" "$config:2: key = shift+nosuchkey: unknown key 'nosuchkey'.*the bindings in force stay"; then
    pass "a broken actions.conf is reported by file and line; the last good bindings stay"
else
    fail "no report of the broken file: $(cat "$work/actions.log")"
fi
kill -TERM "$actions_pid"
status=0
wait "$actions_pid" || status=$?
actions_pid=""
if [ "$status" -eq 0 ]; then pass "pencil-actions stops with status 0 on SIGTERM"; else fail "pencil-actions exited $status on SIGTERM"; fi
stop_daemon

# The system unit lets pencild make only the system calls of @system-service, less
# @privileged and @resources; one outside would kill it (SIGSYS). strace lists the calls
# it makes while serving these clients, and each must be in the unit's filter.
echo "client: pencild's system calls against the unit's SystemCallFilter"
unit=$repo/systemd/system/pencild.service.in
if ! command -v strace >/dev/null || ! command -v systemd-analyze >/dev/null; then
    cannot_check "strace and systemd-analyze are needed (apt-get install strace systemd)"
else
    pencild_wrapper=(strace -f -qq -o "$work/strace.txt")
    start_daemon --speed max --exit-after-replay
    pencild_wrapper=()
    "$pencilctl" devices >/dev/null
    "$pencilctl" prefs set tapMaxDuration=250 >/dev/null
    timeout 20 "$pencilctl" monitor >/dev/null 2>&1 &
    monitor_pid=$!
    wait "$pencild_pid" || true
    pencild_pid=""
    kill -INT "$monitor_pid" 2>/dev/null || true
    wait "$monitor_pid" || true
    sed -E 's/^[0-9]+ +//; s/\(.*//' "$work/strace.txt" | grep -E '^[a-z_0-9]+$' | sort -u >"$work/used.txt"
    # expand ENTRY: the calls of a systemd syscall group (nested groups included), or the one
    # call ENTRY names.
    expand() {
        case $1 in
            @*) systemd-analyze syscall-filter "$1" | tail -n +2 | sed 's/^ *//' | grep -v -e '^#' -e '^$' |
                    while read -r name; do expand "$name"; done ;;
            *) echo "$1" ;;
        esac
    }
    # The unit's lines in their order, as systemd reads them: each adds its calls to the
    # allowed set, or with ~ takes them out.
    : >"$work/allowed.txt"
    sed -n 's/^SystemCallFilter=//p' "$unit" | while read -r line; do
        for entry in ${line#\~}; do expand "$entry"; done | sort -u >"$work/change.txt"
        case $line in
            "~"*) comm -23 "$work/allowed.txt" "$work/change.txt" >"$work/next.txt" ;;
            *) sort -u "$work/allowed.txt" "$work/change.txt" >"$work/next.txt" ;;
        esac
        mv "$work/next.txt" "$work/allowed.txt"
    done
    outside=$(comm -23 "$work/used.txt" "$work/allowed.txt" | tr '\n' ' ')
    if [ ! -s "$work/used.txt" ]; then
        fail "strace recorded no system calls"
    elif [ -z "$outside" ]; then
        pass "all $(wc -l <"$work/used.txt") system calls pencild made are in the unit's SystemCallFilter"
    else
        fail "pencild made system calls the unit forbids: $outside"
    fi
fi

if [ "$failed" -gt 0 ]; then
    echo "client: pencild's log:"
    cat "$work/pencild.log"
fi
summary
