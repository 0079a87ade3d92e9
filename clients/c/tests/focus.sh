#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# focus.sh PENCIL_EVENTS: docs/protocol.md "Which app acts". Of two subscribers of one user,
# the one that claimed focus (pencil_set_focused) receives its double-taps and squeezes
# with focus "this", the other with "other"; with no claim, both see "none".
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
pencil_events=${1:?usage: $0 PENCIL_EVENTS}
gestures=doubleTap,squeeze
write_recording "$work/pen.evemu"

# all_focus FILE FOCUS: every gesture in FILE carries FOCUS; prints how many there are.
all_focus() {
    python3 - "$1" "$2" <<'CHECK'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
gestures = [e for e in events if e["type"] in ("doubleTap", "squeeze")]
wrong = [e for e in gestures if e.get("focus") != sys.argv[2]]
kinds = sorted({e["type"] for e in gestures})
if wrong or kinds != ["doubleTap", "squeeze"]:
    print(f"{len(gestures)} gestures ({', '.join(kinds)}), {len(wrong)} without focus {sys.argv[2]}: {wrong[:2]}")
    sys.exit(1)
print(len(gestures))
CHECK
}

status=0
# expect_focus FILE FOCUS WHO: every gesture in FILE carries FOCUS.
expect_focus() {
    local count
    if count=$(all_focus "$1" "$2"); then
        pass "$3" "$count gestures, each with focus $2"
    else
        fail "$3" "$count"
        status=1
    fi
}

start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay --wait-monitors 2
spawn "$pencil_events" --no-reconnect --focus --events "$gestures" </dev/null >"$work/claimed.json" 2>"$work/claimed.err"
claimed=$!
spawn "$pencil_events" --no-reconnect --events "$gestures" </dev/null >"$work/unclaimed.json" 2>"$work/unclaimed.err"
unclaimed=$!
background_pids=("$claimed" "$unclaimed")
wait "$claimed" || { echo "FAIL: the claiming subscriber failed: $(cat "$work/claimed.err")"; status=1; }
wait "$unclaimed" || { echo "FAIL: the other subscriber failed: $(cat "$work/unclaimed.err")"; status=1; }
background_pids=()  # read by cleanup
wait "$daemon_pid" || true
daemon_pid=""
expect_focus "$work/claimed.json" this "the subscriber that claimed focus"
expect_focus "$work/unclaimed.json" other "the other subscriber"

start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay
client "$pencil_events" --no-reconnect --events "$gestures" </dev/null >"$work/nobody.json" 2>"$work/nobody.err" ||
    { echo "FAIL: the subscriber failed: $(cat "$work/nobody.err")"; status=1; }
wait "$daemon_pid" || true
daemon_pid=""
expect_focus "$work/nobody.json" none "nobody claimed focus"
exit "$status"
