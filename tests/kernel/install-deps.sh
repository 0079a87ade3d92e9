#!/usr/bin/env bash
# Installs what the kernel (VM) test tier needs on a Debian 12 machine, as root.
# Safe to run again: apt and pip skip what is already there.
#
# Sources used: Debian's apt archive and PyPI only.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: must run as root" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive

# Where virtme-ng lives. A venv keeps it off Debian's own python (PEP 668
# refuses a plain `pip install` into the system interpreter).
VNG_VENV=${VNG_VENV:-/opt/virtme-ng}
VNG_VERSION=${VNG_VERSION:-1.42}

# Debian packages:
#   qemu-system-x86              the emulator (TCG software emulation is used)
#   linux-image-amd64            a stock kernel that ships uinput.ko (module)
#   kmod                         modprobe inside the guest
#   udev                         systemd-udevd/udevadm inside the guest
#   busybox-static               virtme-ng builds its boot initramfs around it
#   file, iproute2, kbd, util-linux-extra
#                                what virtme-ng's guest side expects on the host
#   python3, python3-venv        to run virtme-ng and the smoke test's uinput code
#   libinput-tools               `libinput debug-events`, used to check the pen
#   xvfb, openbox, x11-utils, xdotool, python3-tk
#                                focus-x11: an X server, a window manager that keeps
#                                _NET_ACTIVE_WINDOW, xprop, focus moves, Tk windows
#   sway, foot                   focus-sway: a wlroots compositor (headless) and its windows
#   xournalpp, grim, seatd       eraser-in-app: a note-taking app drawn in on sway, sway's
#                                screenshots, and the seat daemon through which sway's own
#                                libinput opens the input devices
PACKAGES=(
    qemu-system-x86
    linux-image-amd64 kmod udev
    busybox-static file iproute2 kbd util-linux-extra
    python3 python3-venv
    libinput-tools
    xvfb openbox x11-utils xdotool python3-tk
    sway foot
    xournalpp grim seatd
)

# Only hit the network when something is missing.
missing=()
for p in "${PACKAGES[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-deps.sh: installing ${missing[*]}"
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    echo "install-deps.sh: Debian packages already installed"
fi

# virtme-ng is not packaged for Debian 12: take it from PyPI into its own venv.
# (sed, not grep -q: an early-exiting grep would break pip's pipe, and the
# pipeline would fail under pipefail.)
installed_version=""
if [ -x "$VNG_VENV/bin/python" ]; then
    installed_version=$("$VNG_VENV/bin/python" -m pip show virtme-ng 2>/dev/null | sed -n 's/^Version: //p')
fi
if [ -x "$VNG_VENV/bin/vng" ] && [ "$installed_version" = "$VNG_VERSION" ]; then
    echo "install-deps.sh: virtme-ng $VNG_VERSION already in $VNG_VENV"
else
    # Debian's interpreter on purpose: the guest sees the host's filesystem,
    # so the venv must not depend on a per-user Python install.
    /usr/bin/python3 -m venv "$VNG_VENV"
    "$VNG_VENV/bin/python" -m pip install -q --disable-pip-version-check "virtme-ng==$VNG_VERSION"
fi
# vng runs its helpers (virtme-run, ...) by name through PATH: expose them all.
for cmd in vng virtme-ng virtme-run virtme-configkernel virtme-mkinitramfs virtme-prep-kdir-mods; do
    ln -sf "$VNG_VENV/bin/$cmd" "/usr/local/bin/$cmd"
done

# Sanity: a kernel image and its modules (uinput must be loadable in the guest).
kernel=$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n 1)
if [ -z "$kernel" ]; then
    echo "install-deps.sh: no /boot/vmlinuz-* after installing linux-image-amd64" >&2
    exit 1
fi
kver=${kernel#/boot/vmlinuz-}
if [ -z "$(find "/lib/modules/$kver" -name 'uinput.ko*' 2>/dev/null)" ]; then
    echo "install-deps.sh: /lib/modules/$kver has no uinput module" >&2
    exit 1
fi
# The package's postinst normally does this; repeat it in case it was skipped.
[ -s "/lib/modules/$kver/modules.dep" ] || depmod "$kver"

echo "install-deps.sh: ok (kernel $kernel, vng $(command -v vng))"
