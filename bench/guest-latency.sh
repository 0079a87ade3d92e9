#!/usr/bin/env bash
# guest-latency.sh BIN_DIR PROBE PATTERN   (inside the VM: bench/run.sh starts it)
#
# Latency from each evdev frame's kernel timestamp to its receipt, for three readers of the
# same emulated pen, one after the other in this one VM run:
#   floor     a bare evdev reader (probe evdev)
#   pencild   a varlink client of pencild (probe monitor), pencild finding the pen through udev
#   libinput  `libinput debug-events` through a pipe (probe lines)
# Each run plays PATTERN with `pencilctl emulate` and also has a bare evdev reader on the
# node, so every run carries the same extra load, and the libinput run gets its frames'
# kernel timestamps (debug-events prints only milliseconds since it started).
set -euo pipefail

bin=${1:?usage: guest-latency.sh BIN_DIR PROBE PATTERN}
probe=${2:?}
pattern=${3:?}
out=${VM_RESULTS:?runs inside the VM (vm-run.sh sets VM_RESULTS)}
work=$(mktemp -d)   # fifos cannot live on the shared (9p) folder
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
note() { echo "latency: $*"; }

# Plays the pattern and starts a bare reader on the node; waits for both.
# play NAME: writes $out/NAME-evdev.txt
play() {
    local name=$1 node reader
    mkfifo "$work/$name.node"
    "$bin/pencilctl" emulate "$pattern" --settle 3 >"$work/$name.node" 2>"$out/$name-emulate.log" &
    local emulate=$!
    read -r node <"$work/$name.node"
    "$probe" evdev "$node" "$out/$name-evdev.txt" &
    reader=$!
    wait "$emulate"
    wait "$reader"
    note "$name: $(wc -l <"$out/$name-evdev.txt") frames read from $node; $(tail -n 1 "$out/$name-emulate.log")"
}

uname -r | sed 's/^/latency: kernel /'
libinput --version | sed 's/^/latency: libinput /'

# 1. The floor.
play floor

# 2. pencild, as root, with its own socket; the client subscribes before the pen appears.
socket=/run/pencild-bench/pencild.sock
"$bin/pencild" --socket "$socket" --state-dir /run/pencild-bench/state >"$out/pencild.log" 2>&1 &
pids+=($!)
pencild=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { note "pencild did not start"; cat "$out/pencild.log"; exit 1; }
"$probe" monitor "$socket" "$out/pencild-monitor.txt" &
client=$!
play pencild
wait "$client" || { note "the pencild client failed"; exit 1; }
kill "$pencild"; wait "$pencild" || true
note "pencild: $(grep -c '^motion ' "$out/pencild-monitor.txt" || true) motion events received"

# 3. libinput, through udev like a compositor, line-buffered into a pipe.
mkfifo "$work/libinput.pipe"
"$probe" lines "$out/libinput-lines.txt" <"$work/libinput.pipe" &
lines=$!
stdbuf -oL libinput debug-events --udev seat0 >"$work/libinput.pipe" 2>"$out/libinput.err" &
libinput=$!
pids+=("$libinput")
sleep 3   # libinput's start under emulation
play libinput
sleep 1
kill "$libinput"; wait "$libinput" 2>/dev/null || true
wait "$lines"
note "libinput: $(grep -c 'TABLET_TOOL_AXIS' "$out/libinput-lines.txt" || true) axis events received"
