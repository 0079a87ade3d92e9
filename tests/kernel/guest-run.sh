#!/usr/bin/env bash
# Runs inside the test VM (started by vm-run.sh): RESULTS_DIR SCRIPT [ARGS...]
#
# Records in RESULTS_DIR (shared with the host) what the host cannot learn
# otherwise: that the guest got this far ("booted"), the script's output
# ("script.log") and its exit status ("exit-status"). vng's own exit status
# is not a reliable carrier for the script's.
set -uo pipefail

results=$1
script=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

date +%s.%N > "$results/booted"   # epoch: the host compares it with its own clock

if [ "$(id -u)" -ne 0 ]; then
    echo "guest-run: not root inside the VM (uid $(id -u))" | tee "$results/script.log"
    echo 126 > "$results/exit-status"
    exit 126
fi

# Tests can find the shared folder through this variable.
export VM_RESULTS="$results"

{
    echo "guest-run: kernel $(uname -r), $(nproc) cpus, cwd $(pwd)"
    if bash "$here/guest-setup.sh"; then
        echo "guest-run: running $script $*"
        if [ -x "$script" ]; then "$script" "$@"; else bash "$script" "$@"; fi
    else
        echo "guest-run: guest setup failed, script not run"
        exit 125
    fi
} 2>&1 | tee "$results/script.log"
status=${PIPESTATUS[0]}

# Write then rename, so the host never reads a half-written status.
echo "$status" > "$results/exit-status.tmp"
mv "$results/exit-status.tmp" "$results/exit-status"
sync
exit "$status"
