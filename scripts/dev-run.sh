#!/usr/bin/env bash
# dev-run.sh BIN_DIR [--demo-pen] [COMMAND [ARGUMENT...]]
#
# Runs a freshly built pencild by hand and shows the pen in `pencilctl watch`, or runs
# COMMAND with PENCILD_SOCKET set (`make demo`: the sketch demo). It listens where every
# client looks first with nothing set, the user's own $XDG_RUNTIME_DIR/pencild.sock, when
# nothing answers there; else on a private socket, and it says why. Its preferences are
# kept in a scratch folder, never the user's own. Real pens are used when this user can
# read them; otherwise (or as well as none) the daemon's demo pen draws by itself, and
# makes a gesture when asked (d and s in the watch; the commands are printed); --demo-pen
# adds the demo pen in any case.
# pencild is stopped and its files removed when watch or COMMAND exits (q or Ctrl-C).
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR [--demo-pen] [COMMAND [ARGUMENT...]]}
shift
always_demo=""
if [ "${1:-}" = --demo-pen ]; then
    always_demo=yes
    shift
fi
command=("$@")
[ "${#command[@]}" -gt 0 ] || command=("$bin/pencilctl" watch)
for program in pencild pencilctl; do
    [ -x "$bin/$program" ] || { echo "dev-run: $bin/$program is missing: build first" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pencild-run.XXXXXX")
log="$work/pencild.log"

# The socket: the user's own where it is free, so that pencilctl, the settings window and
# Krita find this pencild as they are started; else a private one, and why.
socket="$work/pencild.sock"
why_private=""
own="${XDG_RUNTIME_DIR:-}/pencild.sock"
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ] || [ ! -w "$XDG_RUNTIME_DIR" ]; then
    why_private="XDG_RUNTIME_DIR is not set to a folder of yours, so clients look for the system's pencild"
elif [ -e "$own" ] && [ ! -S "$own" ]; then
    why_private="$own is there and is not a socket"
elif [ -S "$own" ] && ! { PENCILD_SOCKET="$own" "$bin/pencilctl" devices 2>&1 >/dev/null || true; } | grep -q 'Connection refused'; then
    # Something is there (it answered, or failed some other way): never take its socket.
    why_private="your own pencild already answers on $own (systemctl --user stop pencild.socket pencild.service leaves it to this one)"
else
    # Nothing listens there: a socket left by a pencild that ended without removing it.
    rm -f "$own"
    socket=$own
fi
daemon_pid=""

stop() {
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid"
        wait "$daemon_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

# Pens this user can open: tablets that are not pads, readable now.
readable=()
unreadable=()
for node in /dev/input/event*; do
    [ -e "$node" ] || continue
    properties=$(udevadm info --query=property --name="$node" 2>/dev/null || true)
    grep -qx 'ID_INPUT_TABLET=1' <<<"$properties" || continue
    grep -qx 'ID_INPUT_TABLET_PAD=1' <<<"$properties" && continue
    if [ -r "$node" ]; then readable+=("$node"); else unreadable+=("$node"); fi
done

flags=(--socket "$socket" --state-dir "$work/state")
if [ "${#readable[@]}" -gt 0 ]; then
    echo "dev-run: pens: ${readable[*]}"
    [ -z "$always_demo" ] || flags+=(--demo)
else
    if [ "${#unreadable[@]}" -gt 0 ]; then
        echo "dev-run: cannot read ${unreadable[*]}: join the 'input' group or install the udev rule (docs/troubleshooting.md)"
    fi
    echo "dev-run: no pen to read: using the demo pen"
    flags+=(--demo)
fi
mkdir -p "$work/state"

"$bin/pencild" "${flags[@]}" 2>"$log" &
daemon_pid=$!

# Wait for the socket (the daemon creates it before it is ready for clients).
for _ in $(seq 100); do
    [ -S "$socket" ] && break
    if ! kill -0 "$daemon_pid" 2>/dev/null; then
        echo "dev-run: pencild exited early; its log:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done
[ -S "$socket" ] || { echo "dev-run: pencild did not create $socket in 10 s; its log:" >&2; cat "$log" >&2; exit 1; }

echo "dev-run: pencild (pid $daemon_pid) on $socket, log in $log"
set_socket=""
if [ -n "$why_private" ]; then
    echo "dev-run: on a private socket: $why_private"
    set_socket="PENCILD_SOCKET=$socket "
else
    echo "dev-run: every client started as $(id -un) finds it with nothing set: pencilctl, the settings window, Krita"
fi
if [[ " ${flags[*]} " == *" --demo "* ]]; then
    echo "dev-run: the demo pen makes a gesture when asked: d and s in the watch, or from another terminal:"
    echo "  $set_socket$bin/pencilctl try double-tap    (or: try squeeze)"
fi
PENCILD_SOCKET="$socket" "${command[@]}"
