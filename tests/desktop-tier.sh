# shellcheck shell=bash
# Sourced by the tiers that run a program beside pencild (the sketch demo, Krita with its
# plugin, the settings window). With $tier set to the tier's name:
#   cannot_run WHY      (tests/lib.sh) a prerequisite is missing: fails under CI=true, skips
#                       elsewhere
#   begin_scratch       makes $work (removed at exit) and $pids: the processes the tier
#                       started, ended at exit by their ids, and only those
#   stop_started        ends the processes in $pids (end_scratch does, before removing $work)
#   require_accessible_gtk
#                       what a GTK 4 window driven through the accessibility tree under Xvfb
#                       needs: Xvfb, dbus-run-session, the AT-SPI bus ($launcher) and a Python
#                       with PyGObject, libadwaita and pyatspi ($python); cannot_run otherwise
#   start_xvfb SIZE     a private X display of SIZE (WIDTHxHEIGHTxDEPTH), whose number Xvfb
#                       picks; exports DISPLAY, adds Xvfb to $pids, its log in $work/xvfb.log
#   begin_chroot_tier PROGRAM... -- ARGS...
#                       for a tier that installs this tree's packages in a fresh Debian
#                       (mmdebstrap) and runs them in a chroot: needs root and the PROGRAMs;
#                       runs the tier again (with ARGS) in mount and process
#                       namespaces of its own, so that the chroot's mounts and every process
#                       started in it end with the tier; sets $version and $arch of the
#                       packages, which it makes with `make deb` unless README_SKIP_BUILD=1
#                       (in `make test` the boot tier has just made them)
#   end_chroot_tier     the end of such a tier (its EXIT trap, after begin_scratch): ends what
#                       it started and every process left in its namespace, detaches the
#                       chroot's mounts ($root's run, dev, proc and sys) before its files go (rm
#                       would follow them into /dev), and removes $work
# and what tests/lib.sh gives (wait_for, pass, fail, check, summary, start_pencild).

: "${tier:?set tier to the name of the tier before sourcing desktop-tier.sh}"
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

begin_scratch() {
    work=$(mktemp -d)
    pids=()
    trap end_scratch EXIT
}

stop_started() {
    local pid
    # A make run terminal (make_run_terminal): its end stops the pencild it started.
    make_run_tmux kill-server 2>/dev/null || true
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}

end_scratch() {
    stop_started
    rm -rf "$work"
}

require_accessible_gtk() {
    local candidate
    command -v Xvfb >/dev/null || cannot_run "Xvfb is not installed (apt-get install xvfb)"
    command -v dbus-run-session >/dev/null || cannot_run "dbus-run-session is not installed (apt-get install dbus)"
    launcher=""
    for candidate in /usr/libexec/at-spi-bus-launcher /usr/lib/at-spi2-core/at-spi-bus-launcher; do
        [ -x "$candidate" ] && launcher=$candidate && break
    done
    [ -n "$launcher" ] || cannot_run "at-spi-bus-launcher is not installed (apt-get install at-spi2-core)"
    python=$("$(dirname "${BASH_SOURCE[0]}")/../scripts/gi-python.sh") || cannot_run "PyGObject with GTK 4 is not installed"
    "$python" -c 'import gi; gi.require_version("Adw", "1"); from gi.repository import Adw' 2>/dev/null ||
        cannot_run "libadwaita's introspection data is not installed (apt-get install gir1.2-adw-1)"
    "$python" -c 'import pyatspi' 2>/dev/null || cannot_run "pyatspi is not installed (apt-get install python3-pyatspi)"
}

start_xvfb() {
    # -noreset: by default Xvfb resets when its last client leaves, and a program that
    # connects while it does (the next one a tier starts) is turned away.
    Xvfb -displayfd 3 -screen 0 "$1" -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
    pids+=("$!")
    wait_for 30 test -s "$work/display"
    DISPLAY=:$(tr -d '[:space:]' <"$work/display")
    export DISPLAY
}

begin_chroot_tier() {
    [ "$(id -u)" = 0 ] || cannot_run "needs root (mmdebstrap, chroot)"
    local program source_tree
    source_tree=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
        command -v "$1" >/dev/null || cannot_run "$1 is not installed (scripts/install-deps.sh test)"
        shift
    done
    [ "$#" -gt 0 ] && shift
    for program in mmdebstrap unshare chroot; do
        command -v "$program" >/dev/null || cannot_run "$program is not installed (scripts/install-deps.sh test)"
    done
    if [ -z "${CHROOT_TIER_NAMESPACE:-}" ]; then
        exec unshare --mount --propagation private --pid --fork --mount-proc env CHROOT_TIER_NAMESPACE=1 "$BASH" "$0" "$@"
    fi
    # shellcheck disable=SC2034 # the tier's
    version=$(dpkg-parsechangelog -l "$source_tree/debian/changelog" -S Version)
    # shellcheck disable=SC2034 # the tier's
    arch=$(dpkg --print-architecture)
    if [ "${README_SKIP_BUILD:-0}" != 1 ]; then
        echo "$tier: make deb"
        make -C "$source_tree" --no-print-directory deb || { echo "$tier: FAIL: make deb" >&2; exit 1; }
    fi
}

end_chroot_tier() {
    stop_started
    # What a session bus or a compositor started: this namespace holds only the tier's
    # processes, and this shell is its first (never outside it: -1 would be everyone's).
    if [ "$$" = 1 ]; then
        kill -KILL -1 2>/dev/null || true
        wait 2>/dev/null || true
    fi
    # Detached at once (a process the kill has not yet ended may still hold one); the
    # namespace lets them go for good when its last process ends.
    local mount
    for mount in run dev proc sys; do
        # Never without a chroot: "/$mount" would be this namespace's own.
        if [ -n "${root:-}" ] && mountpoint -q "$root/$mount"; then umount -R -l "$root/$mount" || true; fi
    done
    rm -rf --one-file-system "$work"
}
