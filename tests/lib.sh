# shellcheck shell=bash
# Sourced by the test tiers that run on this machine (not inside a VM):
#   wait_for SECONDS COMMAND...
#                  polls COMMAND until it succeeds; status 1 once SECONDS have passed
#   pass NAME [DETAIL] / fail NAME [DETAIL]
#                  one result, "  ok: NAME: DETAIL" or "  FAIL: NAME: DETAIL", counted in
#                  $passed and $failed
#   check NAME COMMAND...
#                  pass NAME when COMMAND succeeds, fail NAME otherwise
#   summary        the closing line "N passed, N failed"; status 1 when one failed
#   start_pencild SOCKET LOG [ARGS...]
#                  $pencild (under $pencild_wrapper, when set) on SOCKET with ARGS, its
#                  errors appended to LOG; returns once it answers $pencilctl there (at most
#                  30 s), and fails with its log if it exits first. Its pid: $pencild_pid.

passed=0
failed=0
pencild_pid=""
pencild_wrapper=()

wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "waited ${seconds} s in vain for: $*" >&2
            return 1
        fi
        sleep 0.05
    done
}

# "NAME" alone, or "NAME: DETAIL".
result_text() { if [ -n "${2:-}" ]; then echo "$1: $2"; else echo "$1"; fi; }
pass() { echo "  ok: $(result_text "$@")"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $(result_text "$@")"; failed=$((failed + 1)); }

check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

summary() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

start_pencild() {
    local socket=$1 log=$2
    shift 2
    rm -f "$socket"
    "${pencild_wrapper[@]}" "${pencild:?set pencild to the path of pencild}" --socket "$socket" "$@" </dev/null 2>>"$log" &
    pencild_pid=$!
    # Not wait_for: a pencild that has exited will never answer, and says why in its log.
    local deadline=$((SECONDS + 30))
    until PENCILD_SOCKET=$socket "${pencilctl:?set pencilctl to its path}" prefs get >/dev/null 2>&1; do
        if ! kill -0 "$pencild_pid" 2>/dev/null; then
            echo "pencild exited before it answered on $socket; its log:" >&2
            cat "$log" >&2
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "pencild did not answer on $socket within 30 s; its log:" >&2
            cat "$log" >&2
            return 1
        fi
        sleep 0.05
    done
}
