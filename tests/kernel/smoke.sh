#!/usr/bin/env bash
# Smoke test for the VM tier, run inside the VM by vm-run.sh:
#   tests/kernel/vm-run.sh tests/kernel/smoke.sh
# Creates a virtual tablet pen through uinput, checks that udev tags its
# evdev node as a tablet, and reads a stroke back from that node.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pen_py="$here/virtual_pen.py"
out="${VM_RESULTS:-$(mktemp -d)}/smoke"
rm -rf "$out"; mkdir -p "$out"
# Fifos cannot live on the shared (9p) results folder: keep them local.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

t0=$(date +%s.%N)
step() { awk -v now="$(date +%s.%N)" -v t0="$t0" -v msg="$*" 'BEGIN { printf "smoke: [%5.2fs] %s\n", now - t0, msg }'; }
# wait_for from tests/lib.sh: the VM runs over this machine's filesystem, the repository
# included. This script's fail ends it at the first failure.
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
fail() { echo "smoke: FAIL: $*" >&2; exit 1; }

[ -c /dev/uinput ] || fail "/dev/uinput is not a character device"
step "/dev/uinput present"

# The pen process takes commands on a fifo; holding fd 3 open keeps it (and
# the device) alive, closing it destroys the device.
mkfifo "$work/pen.fifo"
python3 "$pen_py" pen --name "Smoke Test Pen" --node-file "$out/node" \
    <"$work/pen.fifo" >"$out/pen.log" 2>&1 &
pen_pid=$!
exec 3>"$work/pen.fifo"
wait_for 10 test -e "$out/node" || { cat "$out/pen.log" >&2; fail "pen device was not created"; }
node=$(cat "$out/node")
step "uinput pen created: $node"

# udev must have processed the new device: it sets ID_INPUT_TABLET from the
# device's capabilities (input_id builtin).
udevadm settle --timeout=30
[ -c "$node" ] || fail "$node is not a character device"
udevadm info --query=property --name="$node" >"$out/udev.txt"
grep -qx 'ID_INPUT_TABLET=1' "$out/udev.txt" || { cat "$out/udev.txt" >&2; fail "udev did not tag $node with ID_INPUT_TABLET=1"; }
step "udev: $(grep -E '^(ID_INPUT|ID_INPUT_TABLET|DEVNAME)=' "$out/udev.txt" | tr '\n' ' ')"

# Read the node while the pen draws a stroke and clicks its side button.
python3 "$pen_py" read "$node" --ready-file "$work/reader.ready" --until-key 0x14b --timeout 20 \
    >"$out/events.txt" 2>"$out/reader.err" &
reader_pid=$!
wait_for 10 test -e "$work/reader.ready" || fail "event reader did not start"
echo stroke >&3
echo stylus >&3
wait "$reader_pid" || { cat "$out/reader.err" >&2; fail "did not read the expected events from $node"; }
for expected in "EV_KEY BTN_TOOL_PEN 1" "EV_KEY BTN_TOUCH 1" "EV_ABS ABS_PRESSURE 5000" \
                "EV_KEY BTN_TOUCH 0" "EV_KEY BTN_TOOL_PEN 0" "EV_KEY BTN_STYLUS 1"; do
    grep -qx "$expected" "$out/events.txt" || fail "missing event '$expected' (see $out/events.txt)"
done
step "read $(grep -c . "$out/events.txt") events back from $node"

exec 3>&-   # end of commands: the pen destroys its device
wait "$pen_pid" || { cat "$out/pen.log" >&2; fail "pen process failed"; }
for ((i = 0; i < 100; i++)); do [ -e "$node" ] || break; sleep 0.05; done
[ ! -e "$node" ] || fail "$node still exists after the device was destroyed"
step "pen destroyed, $node removed"

echo "smoke: PASS"
