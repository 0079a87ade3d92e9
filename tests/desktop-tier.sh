# shellcheck shell=bash
# Sourced by the tiers that run a program beside pencild (the sketch demo, Krita with its
# plugin, the settings window). With $tier set to the tier's name:
#   cannot WHY          a prerequisite is missing: fails under CI=true, skips elsewhere
#   begin_scratch       makes $work (removed at exit) and $pids: the processes the tier
#                       started, ended at exit by their ids, and only those
#   stop_started        ends the processes in $pids (end_scratch does, before removing $work)
#   start_xvfb SIZE     a private X display of SIZE (WIDTHxHEIGHTxDEPTH), whose number Xvfb
#                       picks; exports DISPLAY, adds Xvfb to $pids, its log in $work/xvfb.log
# and what tests/lib.sh gives (wait_for, pass, fail, check, summary, start_pencild).

: "${tier:?set tier to the name of the tier before sourcing desktop-tier.sh}"
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cannot() {
    if [ "${CI:-}" = true ]; then echo "$tier: FAIL: cannot run: $*" >&2; exit 1; fi
    echo "$tier: skipped: $*" >&2
    exit 0
}

begin_scratch() {
    work=$(mktemp -d)
    pids=()
    trap end_scratch EXIT
}

stop_started() {
    local pid
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}

end_scratch() {
    stop_started
    rm -rf "$work"
}

start_xvfb() {
    # -noreset: by default Xvfb resets when its last client leaves, and a program that
    # connects while it does (the next one a tier starts) is turned away.
    Xvfb -displayfd 3 -screen 0 "$1" -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
    pids+=("$!")
    wait_for 30 test -s "$work/display"
    DISPLAY=:$(tr -d '[:space:]' <"$work/display")
    export DISPLAY
}
