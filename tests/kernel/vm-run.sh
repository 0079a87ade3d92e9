#!/usr/bin/env bash
# vm-run.sh SCRIPT [ARGS...]
#
# Boots a real Linux kernel under qemu software emulation (virtme-ng, no KVM)
# over this machine's own filesystem, and runs SCRIPT inside as root with the
# repository as working directory, after tests/kernel/guest-setup.sh has made
# udev and /dev/uinput ready. Exits with SCRIPT's exit status.
#
# SCRIPT can write files to "$VM_RESULTS", a folder shared writable with the
# host. It also holds:
#   console.log   the whole VM console (kernel messages and all output)
#   script.log    guest setup and SCRIPT output
#   exit-status   SCRIPT's exit status
#
# Environment (all optional):
#   VM_KERNEL       kernel image        (default: newest /boot/vmlinuz-*)
#   VM_RESULTS_DIR  results folder      (default: a new mktemp -d folder)
#   VM_TIMEOUT      seconds for the whole VM run (default: 600)
#   VM_MEMORY       guest memory        (default: 1G)
#   VM_CPUS         guest CPUs          (default: 2)
#
# Exit status: SCRIPT's; 124 when the VM ran out of time; 125 when the VM
# did not boot or died before SCRIPT finished; 2 for bad usage or setup.
set -euo pipefail

die() { echo "vm-run: ERROR: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: $0 SCRIPT [ARGS...]"
[ -f "$1" ] || die "no such script: $1"
script=$(realpath "$1")
shift

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

timeout_s=${VM_TIMEOUT:-600}
memory=${VM_MEMORY:-1G}
cpus=${VM_CPUS:-2}

# install-deps.sh links vng into /usr/local/bin; fall back to its venv when
# that is not on PATH (vng itself runs virtme-run through PATH).
if ! command -v vng >/dev/null; then
    for dir in /usr/local/bin "${VNG_VENV:-/opt/virtme-ng}/bin"; do
        [ -x "$dir/vng" ] && { PATH="$dir:$PATH"; break; }
    done
fi
command -v vng >/dev/null || die "vng not found: run tests/kernel/install-deps.sh"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found: run tests/kernel/install-deps.sh"

kernel=${VM_KERNEL:-$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)}
[ -n "$kernel" ] || die "no kernel in /boot: run tests/kernel/install-deps.sh"
[ -r "$kernel" ] || die "kernel $kernel is not readable"
kver=$(basename "$kernel"); kver=${kver#vmlinuz-}
# The guest loads modules (9p, virtio, uinput) from the host's /lib/modules.
[ -d "/lib/modules/$kver" ] || die "no /lib/modules/$kver for $kernel"

results=${VM_RESULTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/vm-run.XXXXXX")}
mkdir -p "$results"
results=$(realpath "$results")
# Both paths travel on the kernel command line, which splits on spaces.
case "$results$repo" in *[[:space:]]*) die "paths with spaces are not supported: $results, $repo" ;; esac
rm -f "$results"/{booted,exit-status,exit-status.tmp,script.log,console.log}

console="$results/console.log"
guest_cmd="bash $(printf '%q' "$here/guest-run.sh") $(printf '%q ' "$results" "$script" "$@")"

echo "vm-run: kernel $kernel, $cpus cpus, $memory, timeout ${timeout_s}s"
echo "vm-run: results in $results"
echo "vm-run: console log: $console"

start=$(date +%s.%N)
# timeout (without --foreground) signals its whole process group, which
# includes qemu: vng starts it as a child, not in place of itself.
# stdin from /dev/null: no terminal is needed, and none is there in CI.
set +e
timeout --kill-after=15 "$timeout_s" \
    vng --run "$kernel" \
        --disable-kvm \
        --force-9p \
        --memory "$memory" --cpus "$cpus" \
        --cwd "$repo" \
        --rwdir "$results" \
        --verbose \
        --exec "$guest_cmd" \
    </dev/null >"$console" 2>&1 &
vm_pid=$!
# Being backgrounded, the VM would not see a Ctrl-C or a TERM sent to us:
# pass it on (timeout then stops its whole group, qemu included).
interrupted=""
trap 'interrupted=1; kill -TERM "$vm_pid" 2>/dev/null' INT TERM
# Show the script's output live while the VM runs.
tail -n +1 -F --pid="$vm_pid" "$results/script.log" 2>/dev/null &
tail_pid=$!
wait "$vm_pid"
vm_status=$?
if [ -n "$interrupted" ]; then
    wait "$vm_pid"   # the first wait returned early, on the signal
    echo "vm-run: ERROR: interrupted; console log: $console" >&2
    exit 130
fi
wait "$tail_pid" 2>/dev/null
set -e
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

if [ -s "$results/exit-status" ]; then
    status=$(cat "$results/exit-status")
    boot_s=$(awk -v b="$(cat "$results/booted")" -v s="$start" 'BEGIN { printf "%.1f", b - s }')
    echo "vm-run: script exited with status $status (guest ready after ${boot_s}s, VM run took ${elapsed}s)"
    exit "$status"
fi

# No status: say loudly why, and show the end of the console.
if [ "$vm_status" -eq 124 ] || [ "$vm_status" -eq 137 ]; then
    reason="the VM did not finish within ${timeout_s}s"
    code=124
elif [ ! -e "$results/booted" ]; then
    reason="the VM did not boot (vng exited with $vm_status)"
    code=125
else
    reason="the VM booted but died before the script finished (vng exited with $vm_status)"
    code=125
fi
{
    echo "vm-run: ERROR: $reason after ${elapsed}s"
    echo "vm-run: last lines of $console:"
    tail -n 40 "$console" | sed 's/^/    /'
    echo "vm-run: ERROR: $reason; full console log: $console"
} >&2
exit "$code"
