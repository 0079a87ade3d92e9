#!/usr/bin/env bash
# Checks, on a real kernel with udev, what no container can show: run inside the test VM
#   tests/kernel/vm-run.sh tests/packaging/vm-udev-record.sh [BIN_DIR]
# (make test-kernel does). A virtual pen (uinput) must get 70-pencild.rules' marks from
# udev (the pencild tag, SYSTEMD_WANTS and SYSTEMD_USER_WANTS of pencild-pen.target) and no
# uaccess tag, which only the user-mode example 71-pencild-user-mode.rules adds, once it is
# in udev's directory; no other input node may be marked, and `pencilctl record` must record
# the pen's stroke in a file that `pencilctl events` reads back as the same stroke.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$repo/.build/debug}
pen_py=$repo/tests/kernel/virtual_pen.py
work=$(mktemp -d)
fail() { echo "vm-udev-record: FAIL: $*" >&2; exit 1; }
ok() { echo "vm-udev-record: ok: $*"; }

[ -x "$bin/pencilctl" ] || fail "$bin/pencilctl is missing: build first"
[ -f "$pen_py" ] || fail "$pen_py is missing"

# The rule goes where udev reads runtime rules; the machine's own files stay untouched.
mkdir -p /run/udev/rules.d
cp "$repo/udev-rules/70-pencild.rules" /run/udev/rules.d/
udevadm control --reload

pen_pid=""
cleanup() {
    exec 3>&- 2>/dev/null || true
    [ -n "$pen_pid" ] && wait "$pen_pid" 2>/dev/null
    rm -f /run/udev/rules.d/70-pencild.rules /run/udev/rules.d/71-pencild-user-mode.rules
    rm -rf "$work"
}
trap cleanup EXIT

mkfifo "$work/pen.fifo"
python3 "$pen_py" pen --name "Rule Test Pen" --node-file "$work/node" <"$work/pen.fifo" >"$work/pen.log" 2>&1 &
pen_pid=$!
exec 3>"$work/pen.fifo"
for _ in $(seq 200); do [ -s "$work/node" ] && break; sleep 0.05; done
[ -s "$work/node" ] || { cat "$work/pen.log" >&2; fail "the virtual pen was not created"; }
node=$(cat "$work/node")
udevadm settle --timeout=30

udevadm info --query=all --name="$node" >"$work/udev.txt"
grep -q '^E: ID_INPUT_TABLET=1$' "$work/udev.txt" || { cat "$work/udev.txt"; fail "$node is not ID_INPUT_TABLET=1"; }
tags=$(sed -n 's/^E: TAGS=//p' "$work/udev.txt")
for tag in pencild systemd; do
    case $tags in *":$tag:"*) ;; *) cat "$work/udev.txt"; fail "$node lacks the $tag tag (TAGS=$tags)" ;; esac
done
case $tags in *":uaccess:"*) cat "$work/udev.txt"; fail "70-pencild.rules tags $node uaccess (TAGS=$tags): the seat's user would get an ACL" ;; esac
grep -q '^E: SYSTEMD_WANTS=.*pencild-pen.target' "$work/udev.txt" || fail "no SYSTEMD_WANTS=pencild-pen.target on $node"
grep -q '^E: SYSTEMD_USER_WANTS=.*pencild-pen.target' "$work/udev.txt" || fail "no SYSTEMD_USER_WANTS=pencild-pen.target on $node"
ok "udev marks $node: TAGS=$tags, SYSTEMD_WANTS and SYSTEMD_USER_WANTS pencild-pen.target, no uaccess"

# The administrator's opt-in for a user-mode pencild: with the example in udev's directory,
# a change event tags the pen uaccess (CURRENT_TAGS: what this event's rules set).
cp "$repo/udev-rules/71-pencild-user-mode.rules" /run/udev/rules.d/
udevadm control --reload
udevadm trigger --action=change "$node"
udevadm settle --timeout=30
current=$(udevadm info --query=property --name="$node" | sed -n 's/^CURRENT_TAGS=//p')
# Each tag on its own: udev lists them in any order, and two neighbours share one colon.
case $current in *":uaccess:"*) ;; *) fail "with 71-pencild-user-mode.rules $node has CURRENT_TAGS=$current, without uaccess" ;; esac
case $current in *":pencild:"*) ;; *) fail "with 71-pencild-user-mode.rules $node has CURRENT_TAGS=$current, without pencild" ;; esac
ok "with the user-mode example in /run/udev/rules.d, $node is tagged uaccess (CURRENT_TAGS=$current)"

# Every other input node (keyboards, the VM's devices) must carry none of the marks.
for other in /dev/input/event*; do
    [ "$other" = "$node" ] && continue
    if udevadm info --query=property --name="$other" | grep -q 'pencild-pen.target'; then
        fail "$other, not a pen, wants pencild-pen.target"
    fi
done
ok "no other input node is marked"

# Record while the pen draws a stroke and double-clicks, then read the file back.
"$bin/pencilctl" record "$node" --duration 8 >"$work/pen.evemu" 2>"$work/record.err" &
record_pid=$!
# It says so on stderr once the device is open and its header written.
for _ in $(seq 300); do grep -q '^pencilctl record: recording' "$work/record.err" && break; sleep 0.05; done
grep -q '^pencilctl record: recording' "$work/record.err" || { cat "$work/record.err" >&2; fail "pencilctl record did not start"; }
echo stroke >&3
echo stylus >&3
echo stylus >&3
wait "$record_pid" || { cat "$work/record.err" >&2; fail "pencilctl record failed"; }
grep -q '^N: Rule Test Pen$' "$work/pen.evemu" || fail "the recording's header does not name the pen"
"$bin/pencilctl" events "$work/pen.evemu" >"$work/events.json" || fail "pencilctl events cannot read the recording"
for type in deviceAdded proximityIn tipDown tipUp buttonDown buttonUp proximityOut deviceRemoved; do
    grep -q "\"type\":\"$type\"" "$work/events.json" || { cat "$work/pen.evemu"; fail "the recording replays without $type"; }
done
ok "pencilctl record: $(grep -c '^E:' "$work/pen.evemu") events, read back with tipDown, buttons and proximityOut"

if [ -n "${VM_RESULTS:-}" ]; then cp "$work/pen.evemu" "$VM_RESULTS/recorded-pen.evemu"; fi
echo "vm-udev-record: PASS"
