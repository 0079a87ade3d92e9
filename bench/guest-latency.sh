#!/usr/bin/env bash
# guest-latency.sh BIN_DIR PROBE PATTERN [ROUNDS]   (inside the VM: bench/run.sh starts it)
#
# Latency from each evdev frame's kernel timestamp to its receipt, for four readers of the
# same emulated pen, one after the other in this one VM run:
#   floor     a bare evdev reader (probe evdev)
#   pencild   a varlink client of pencild (probe monitor), pencild finding the pen through udev
#   libinput  `libinput debug-events` through a pipe (probe lines)
#   mirror    the same libinput, while a user's pencild with withholdGestureClicks grabs the
#             pen and libinput reads its mirror; a bare reader of the mirror gives the mirror's
#             kernel times and a Monitor client of that pencild the pen's, frame by frame
# Then libinput and the mirror again under each load the pen's path must shrug off (issue:
# the mirror's hop held under load): 64 clients of the mirror's pencild streaming; a flood of
# connections from another user; two CPU burners. Each libinput turn is beside its mirror turn
# under the same load.
# The turns follow each other, ROUNDS times (default 3), so that a stall of the host falls on any
# of them alike. Each turn plays PATTERN with `pencilctl emulate` and also has a bare evdev
# reader on the node, so every turn carries the same extra load, and the libinput turn gets
# its frames' kernel timestamps (debug-events prints only milliseconds since it started).
set -euo pipefail

bin=${1:?usage: guest-latency.sh BIN_DIR PROBE PATTERN [ROUNDS]}
probe=${2:?}
pattern=${3:?}
rounds=${4:-3}
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

# play NAME SETTLE: plays the pattern after SETTLE seconds with a bare reader on the node;
# waits for both. Writes $out/NAME-evdev.txt.
play() {
    local name=$1 settle=$2 node reader emulate
    mkfifo "$work/$name.node"
    "$bin/pencilctl" emulate "$pattern" --settle "$settle" >"$work/$name.node" 2>"$out/$name-emulate.log" &
    emulate=$!
    read -r node <"$work/$name.node"
    "$probe" evdev "$node" "$out/$name-evdev.txt" &
    reader=$!
    wait "$emulate"
    wait "$reader"
    note "$name: $(wc -l <"$out/$name-evdev.txt") frames read from $node; $(tail -n 1 "$out/$name-emulate.log")"
}

uname -r | sed 's/^/latency: kernel /'
libinput --version | sed 's/^/latency: libinput /'

# pencild as root on its own socket, for every round.
socket=/run/pencild-bench/pencild.sock
"$bin/pencild" --socket "$socket" --state-dir /run/pencild-bench/state >"$out/pencild.log" 2>&1 &
pencild=$!
pids+=("$pencild")
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { note "pencild did not start"; cat "$out/pencild.log"; exit 1; }

# The mirror's pencild: a user's, with /dev/uinput (an administrator's choice for that user)
# and withholdGestureClicks on. It runs throughout, grabbing the pen only in the mirror turns.
bash "$(dirname "$0")/../tests/kernel/guest-add-user.sh" pencild-bench input >/dev/null
bench_uid=$(id -u pencild-bench)
bench_gid=$(id -g pencild-bench)
chgrp "$bench_gid" /dev/uinput && chmod 0660 /dev/uinput
mirror_socket=/run/pencild-bench-user/pencild.sock
install -d -o pencild-bench -g pencild-bench /run/pencild-bench-user /run/pencild-bench-user/state
as_bench() { setpriv --reuid="$bench_uid" --regid="$bench_gid" --init-groups -- env PENCILD_SOCKET="$mirror_socket" "$@"; }
# Room for the 64 streaming clients of the load below, all the bench user's.
printf '[Limits]\nMaxClientsPerUser=80\nMaxClients=400\n' >/run/pencild-bench-user/pencild.conf
# RLIMIT_RTPRIO 1, as the system unit grants (LimitRTPRIO=1): the pen's thread may take
# SCHED_RR priority 1 without privilege.
prlimit --rtprio=1:1 setpriv --reuid="$bench_uid" --regid="$bench_gid" --init-groups -- \
    "$bin/pencild" --socket "$mirror_socket" --state-dir /run/pencild-bench-user/state \
    --config /run/pencild-bench-user/pencild.conf >"$out/pencild-mirror.log" 2>&1 &
mirror_pencild=$!
pids+=("$mirror_pencild")
for _ in $(seq 100); do [ -S "$mirror_socket" ] && break; sleep 0.1; done
[ -S "$mirror_socket" ] || { note "the mirror's pencild did not start"; cat "$out/pencild-mirror.log"; exit 1; }
# The pen's thread's policy and priority, the main thread's beside it. scheduling STAT: from
# /proc/TID/stat, field 41 (the policy; 2 is SCHED_RR), 40 (its priority), 19 (nice).
scheduling() { awk '{ print ($41 == 2 ? "SCHED_RR priority " $40 : "policy " $41 " nice " $19) }' "$1"; }
pen_tid=$(grep -lx pencild-pen /proc/"$mirror_pencild"/task/*/comm | cut -d/ -f5)
note "the mirror's pencild: pen's thread $(scheduling "/proc/$mirror_pencild/task/$pen_tid/stat"), main thread $(scheduling "/proc/$mirror_pencild/stat")"
# Off until the mirror turn: the other turns read the pen itself.
as_bench "$bin/pencilctl" prefs set withholdGestureClicks=false >/dev/null

# play_mirrored NAME SETTLE: as play, with the bare reader on the pen's mirror.
play_mirrored() {
    local name=$1 settle=$2 node mirror="" reader emulate
    mkfifo "$work/$name.node"
    "$bin/pencilctl" emulate "$pattern" --settle "$settle" >"$work/$name.node" 2>"$out/$name-emulate.log" &
    emulate=$!
    read -r node <"$work/$name.node"
    for _ in $(seq 100); do
        mirror=$(PENCILD_SOCKET=$mirror_socket "$bin/pencilctl" devices --json | python3 -c 'import json, sys
for line in sys.stdin:
    device = json.loads(line)
    if device["id"] == sys.argv[1]:
        print(device.get("mirror", ""))' "${node##*/}")
        [ -n "$mirror" ] && break
        sleep 0.05
    done
    [ -n "$mirror" ] || { note "$name: no mirror for $node"; cat "$out/pencild-mirror.log"; exit 1; }
    "$probe" evdev "/dev/input/$mirror" "$out/$name-evdev.txt" &
    reader=$!
    wait "$emulate"
    wait "$reader"
    note "$name: $(wc -l <"$out/$name-evdev.txt") frames read from the mirror $mirror of $node"
}

# libinput_turn NAME PLAYER: `libinput debug-events` through udev like a compositor,
# line-buffered into a pipe, while PLAYER (play or play_mirrored) plays the pen. Under
# emulation libinput takes seconds to add a device: the pen waits longer before it plays.
libinput_turn() {
    local name=$1 player=$2 lines libinput
    mkfifo "$work/$name.pipe"
    "$probe" lines "$out/$name-lines.txt" <"$work/$name.pipe" &
    lines=$!
    stdbuf -oL libinput debug-events --udev seat0 >"$work/$name.pipe" 2>"$out/$name.err" &
    libinput=$!
    pids+=("$libinput")
    sleep 3
    "$player" "$name" 8
    sleep 1
    kill "$libinput"; wait "$libinput" 2>/dev/null || true
    wait "$lines"
}

# mirror_turn NAME: libinput reads the mirror while the user's pencild grabs the pen; its
# Monitor client gives the pen's kernel times (and the stream's latency to one client).
mirror_turn() {
    local name=$1 client
    as_bench "$bin/pencilctl" prefs set withholdGestureClicks=true >/dev/null
    "$probe" monitor "$mirror_socket" "$out/$name-monitor.txt" &
    client=$!
    libinput_turn "$name" play_mirrored
    for _ in $(seq 150); do kill -0 "$client" 2>/dev/null || break; sleep 0.1; done
    kill "$client" 2>/dev/null && note "$name: the client saw no proximityOut; stopped it"
    wait "$client" || { note "$name: the mirror's pencild client failed"; exit 1; }
    as_bench "$bin/pencilctl" prefs set withholdGestureClicks=false >/dev/null
    note "$name: $(grep -c 'TABLET_TOOL_AXIS' "$out/$name-lines.txt" || true) axis events received through the mirror"
}

# The loads. clients: 64 Monitor clients of the mirror's pencild that read everything (they
# end with the pen's deviceRemoved). flood: another user (nobody, whom the bench user's pencild
# refuses) connecting and closing as fast as it goes, the kernel tier's load client (handed
# over as text: nobody need not read the repository). burners: two busy loops of nobody's.
load_pids=()
flood_client=$(cat "$(dirname "$0")/../tests/kernel/load_client.py")
# Each load is started by setpriv itself, not through a shell function, so that $! is the
# load's own pid (setpriv execs it) and killing it ends the load.
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
start_load() {
    local condition=$1
    case $condition in
        clients)
            setpriv --reuid="$bench_uid" --regid="$bench_gid" --init-groups -- \
                "$probe" count "$mirror_socket" 64 /dev/null &
            load_pids=("$!") ;;
        flood) "${nobody[@]}" python3 -c "$flood_client" "$mirror_socket" flood >/dev/null & load_pids=("$!") ;;
        burners)
            "${nobody[@]}" sh -c 'while :; do :; done' &
            load_pids=("$!")
            "${nobody[@]}" sh -c 'while :; do :; done' &
            load_pids+=("$!") ;;
    esac
    pids+=("${load_pids[@]}")
    # The clients subscribe, the flood and the burners get going, before the pen plays.
    sleep 2
}
stop_load() {
    local pid
    for pid in "${load_pids[@]}"; do
        # The streaming clients end by themselves with the pen; the others are stopped.
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; [ "$1" = clients ] || break; sleep 0.1; done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    load_pids=()
}

for round in $(seq "$rounds"); do
    # 1. The floor.
    play "floor-$round" 3

    # 2. pencild; its client subscribes before the pen appears and stops at proximityOut.
    "$probe" monitor "$socket" "$out/pencild-$round-monitor.txt" &
    client=$!
    play "pencild-$round" 3
    for _ in $(seq 150); do kill -0 "$client" 2>/dev/null || break; sleep 0.1; done
    kill "$client" 2>/dev/null && note "pencild: the client saw no proximityOut; stopped it"
    wait "$client" || { note "the pencild client failed"; exit 1; }
    note "pencild-$round: $(grep -c '^motion ' "$out/pencild-$round-monitor.txt" || true) motion events received"

    # 3. libinput, through udev like a compositor.
    libinput_turn "libinput-$round" play
    note "libinput-$round: $(grep -c 'TABLET_TOOL_AXIS' "$out/libinput-$round-lines.txt" || true) axis events received"

    # 4. libinput again, reading the mirror while the user's pencild grabs the pen.
    mirror_turn "mirror-$round"

    # 5. The pen itself, then its mirror, under each load.
    for condition in clients flood burners; do
        start_load "$condition"
        libinput_turn "libinput-$condition-$round" play
        stop_load "$condition"
        start_load "$condition"
        mirror_turn "mirror-$condition-$round"
        stop_load "$condition"
    done
done
# Idle with a live pen attached: pencild's context switches over 10 s while the pen (having
# hovered, then gone quiet: a forced proximity-out) stays plugged in and a client is subscribed.
ctxt() { awk '/ctxt_switches/ { n += $2 } END { print n }' /proc/"$pencild"/task/*/status; }
"$bin/pencil-test-recordings" "$work/recordings"
cp "$work/recordings/bench-idle.evemu" "$work/idle.evemu"
"$probe" count "$socket" 1 "$out/idle-client.txt" &
idle_client=$!
pids+=("$idle_client")
mkfifo "$work/idle.node"
"$bin/pencilctl" emulate "$work/idle.evemu" --hold --settle 2 >"$work/idle.node" 2>"$out/idle-emulate.log" &
idle_pen=$!
pids+=("$idle_pen")
read -r _ <"$work/idle.node"
sleep 5
before=$(ctxt)
sleep 10
after=$(ctxt)
echo "idle_seconds 10" >"$out/idle.txt"
echo "idle_wakeups $((after - before))" >>"$out/idle.txt"
note "idle: $((after - before)) wake-ups of pencild in 10 s with a pen attached"
kill "$idle_pen"; wait "$idle_pen" || true
wait "$idle_client" || note "the idle client did not see the pen removed"
kill "$pencild"; wait "$pencild" || true
