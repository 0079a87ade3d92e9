#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# recordings.sh PENCIL_EVENTS COMPARE: for every shared recording, the events libpencil
# yields from a pencild replaying it equal what `pencilctl events` prints for it.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
pencil_events=${1:?usage: $0 PENCIL_EVENTS COMPARE}
compare=${2:?usage: $0 PENCIL_EVENTS COMPARE}

recordings >"$work/recordings.list"
count=0
while IFS=$'\t' read -r recording desc; do
    name=$(basename "$recording")
    replay=(--replay "$recording")
    offline=("$recording")
    if [ -n "$desc" ]; then
        replay+=(--replay-desc "$desc")
        offline+=(--desc "$desc")
    fi
    "$pencilctl" events "${offline[@]}" >"$work/expected.json"
    start_pencild "${replay[@]}" --speed max --exit-after-replay
    if ! client "$pencil_events" --no-reconnect </dev/null >"$work/actual.json" 2>"$work/client.err"; then
        fail "$name" "pencil-events failed: $(cat "$work/client.err")"
    elif result=$(python3 "$compare" "$work/expected.json" "$work/actual.json"); then
        pass "$name" "$result"
    else
        fail "$name" $'\n'"$(sed 's/^/    /' <<<"$result")"
    fi
    wait "$daemon_pid" || fail "$name" "pencild exited with $?"
    daemon_pid=""
    count=$((count + 1))
done <"$work/recordings.list"

[ "$count" -gt 0 ] || { echo "FAIL: no recordings were compared"; exit 1; }
echo "$count recordings"
summary
