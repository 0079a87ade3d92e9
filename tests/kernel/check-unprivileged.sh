#!/usr/bin/env bash
# Inside the VM (tests/kernel/vm-run.sh tests/kernel/check-unprivileged.sh):
# can a test run code as an ordinary user in group "input", the way pencild
# is meant to run? Expected: it can read evdev nodes, and cannot open
# /dev/uinput (root only).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="${VM_RESULTS:-$(mktemp -d)}/unprivileged"
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d)   # fifos cannot live on the shared (9p) folder
chmod 755 "$work"
pen_pid=""
cleanup() { exec 3>&- 2>/dev/null || true; [ -z "$pen_pid" ] || wait "$pen_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "check-unprivileged: FAIL: $*" >&2; exit 1; }

# try_open PATH FLAG RUNNER...: open PATH with os.FLAG as the user that
# RUNNER switches to, and print the outcome.
try_open() {
    local path=$1 flag=$2
    shift 2
    "$@" python3 -c 'import os, sys
try:
    os.close(os.open(sys.argv[1], getattr(os, sys.argv[2])))
    print("open ok")
except OSError as e:
    print("open failed:", e.strerror)' "$path" "$flag"
}

mkfifo "$work/pen.fifo"
python3 "$here/virtual_pen.py" pen --name "Unprivileged Test Pen" --node-file "$work/node" \
    <"$work/pen.fifo" >"$out/pen.log" 2>&1 &
pen_pid=$!
exec 3>"$work/pen.fifo"
for ((i = 0; i < 200; i++)); do [ -e "$work/node" ] && break; sleep 0.05; done
node=$(cat "$work/node")
udevadm settle --timeout=30
echo "check-unprivileged: pen at $node: $(stat -c '%A %U:%G' "$node")"

# 1. A named user, created with useradd.
bash "$here/guest-add-user.sh" pentester input
r1=$(try_open "$node" O_RDONLY runuser -u pentester --)
r2=$(try_open /dev/uinput O_WRONLY runuser -u pentester --)
echo "check-unprivileged: runuser -u pentester: $(runuser -u pentester -- id)"
echo "check-unprivileged:   read $node: $r1"
echo "check-unprivileged:   write /dev/uinput: $r2"
[ "$r1" = "open ok" ] || fail "pentester cannot read $node"
[ "$r2" != "open ok" ] || fail "pentester could open /dev/uinput: root-only expected"

# 2. No user entry at all: setpriv with a bare uid and the input group.
input_gid=$(getent group input | cut -d: -f3)
as_4242=(setpriv --reuid=4242 --regid=4242 --groups="$input_gid" --inh-caps=-all --)
r3=$(try_open "$node" O_RDONLY "${as_4242[@]}")
echo "check-unprivileged: setpriv uid 4242: $("${as_4242[@]}" id)"
echo "check-unprivileged:   read $node: $r3"
[ "$r3" = "open ok" ] || fail "uid 4242 in group input cannot read $node"

echo "check-unprivileged: PASS"
