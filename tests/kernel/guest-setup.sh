#!/usr/bin/env bash
# Runs inside the test VM, as root, before the test script: makes sure udev is
# running and has processed every device, then loads uinput.
# Exits non-zero with a message if /dev/uinput does not appear.
set -euo pipefail

log() { echo "guest-setup: $*"; }

# Debian keeps systemd-udevd out of PATH.
udevd=""
for candidate in /lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd; do
    [ -x "$candidate" ] && { udevd=$candidate; break; }
done

# virtme-ng's init starts udevd itself when it finds it; older versions and
# other inits do not. Start it only if nothing answers on its control socket.
if udevadm control --ping 2>/dev/null; then
    log "udevd already running"
else
    [ -n "$udevd" ] || { log "ERROR: systemd-udevd not found (install udev)"; exit 1; }
    log "starting $udevd"
    "$udevd" --daemon
    # Coldplug: replay "add" for devices that appeared before udevd ran, so
    # they get their properties (ID_INPUT_*) and /dev permissions.
    udevadm trigger --action=add --type=subsystems
    udevadm trigger --action=add --type=devices
fi
udevadm settle --timeout=60

# uinput is a module in Debian's kernel; the guest uses the host's
# /lib/modules, so the kernel's version must have its modules installed.
# Load it even if /dev/uinput exists: the node may be a static one that only
# loads the module on first open.
modprobe uinput || { log "ERROR: modprobe uinput failed (kernel $(uname -r): is /lib/modules/$(uname -r) present?)"; exit 1; }
udevadm settle --timeout=30
if [ ! -c /dev/uinput ]; then
    log "ERROR: /dev/uinput is missing after modprobe uinput"
    exit 1
fi
log "ok: kernel $(uname -r), uinput loaded, /dev/uinput present"
