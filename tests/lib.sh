# shellcheck shell=bash
# Sourced by the test tiers that run on this machine (not inside a VM):
#   wait_for SECONDS COMMAND...
#                  polls COMMAND until it succeeds; status 1 once SECONDS have passed
#   pass NAME [DETAIL] / fail NAME [DETAIL]
#                  one result, "  ok: NAME: DETAIL" or "  FAIL: NAME: DETAIL", counted in
#                  $passed and $failed
#   check NAME COMMAND...
#                  pass NAME when COMMAND succeeds, fail NAME otherwise
#   summary        the closing line "N passed, N failed"; status 1 when one failed
#   cannot_check WHY
#                  a check whose prerequisite is missing: under CI=true a failure ("cannot
#                  check: WHY"), elsewhere "  skipped: WHY"; the tier goes on
#   cannot_run WHY [STATUS]
#                  a tier whose prerequisite is missing ends: under CI=true with "$tier: FAIL:
#                  cannot run: WHY" and status 1, elsewhere with "$tier: skipped: WHY" and
#                  STATUS (default 0; a meson test's skip is 77)
#   start_pencild SOCKET LOG [ARGS...]
#                  $pencild (under $pencild_wrapper, when set) on SOCKET with ARGS, its
#                  errors appended to LOG; returns once it answers $pencilctl there (at most
#                  30 s), and fails with its log if it exits first. Its pid: $pencild_pid.
#   find_host_kernel
#                  sets $kernel, $kver and $initrd to this machine's newest kernel in /boot
#                  (or $BOOT_KERNEL) and its initramfs; status 1, saying which is missing
#   copy_kernel_modules ROOT MODULE...
#                  copies $kver's MODULEs (paths under /lib/modules/$kver/kernel/) into the
#                  root file system ROOT with the kernel's lists of modules, and runs depmod
#                  there: the guest's udev loads them (the initramfs holds only its own)
#   boot_vm IMAGE MEMORY TIMEOUT CONSOLE REPORT PREFIX [VGA]
#                  boots $kernel and $initrd with IMAGE (ext4) as the root, /dev/vda, under
#                  qemu's software emulation with MEMORY, two processors, no network and no
#                  window, its graphics card qemu's -vga VGA (default std); the first serial
#                  port is written to CONSOLE, the second to REPORT, whose lines are printed
#                  as they come, each with the seconds since the boot and without PREFIX (and
#                  what comes before it: a terminal query from systemd). Returns when the guest
#                  powers off, or kills qemu after TIMEOUT seconds: qemu's status in
#                  $vm_status (124 or 137: timed out), the seconds it ran in $vm_seconds.

passed=0
failed=0
pencild_pid=""
pencild_wrapper=()

wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "waited ${seconds} s in vain for: $*" >&2
            return 1
        fi
        sleep 0.05
    done
}

# "NAME" alone, or "NAME: DETAIL".
result_text() { if [ -n "${2:-}" ]; then echo "$1: $2"; else echo "$1"; fi; }
pass() { echo "  ok: $(result_text "$@")"; passed=$((passed + 1)); }
fail() { echo "  FAIL: $(result_text "$@")"; failed=$((failed + 1)); }

check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

summary() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

cannot_check() {
    if [ "${CI:-}" = true ]; then fail "cannot check" "$*"; else echo "  skipped: $*"; fi
}

cannot_run() {
    if [ "${CI:-}" = true ]; then echo "${tier:-test}: FAIL: cannot run: $1" >&2; exit 1; fi
    echo "${tier:-test}: skipped: $1" >&2
    exit "${2:-0}"
}

start_pencild() {
    local socket=$1 log=$2
    shift 2
    rm -f "$socket"
    "${pencild_wrapper[@]}" "${pencild:?set pencild to the path of pencild}" --socket "$socket" "$@" </dev/null 2>>"$log" &
    pencild_pid=$!
    # Not wait_for: a pencild that has exited will never answer, and says why in its log.
    local deadline=$((SECONDS + 30))
    until PENCILD_SOCKET=$socket "${pencilctl:?set pencilctl to its path}" prefs get >/dev/null 2>&1; do
        if ! kill -0 "$pencild_pid" 2>/dev/null; then
            echo "pencild exited before it answered on $socket; its log:" >&2
            cat "$log" >&2
            return 1
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "pencild did not answer on $socket within 30 s; its log:" >&2
            cat "$log" >&2
            return 1
        fi
        sleep 0.05
    done
}

# make_run_terminal BIN RUNTIME WORK: `make run` (scripts/dev-run.sh) as a person starts it, in a
# terminal of 90 by 32 of a tmux server of this run's own: nothing set but their own
# XDG_RUNTIME_DIR (no PENCILD_SOCKET). When it ends, the terminal shows dev-run-exited-STATUS.
# make_run_tmux ARGS runs tmux on that server; make_run_screen PATTERN is true when the
# terminal shows PATTERN now ($work/screen.txt), make_run_said PATTERN when it or its
# scrollback does ($work/terminal.txt).
make_run_tmux() { command tmux -L "pencild-make-run-$$" -f /dev/null "$@"; }
make_run_terminal() {
    make_run_tmux new-session -d -s make-run -x 90 -y 32 \
        "env -u PENCILD_SOCKET XDG_RUNTIME_DIR='$2' TMPDIR='$3' '$(dirname "${BASH_SOURCE[0]}")/../scripts/dev-run.sh' '$1'; echo dev-run-exited-\$?; sleep 600"
}
make_run_screen() { make_run_tmux capture-pane -p -t make-run >"${work:?}/screen.txt" 2>/dev/null && grep -q -- "$1" "$work/screen.txt"; }
make_run_said() { make_run_tmux capture-pane -p -J -S -200 -t make-run >"${work:?}/terminal.txt" 2>/dev/null && grep -q -- "$1" "$work/terminal.txt"; }

find_host_kernel() {
    kernel=${BOOT_KERNEL:-$(find /boot -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort -V | tail -n 1 || true)}
    if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
        echo "no kernel in /boot (scripts/install-deps.sh boot installs linux-image-amd64)" >&2
        return 1
    fi
    kver=${kernel#/boot/vmlinuz-}
    initrd=/boot/initrd.img-$kver
    if [ ! -r "$initrd" ]; then
        echo "no $initrd for $kernel" >&2
        return 1
    fi
}

copy_kernel_modules() {
    local root=$1 module
    shift
    for module in "$@"; do
        install -D -m 0644 "/lib/modules/$kver/kernel/$module" "$root/lib/modules/$kver/kernel/$module" || return 1
    done
    cp "/lib/modules/$kver/"modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/" &&
        depmod -b "$root" "$kver"
}

boot_vm() {
    local image=$1 memory=$2 timeout_s=$3 console=$4 report=$5 prefix=$6 vga=${7:-std}
    local start=$SECONDS vm_pid tail_pid
    : >"$report"
    timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 -accel tcg -m "$memory" -smp 2 \
        -kernel "$kernel" -initrd "$initrd" \
        -append "root=/dev/vda rw console=ttyS0 panic=1 systemd.show_status=1" \
        -drive "file=$image,format=raw,if=virtio,cache=unsafe" \
        -vga "$vga" -display none -nic none -no-reboot \
        -serial "file:$console" -serial "file:$report" </dev/null >"${console%/*}/qemu.log" 2>&1 &
    vm_pid=$!
    # timeout passes INT and TERM on to qemu.
    trap 'kill "$vm_pid" 2>/dev/null' INT TERM
    tail -n +1 -F --pid="$vm_pid" "$report" 2>/dev/null | while IFS= read -r line; do
        case $line in *"$prefix"*) line=${line#*"$prefix"} ;; esac
        printf '  [%4ss] %s\n' "$((SECONDS - start))" "$line"
    done &
    tail_pid=$!
    # vm_status and vm_seconds are the caller's.
    vm_status=0
    # shellcheck disable=SC2034
    wait "$vm_pid" || vm_status=$?
    wait "$tail_pid" 2>/dev/null || true
    trap - INT TERM
    # shellcheck disable=SC2034
    vm_seconds=$((SECONDS - start))
}
