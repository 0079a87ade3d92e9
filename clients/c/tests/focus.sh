#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# focus.sh PENCIL_EVENTS: protocol.md "Which app acts". Of two subscribers of one user,
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
start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay --wait-monitors 2
spawn "$pencil_events" --no-reconnect --focus --events "$gestures" </dev/null >"$work/claimed.json" 2>"$work/claimed.err"
claimed=$!
spawn "$pencil_events" --no-reconnect --events "$gestures" </dev/null >"$work/unclaimed.json" 2>"$work/unclaimed.err"
unclaimed=$!
helper_pids=("$claimed" "$unclaimed")
wait "$claimed" || { echo "FAIL: the claiming subscriber failed: $(cat "$work/claimed.err")"; status=1; }
wait "$unclaimed" || { echo "FAIL: the other subscriber failed: $(cat "$work/unclaimed.err")"; status=1; }
helper_pids=()  # read by cleanup
wait "$daemon_pid" || true
daemon_pid=""
if count=$(all_focus "$work/claimed.json" this); then
    echo "ok: the subscriber that claimed focus: $count gestures, each with focus this"
else
    echo "FAIL: the claiming subscriber: $count"; status=1
fi
if count=$(all_focus "$work/unclaimed.json" other); then
    echo "ok: the other subscriber: $count gestures, each with focus other"
else
    echo "FAIL: the other subscriber: $count"; status=1
fi

start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay
client "$pencil_events" --no-reconnect --events "$gestures" </dev/null >"$work/nobody.json" 2>"$work/nobody.err" ||
    { echo "FAIL: the subscriber failed: $(cat "$work/nobody.err")"; status=1; }
wait "$daemon_pid" || true
daemon_pid=""
if count=$(all_focus "$work/nobody.json" none); then
    echo "ok: nobody claimed focus: $count gestures, each with focus none"
else
    echo "FAIL: with no claim: $count"; status=1
fi
exit "$status"
