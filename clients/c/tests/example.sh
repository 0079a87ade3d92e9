#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# example.sh PENCIL_GESTURES PAGE: the C example of docs/clients.md, the PAGE given
# (examples/pencil-gestures.c, the same text under "### C"), prints the double-tap and the
# squeeze of a replayed pen with their phases and actions, as `pencilctl events` has them.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
example=${1:?usage: $0 PENCIL_GESTURES PAGE}
page=${2:?usage: $0 PENCIL_GESTURES PAGE}
source_file=$(dirname "$0")/../examples/pencil-gestures.c

# The page shows the file as it is.
awk '/^### C$/ { section = 1; next } /^##/ { section = 0 } section && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit } inside' "$page" >"$work/page.c"
if ! diff -u "$source_file" "$work/page.c" >"$work/page.diff"; then
    echo "FAIL: $(basename "$page")'s C example differs from examples/pencil-gestures.c:"
    cat "$work/page.diff"
    exit 1
fi
echo "ok: $(basename "$page") shows examples/pencil-gestures.c"

RECORDING_NAME="Example Pen" write_recording "$work/pen.evemu"
"$pencilctl" events "$work/pen.evemu" | python3 -c '
import json, sys
for line in sys.stdin:
    event = json.loads(line)
    if event["type"] in ("doubleTap", "squeeze"):
        print(event["type"], event.get("phase", "-"), event.get("action", "-"))
' >"$work/expected.txt"
grep -q '^doubleTap - ' "$work/expected.txt" && grep -q '^squeeze ended ' "$work/expected.txt" ||
    { echo "FAIL: the test recording has no double-tap and squeeze: $(cat "$work/expected.txt")"; exit 1; }

start_pencild --replay "$work/pen.evemu" --speed max --exit-after-replay
"$example" </dev/null >"$work/example.txt" 2>"$work/example.err" &
example_pid=$!
background_pids=("$example_pid")
wait "$daemon_pid" || { echo "FAIL: pencild exited with $?"; exit 1; }
daemon_pid=""
# pencild has sent everything and left; the example keeps running (it waits for pencild
# to come back) and is stopped once it has printed as many lines as expected.
has_all() { [ "$(wc -l <"$work/example.txt")" -ge "$(wc -l <"$work/expected.txt")" ]; }
wait_for 10 has_all
kill "$example_pid"
wait "$example_pid" 2>/dev/null || true
background_pids=()  # read by cleanup
if diff -u "$work/expected.txt" "$work/example.txt"; then
    echo "ok: the example printed $(wc -l <"$work/example.txt") gestures: $(tr '\n' ';' <"$work/example.txt")"
else
    echo "FAIL: the example's output differs (above); its errors: $(cat "$work/example.err")"
    exit 1
fi
