#!/usr/bin/env bash
# run.sh BIN_DIR: `make run` as a person without a tablet meets it (`make test-make-run`).
# scripts/dev-run.sh in a tmux terminal, with nothing set but the person's own
# XDG_RUNTIME_DIR (no PENCILD_SOCKET):
#   - the watch shows the demo pen and says that d and s make its gestures; d does, and the
#     gesture line shows the double-tap;
#   - pencilctl, typed in a second terminal with nothing set, finds that pencild;
#   - q ends it and leaves no socket behind; a socket a pencild that ended left behind is taken over;
#   - the control: with the person's own pencild already answering there, make run's pencild
#     listens on a private socket, says why, and the second terminal still reaches the own one.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tier=test-make-run
# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"
pencild=$bin/pencild
pencilctl=$bin/pencilctl
for program in "$pencild" "$pencilctl"; do
    [ -x "$program" ] || { echo "$tier: $program is missing: build first" >&2; exit 1; }
done
if ! command -v tmux >/dev/null; then
    echo "$tier: FAIL: tmux is not installed (apt-get install tmux)" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pencild-make-run.XXXXXX")
runtime=$work/runtime
install -d -m 0700 "$runtime"
cleanup() {
    make_run_tmux kill-server 2>/dev/null || true
    if [ -n "$pencild_pid" ]; then kill -TERM "$pencild_pid" 2>/dev/null || true; wait "$pencild_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The person's terminals: their own runtime folder, and nothing of this run's environment.
person() { env -u PENCILD_SOCKET XDG_RUNTIME_DIR="$runtime" TMPDIR="$work" "$@"; }
start_make_run() { make_run_terminal "$bin" "$runtime" "$work"; }
screen() { make_run_screen "$@"; }
terminal() { make_run_said "$@"; }
# quit_make_run NAME SOCKET SAID: q ends make run, whose pencild had listened on SOCKET (a grep
# pattern) and which had said SAID (another).
quit_make_run() {
    make_run_tmux send-keys -t make-run q
    if wait_for 30 terminal '^dev-run-exited-0' && grep -q "^dev-run: pencild (pid [0-9]*) on $2," "$work/terminal.txt" &&
        grep -q -- "$3" "$work/terminal.txt"; then
        pass "$1" "$(grep -- "$3" "$work/terminal.txt")"
    else
        fail "$1" "$(tr '\n' ' ' <"$work/terminal.txt" | cut -c1-400)"
    fi
}

echo "$tier: make run with nothing set"
start_make_run
if wait_for 60 screen 'd double-tap, s squeeze'; then
    pass "the watch shows the demo pen and its keys" "$(head -n 1 "$work/screen.txt")"
else
    fail "the watch shows the demo pen and its keys" "$(tr '\n' ' ' <"$work/screen.txt" | cut -c1-400)"
fi
check "the watch says how to make a gesture without a pen" grep -q 'press d and the demo pen double-taps' "$work/screen.txt"
if person "$pencilctl" devices >"$work/devices.txt" 2>&1 && grep -q '^demo0' "$work/devices.txt"; then
    pass "pencilctl in a second terminal, with nothing set, finds it" "$(head -n 1 "$work/devices.txt")"
else
    fail "pencilctl in a second terminal, with nothing set, finds it" "$(tr '\n' ' ' <"$work/devices.txt")"
fi
make_run_tmux send-keys -t make-run d
if wait_for 30 screen '^gesture   doubleTap'; then
    pass "d: the demo pen double-taps, in the watch" "$(grep '^gesture' "$work/screen.txt")"
else
    fail "d: the demo pen double-taps, in the watch" "$(grep -E '^(gesture|status)' "$work/screen.txt" | tr '\n' ' ')"
fi
quit_make_run "q ends make run, which had listened on the person's own socket and said so" "$runtime/pencild.sock" \
    '^dev-run: every client started as .* finds it with nothing set'
check "no socket is left behind" test ! -e "$runtime/pencild.sock"
make_run_tmux kill-session -t make-run 2>/dev/null || true

echo "$tier: make run where a pencild that ended left its socket (nothing listens there)"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$runtime/pencild.sock"
if person "$repo/scripts/dev-run.sh" "$bin" true >"$work/stale.txt" 2>&1 &&
    grep -q "^dev-run: pencild (pid [0-9]*) on $runtime/pencild.sock," "$work/stale.txt" && [ ! -e "$runtime/pencild.sock" ]; then
    pass "it takes the left socket's place, and leaves none behind" "$(grep 'nothing set' "$work/stale.txt")"
else
    fail "it takes the left socket's place, and leaves none behind" "$(tr '\n' ' ' <"$work/stale.txt" | cut -c1-400)"
fi

echo "$tier: make run while the person's own pencild answers on their socket (the control)"
pencild_log=$work/own-pencild.log
start_pencild "$runtime/pencild.sock" "$pencild_log" --state-dir "$work/own-state" --no-udev
start_make_run
if wait_for 60 screen 'd double-tap, s squeeze'; then
    pass "the watch shows the demo pen" "$(head -n 1 "$work/screen.txt")"
else
    fail "the watch shows the demo pen" "$(tr '\n' ' ' <"$work/screen.txt" | cut -c1-400)"
fi
if person "$pencilctl" devices >"$work/devices.txt" 2>&1 && ! grep -q '^demo0' "$work/devices.txt"; then
    pass "the second terminal still reaches the person's own pencild, which has no demo pen" "$(tr '\n' ' ' <"$work/devices.txt" | cut -c1-120)"
else
    fail "the second terminal still reaches the person's own pencild, which has no demo pen" "$(tr '\n' ' ' <"$work/devices.txt")"
fi
quit_make_run "q ends make run, which had said why its socket was a private one" "$work/pencild-run\.[^/]*/pencild.sock" \
    "on a private socket: your own pencild already answers on $runtime/pencild.sock"
check "the person's own socket is still theirs" person "$pencilctl" prefs get >/dev/null

summary
