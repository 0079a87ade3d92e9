#!/usr/bin/env bash
# Inside the VM (tests/kernel/vm-run.sh tests/kernel/check-libinput.sh):
# does libinput, through udev like a compositor would, see the virtual pen
# as a tablet tool and report its stroke?
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="${VM_RESULTS:-$(mktemp -d)}/libinput"
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d)   # fifos cannot live on the shared (9p) folder
pen_pid="" li_pid=""
cleanup() {
    exec 3>&- 2>/dev/null || true
    [ -z "$li_pid" ] || kill "$li_pid" 2>/dev/null || true
    [ -z "$pen_pid" ] || wait "$pen_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# wait_for from tests/lib.sh: the VM runs over this machine's filesystem, the repository
# included. This script's fail ends it at the first failure.
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
fail() { echo "check-libinput: FAIL: $*" >&2; exit 1; }

command -v libinput >/dev/null || fail "libinput not installed (Debian package libinput-tools)"
libinput --version | sed 's/^/check-libinput: libinput /'

mkfifo "$work/pen.fifo"
python3 "$here/virtual_pen.py" pen --name "Libinput Test Pen" --node-file "$work/node" \
    <"$work/pen.fifo" >"$out/pen.log" 2>&1 &
pen_pid=$!
exec 3>"$work/pen.fifo"
wait_for 10 test -e "$work/node" || fail "pen device was not created"
node=$(cat "$work/node")
udevadm settle --timeout=30
echo "check-libinput: pen at $node"

libinput list-devices >"$out/list-devices.txt" 2>&1 || true
grep -A 12 'Libinput Test Pen' "$out/list-devices.txt" | sed 's/^/    /' || fail "pen missing from libinput list-devices"

# udev backend (seat0), as a compositor would use it. Line-buffered so the
# log can be polled while it runs.
stdbuf -oL libinput debug-events >"$out/debug-events.txt" 2>&1 &
li_pid=$!
wait_for 20 grep -q 'Libinput Test Pen' "$out/debug-events.txt" || fail "libinput did not add the pen (see $out/debug-events.txt)"
echo stroke >&3
echo stylus >&3
# Both gestures end with proximity-out: wait for the second one.
both_done() { [ "$(grep -c proximity-out "$out/debug-events.txt")" -ge 2 ]; }
wait_for 20 both_done || true
kill "$li_pid"; wait "$li_pid" 2>/dev/null || true; li_pid=""

sed 's/^/    /' "$out/debug-events.txt"
for expected in DEVICE_ADDED TABLET_TOOL_PROXIMITY TABLET_TOOL_TIP TABLET_TOOL_AXIS TABLET_TOOL_BUTTON; do
    grep -q "$expected" "$out/debug-events.txt" || fail "no $expected in libinput debug-events output"
done
echo "check-libinput: PASS"
