#!/usr/bin/env bash
# vm.sh: `make test-desktop-vm`, the desktop tier's part that needs a kernel of its own (the
# pen's mirror needs /dev/uinput, which this machine's kernel lacks). A Debian suite (mmdebstrap)
# with this build's packages, booted with Debian's kernel and systemd as PID 1 under qemu's
# software emulation; the person logged in on tty1 (getty's autologin, a logind session on
# seat0) and each desktop started by that login in turn, its own libinput reading the seat's
# devices through logind: sway (headless output), GNOME Shell (mutter's native backend on
# qemu's VGA, drawing with llvmpipe), KWin (its DRM backend on virtio's graphics card, drawing
# with QPainter). `make test` runs Debian 13 with sway 1.10, then Debian testing with KWin
# 6.7 and GNOME Shell 50 (Debian 13's GNOME Shell 48 when asked: DESKTOP_VM_DESKTOPS=gnome).
# Inside, tests/desktop/vm_scenario.py makes a pen through uinput: the system pencild mirrors
# it, the desktop reads the mirror, and a GTK 4 app and a Qt 6 app receive the pen's motion and
# pressure, no button event for a double-tap and no press of the squeeze button, a lone click
# late, an eraser stroke after a double-tap (switchEraser performed by the pen), and each app's
# own chord from pencil-actions (which learns the app from the desktop: wlr-foreign-toplevel,
# the Shell extension, KWin's script) through pencild's keyboard in its text field; then the
# system palette, opened by a squeeze over the GTK 4 app and over Xournal++, whose ink is
# read from the screen. One line per check on the second serial port; screenshots and
# logs are taken from the disk image afterwards, into .build/desktop-vm-logs.
#
# Why the VM boots the desktops and not the headless ones run.sh starts: headless modes
# (`gnome-shell --headless`, `kwin_wayland --virtual`) read no libinput at all; reading it
# takes their KMS modes on a DRM device.
#
# Environment: DESKTOP_VM_DESKTOPS (default "sway gnome"; any of sway, gnome and kwin, in the
# order given), DESKTOP_VM_SUITE (the Debian suite: trixie, the default, or forky, testing, with
# GNOME Shell 50 and KWin 6.7), DESKTOP_VM_TIMEOUT (seconds for the VM, default 1500),
# README_SKIP_BUILD=1 (use the .debs already in .build/deb), DESKTOP_VM_LOGS (default
# .build/desktop-vm-logs/SUITE), BOOT_KERNEL.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
tier=test-desktop-vm
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"
started=$SECONDS

[ "$(id -u)" -eq 0 ] || cannot_run "it needs root (mmdebstrap, chroot, the image's file ownerships)"
for program in mmdebstrap qemu-system-x86_64 mke2fs debugfs depmod; do
    command -v "$program" >/dev/null || cannot_run "$program is not installed (scripts/install-deps.sh boot)"
done
if [ "${README_SKIP_BUILD:-0}" != 1 ]; then
    make --no-print-directory deb || { echo "$tier: FAIL: make deb" >&2; exit 1; }
fi
suite=${DESKTOP_VM_SUITE:-trixie} quirks=
case $suite in
    trixie) system="Debian 13" ;;
    forky) system="Debian testing (forky)"
        # Recommended by pencild, so that apt installs it: its libinput (1.31) smooths the
        # mirror as it smooths the pen only with it. Debian 13's libinput (1.28) needs none.
        quirks=pencild-libinput-quirks ;;
    *) echo "$tier: FAIL: DESKTOP_VM_SUITE names $suite: trixie and forky are known" >&2; exit 1 ;;
esac
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
debs=()
for package in "pencild_${version}_$arch" "pencil-actions_${version}_$arch" "libpencil0_${version}_$arch" "python3-pencild_${version}_all" \
        ${quirks:+"${quirks}_${version}_all"}; do
    [ -f "$repo/.build/deb/$package.deb" ] || { echo "$tier: FAIL: .build/deb/$package.deb is not built (make deb)" >&2; exit 1; }
    debs+=("$repo/.build/deb/$package.deb")
done
find_host_kernel || cannot_run "the kernel to boot (above)"
sources=/etc/apt/sources.list.d/debian.sources
archive=$(sed -n 's/^URIs: *//p' "$sources" 2>/dev/null | head -n 1 || true)
[ -n "$archive" ] || cannot_run "$sources names no archive (URIs:)"

begin_scratch
results=${DESKTOP_VM_LOGS:-$repo/.build/desktop-vm-logs/$suite}
rm -rf "$results"
mkdir -p "$results"
root=$work/root
image=$work/disk.img

# 1. The system: the suite's Debian with systemd, logind, a user bus, sway and the apps' toolkits, and
# this build's packages, installed by its own apt from the files.
t=$SECONDS
desktops=${DESKTOP_VM_DESKTOPS:-sway gnome}
for desktop in $desktops; do
    case $desktop in sway|kwin|gnome) ;; *) echo "$tier: FAIL: DESKTOP_VM_DESKTOPS names $desktop: sway, kwin and gnome are known" >&2; exit 1 ;; esac
done
include=systemd,systemd-sysv,udev,dbus,dbus-user-session,kmod,libpam-systemd,procps,sway,grim,python3,python3-gi,gir1.2-gtk-4.0,python3-pyqt6,qt6-wayland,fonts-dejavu-core
# The system palette as pencil-actions recommends it (libadwaita, gtk4-layer-shell), and
# Xournal++, an app people draw in, in front of it, with the icons and SVG loader a person's
# apt brings it as recommended (mmdebstrap installs no Recommends; without them GTK 3 aborts on
# its first missing icon).
include+=,gir1.2-adw-1,gir1.2-gtk4layershell-1.0,libgtk4-layer-shell0,xournalpp,adwaita-icon-theme,adwaita-icon-theme-legacy,librsvg2-common
# KWin takes its session's control through logind, which asks polkit.
case " $desktops " in *" kwin "*) include+=,kwin-wayland,polkitd ;; esac
# GNOME Shell draws with Mesa's llvmpipe on the VGA's memory (kms_swrast): no GPU.
case " $desktops " in *" gnome "*) include+=,gnome-shell,polkitd,libgl1-mesa-dri,libegl-mesa0 ;; esac
# The archive's Release files of testing may be older than their Valid-Until.
if mmdebstrap --variant=minbase --include="$include" --aptopt='Acquire::Check-Valid-Until "false"' \
        --customize-hook='mkdir -p "$1/srv/debs"' --customize-hook="copy-in ${debs[*]} /srv/debs" \
        --customize-hook='chroot "$1" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /srv/debs/*.deb && rm -r /srv/debs"' \
        "$suite" "$root" "deb $archive $suite main" >"$results/mmdebstrap.log" 2>&1; then
    pass "$system with $desktops, GTK 4, Qt 6 and this build's packages" "$((SECONDS - t)) s"
else
    tail -n 30 "$results/mmdebstrap.log" >&2
    fail "$system with $desktops, GTK 4, Qt 6 and this build's packages"
    summary
    exit 1
fi
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' sway 'libwlroots-0.*' gnome-shell 'libmutter-*-0' kwin-wayland libinput10 libgtk-4-1 libqt6core6t64 systemd pencild \
    2>/dev/null | awk 'NF == 2' >"$results/versions.txt" || true   # those installed
echo "$tier: $(tr '\n' ',' <"$results/versions.txt" | sed 's/,$//')"

# mutter asks a window it sends input whether its app is alive, and puts a "not responding"
# dialog over it, which then takes the pen, when the app has not answered in 5 s: under
# emulation on a busy host a first frame can take that long. And the Shell shows no banners:
# its first ("Screen Lock disabled", without GDM) came as the first app's first stroke did,
# and that banner then stayed on screen with the app receiving no pen event from then on (its
# frames, which GTK hands its input out with, stopped). The test is of the pen, not of those.
case " $desktops " in *" gnome "*)
    printf '[org.gnome.mutter]\ncheck-alive-timeout=0\n\n[org.gnome.desktop.notifications]\nshow-banners=false\n' \
        >"$root/usr/share/glib-2.0/schemas/90_desktop-vm-test.gschema.override"
    # shellcheck disable=SC2016 # expanded in the chroot
    chroot "$root" sh -c 'for compile in /usr/bin/glib-compile-schemas /usr/lib/*/glib-2.0/glib-compile-schemas; do
        [ -x "$compile" ] && exec "$compile" /usr/share/glib-2.0/schemas; done; exit 1' ||
        { fail "the test's mutter settings compiled (glib-compile-schemas)"; summary; exit 1; } ;;
esac

# The kernel's uinput and evdev (the pen, its mirror, pencild's keyboard), as the boot tier.
# And the graphics card as a DRM device: qemu's VGA (bochs) for sway and GNOME Shell; for KWin
# virtio's, whose buffers can be shared (PRIME): KWin's QPainter output allocates its buffers
# that way, which bochs cannot ("drmPrimeHandleToFD() failed"), and without an output it draws
# no frame, so that its clients, waiting for their frames, hold back their events.
vga=std
case " $desktops " in *" kwin "*) vga=virtio ;; esac
# shellcheck disable=SC2046 # one module path per word
copy_kernel_modules "$root" drivers/input/misc/uinput.ko drivers/input/evdev.ko \
    $(modprobe -S "$kver" --show-depends bochs | sed -n "s|^insmod /lib/modules/$kver/kernel/||p") \
    $(modprobe -S "$kver" --show-depends virtio-gpu | sed -n "s|^insmod /lib/modules/$kver/kernel/||p")

# The person at the seat: logged in on tty1 by getty, whose login starts sway (headless output,
# its libinput on the seat's devices through logind, software rendering).
chroot "$root" useradd --create-home --uid 1000 --shell /bin/bash person
mkdir -p "$root/etc/systemd/system/getty@tty1.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin person --noclear %%I $TERM\n' \
    >"$root/etc/systemd/system/getty@tty1.service.d/autologin.conf"
# Which desktop: the one /srv/vm/desktop names (the scenario writes it, then ends the session).
cat >"$root/home/person/.bash_profile" <<'EOF'
if [ "$(tty)" = /dev/tty1 ]; then
    case $(cat /srv/vm/desktop 2>/dev/null) in
        kwin)
            # Its DRM backend on the virtio graphics card, drawing with QPainter (no GPU).
            export KWIN_COMPOSE=Q XDG_SESSION_TYPE=wayland XDG_CURRENT_DESKTOP=KDE LANG=C.UTF-8
            exec kwin_wayland --drm >/srv/vm/results/kwin.log 2>&1 ;;
        gnome)
            # mutter's native backend on qemu's VGA; --unsafe-mode lets the test ask the Shell
            # what a person would see (Eval, its screenshots).
            export XDG_SESSION_TYPE=wayland XDG_CURRENT_DESKTOP=GNOME LANG=C.UTF-8
            exec gnome-shell --wayland --display-server --unsafe-mode >/srv/vm/results/gnome-shell.log 2>&1 ;;
        *)
            export WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman LIBSEAT_BACKEND=logind
            exec sway >/srv/vm/results/sway.log 2>&1 ;;
    esac
fi
EOF
mkdir -p "$root/home/person/.config/sway"
cat >"$root/home/person/.config/sway/config" <<'EOF'
output HEADLESS-1 mode 1280x800 bg #808080 solid_color
default_border none
focus_follows_mouse no
# Debian's: the session's variables into the user manager, for pencil-actions.service.
include /etc/sway/config.d/*
EOF
chroot "$root" chown -R person:person /home/person
echo desktop-vm-test >"$root/etc/hostname"

# The scenario and what it uses, and its unit, which powers the system off when done.
install -d -m 1777 "$root/srv/vm" "$root/srv/vm/results"
install -m 0644 "$here/vm_scenario.py" "$here/app.py" "$here/qt_app.py" "$here/palette_by_hand.py" "$repo/tests/kernel/virtual_pen.py" "$root/srv/vm/"
echo "${desktops%% *}" >"$root/srv/vm/desktop"   # the one the boot's login starts
cat >"$root/etc/systemd/system/desktop-vm-test.service" <<EOF
[Unit]
Description=pencild desktop VM test scenario
After=multi-user.target getty@tty1.service
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/usr/bin/python3 /srv/vm/vm_scenario.py $desktops
ExecStopPost=/bin/sh -c 'journalctl -b --no-pager >/srv/vm/results/journal.log 2>&1'
StandardOutput=tty
TTYPath=/dev/ttyS1
TTYReset=no
TTYVHangup=no
StandardError=journal+console
TimeoutStartSec=30min

[Install]
WantedBy=multi-user.target
EOF
ln -s ../desktop-vm-test.service "$root/etc/systemd/system/multi-user.target.wants/"
size_mb=$(($(du -sm "$root" | cut -f1) + 768))
mke2fs -q -t ext4 -d "$root" "$image" "${size_mb}M" || { echo "$tier: FAIL: mke2fs" >&2; exit 1; }
rm -rf "$root"
echo "$tier: image ready (${size_mb} MiB, kernel $kver) in $((SECONDS - t)) s"

# 2. Boot. The first serial port is the console, the second the scenario's lines.
console=$results/console.log
report=$results/results.log
timeout_s=${DESKTOP_VM_TIMEOUT:-1500}
echo "$tier: booting (qemu, software emulation, timeout ${timeout_s} s)"
boot_vm "$image" 2G "$timeout_s" "$console" "$report" "DESKTOP-VM " "$vga"
echo "$tier: the VM ran $vm_seconds s (qemu exit $vm_status)"

# 3. What the scenario left in the image: logs and screenshots.
debugfs -R "rdump /srv/vm/results $work" "$image" >/dev/null 2>&1 || true
[ -d "$work/results" ] && cp -r "$work/results/." "$results/"

while IFS= read -r line; do
    line=${line%$'\r'}
    case $line in *"DESKTOP-VM "*) line="DESKTOP-VM ${line#*DESKTOP-VM }" ;; esac
    case $line in
        "DESKTOP-VM PASS "*) pass "${line#DESKTOP-VM PASS }" ;;
        "DESKTOP-VM FAIL "*) fail "${line#DESKTOP-VM FAIL }" ;;
    esac
done <"$report"
if ! grep -q 'DESKTOP-VM INFO scenario started' "$report"; then
    tail -n 40 "$console" >&2
    fail "the VM boots to the scenario" "qemu exit $vm_status; console in $console"
elif ! grep -q '^DESKTOP-VM DONE' "$report"; then
    tail -n 30 "$console" >&2
    fail "the scenario finishes" "qemu exit $vm_status after $vm_seconds s"
fi
echo "$tier: took $((SECONDS - started)) s; the logs are in $results"
summary
