#!/usr/bin/env bash
# run.sh: the boot tier (`make test-boot`), from the host.
#
# pencild the way a user's machine runs it: built into a .deb (`make deb`, checked by
# lintian), installed in a minimal Debian system (mmdebstrap, from the archive apt already
# uses, cached in .build/boot-cache), booted with Debian's kernel and systemd as PID 1 under
# qemu's software emulation. Inside, scenario.sh checks socket activation, the dynamic user
# and sandbox, a udev-started service and a virtual pen, access rules, preferences across a
# restart, a clean stop, the watchdog, the user unit and removal, one line per check on the
# second serial port; then the guest powers off. The run fails, loudly, when a check fails,
# when the VM does not boot or when the scenario does not finish in time.
#
# Environment: BOOT_TIMEOUT (seconds for the VM, default 900), BOOT_SKIP_BUILD=1 (use the
# .deb already in .build/deb), BOOT_RESULTS (default .build/boot-results), BOOT_CACHE (where
# the root file system is kept, default .build/boot-cache: a CI with a fresh clone each time
# can point it at a folder it keeps), BOOT_KERNEL.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

# shellcheck source=tests/loud.sh
. "$repo/tests/loud.sh"
# shellcheck source=tests/lib.sh
. "$repo/tests/lib.sh"
loud() { banner test-boot "$@"; }
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'; }
run_start=$(now)

if [ "$(id -u)" -ne 0 ]; then
    # mmdebstrap, chroot and the image's file ownerships need root.
    if [ "${CI:-}" = true ]; then loud "FAILED: the boot tier needs root: it did NOT run"; exit 1; fi
    echo "test-boot: skipped: needs root (mmdebstrap, chroot); run it as root"
    exit 0
fi

# 1. What the tier needs, then the package.
scripts/install-deps.sh boot || { loud "FAILED: its dependencies could not be installed (above): the boot tier did NOT run"; exit 1; }
if [ "${BOOT_SKIP_BUILD:-0}" != 1 ]; then
    make --no-print-directory deb || { loud "FAILED: make deb failed (above): the boot tier did NOT run"; exit 1; }
fi
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
deb=$repo/.build/deb/pencild_${version}_$arch.deb
[ -f "$deb" ] || { loud "FAILED: $deb is not built"; exit 1; }

echo "test-boot: lintian"
lintian_out=$(lintian --pedantic "$repo/.build/deb/pencild_${version}_$arch.changes" 2>&1 | grep -v '^running with root privileges') || true
[ -z "$lintian_out" ] || sed 's/^/  /' <<<"$lintian_out"
if grep -q '^E:' <<<"$lintian_out"; then loud "FAILED: lintian reports errors (above)"; exit 1; fi
echo "  ok: no lintian errors ($(grep -c '^W:' <<<"$lintian_out" || true) warnings, the accepted ones are overridden, with reasons, in debian/pencild.lintian-overrides)"

echo "test-boot: what each package holds"
contents_ok=1
while read -r package path; do
    file=$repo/.build/deb/${package}_${version}_$arch.deb
    case $package in python3-pencild|krita-pencild|pencild-libinput-quirks) file=$repo/.build/deb/${package}_${version}_all.deb ;; esac
    if dpkg-deb -c "$file" | awk '{ print $6 }' | grep -qx "\.$path"; then
        echo "  ok: $package holds $path"
    else
        echo "  FAIL: $package does not hold $path"; contents_ok=0
    fi
done <<'EOF_CONTENTS'
pencild /usr/bin/pencild
pencild /usr/bin/pencilctl
pencild /lib/udev/rules.d/70-pencild.rules
pencild /usr/share/doc/pencild/examples/71-pencild-user-mode.rules
pencild /lib/systemd/system/pencild.socket
pencild /usr/share/man/man8/pencild.8.gz
pencild /usr/share/doc/pencild/README.md
pencild /usr/share/doc/pencild/docs/troubleshooting.md
pencil-actions /usr/bin/pencil-actions
pencil-actions /usr/share/doc/pencild/examples/71-pencil-actions-uinput.rules
pencil-actions /usr/lib/systemd/user/pencil-actions.service
pencil-actions /usr/share/man/man1/pencil-actions.1.gz
libpencil-dev /usr/include/pencil.h
python3-pencild /usr/lib/python3/dist-packages/pencild/__init__.py
krita-pencild /usr/share/krita/pykrita/pencild_krita.desktop
krita-pencild /usr/share/krita/pykrita/pencild_krita/__init__.py
pencild-libinput-quirks /usr/share/libinput/20-pencild-mirror.quirks
EOF_CONTENTS
# No package installs a uinput rule where udev reads it: that is an administrator's opt-in.
for file in "$repo"/.build/deb/*_"${version}"_*.deb; do
    if dpkg-deb -c "$file" | awk '{ print $6 }' | grep -E '^\./(usr/)?lib/udev/rules\.d/.*uinput'; then
        echo "  FAIL: $(basename "$file") installs a uinput rule where udev reads it"; contents_ok=0
    fi
done
[ "$contents_ok" = 1 ] && echo "  ok: no package installs a uinput rule where udev reads it"
# Nor a rule that gives the seat's user pens (uaccess): that is the user-mode example's, an opt-in too.
if dpkg-deb --fsys-tarfile "$repo/.build/deb/pencild_${version}_$arch.deb" | tar -xO ./lib/udev/rules.d/70-pencild.rules | grep -q '^[^#]*TAG+="uaccess"'; then
    echo "  FAIL: pencild's 70-pencild.rules tags devices uaccess"; contents_ok=0
else
    echo "  ok: pencild's 70-pencild.rules tags nothing uaccess"
fi
[ "$contents_ok" = 1 ] || { loud "FAILED: a package lacks a file, or holds one it must not (above)"; exit 1; }

# 2. The root file system: a minimal Debian with systemd, what the scenario uses and what
# the package depends on, cached under a key made of all that.
find_host_kernel || { loud "FAILED: the kernel to boot (above)"; exit 1; }
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || { loud "FAILED: $sources (the archive to build the guest from) is missing"; exit 1; }
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
# The other packages the scenario installs from files (no network in the VM): their
# dependencies go into the root, but for pencild itself.
others=("$repo/.build/deb/libpencil0_${version}_$arch.deb" "$repo/.build/deb/python3-pencild_${version}_all.deb"
        "$repo/.build/deb/pencil-actions_${version}_$arch.deb")
for file in "${others[@]}"; do [ -f "$file" ] || { loud "FAILED: $file is not built"; exit 1; }; done
depends=$(for file in "$deb" "${others[@]}"; do dpkg-deb -f "$file" Depends; echo; done | tr ',' '\n' |
    sed -E 's/[[:space:]]*\(.*//; s/[[:space:]]//g; s/\|.*//; s/:any$//' | grep -v '^$' | grep -vx pencild)
packages=$(printf '%s\n' systemd systemd-sysv udev dbus kmod libpam-systemd python3 rtkit polkitd $depends | sort -u | paste -sd, -)
key=$( { echo "$suite $packages"; cat "$sources"; mmdebstrap --version; } | sha256sum | cut -c1-16)
cache=${BOOT_CACHE:-$repo/.build/boot-cache}
tarball=$cache/root-$suite-$key.tar
if [ -f "$tarball" ]; then
    echo "test-boot: root file system from the cache ($(basename "$tarball"))"
else
    echo "test-boot: building the root file system ($suite: $packages)"
    mkdir -p "$cache"
    t=$(now)
    # (mmdebstrap chooses the output's format by its name's ending: keep .tar last.)
    partial=$cache/partial-$key.tar
    mmdebstrap --variant=minbase --include="$packages" "$suite" "$partial" "$sources" >"$cache/mmdebstrap.log" 2>&1 ||
        { tail -n 30 "$cache/mmdebstrap.log" >&2; rm -rf "$partial"; loud "FAILED: mmdebstrap could not build the root file system: the boot tier did NOT run"; exit 1; }
    mv "$partial" "$tarball"
    find "$cache" -name 'root-*.tar' ! -name "$(basename "$tarball")" -delete   # older keys
    echo "test-boot: root file system built in $(since "$t") s"
fi

# 3. The image: the cached root, the kernel's uinput and evdev modules, the package
# installed (its postinst enables the socket; nothing runs in a chroot), the test users
# and the scenario as a unit that powers off when done.
results=${BOOT_RESULTS:-$repo/.build/boot-results}
rm -rf "$results"
mkdir -p "$results"
root=$results/root
image=$results/disk.img
mkdir -p "$root"
t=$(now)
tar -C "$root" -xf "$tarball"
copy_kernel_modules "$root" drivers/input/misc/uinput.ko drivers/input/evdev.ko

mkdir -p "$root/root/boot-test"
install -m 0644 "$deb" "$root/root/boot-test/pencild.deb"
for file in "${others[@]}"; do install -m 0644 "$file" "$root/root/boot-test/${file##*/}"; done
install -m 0644 tests/kernel/virtual_pen.py "$root/root/boot-test/"
install -m 0755 "$here/scenario.sh" "$root/root/boot-test/"
install -m 0644 "$here/pencild-boot-test.service" "$root/etc/systemd/system/"
ln -s ../pencild-boot-test.service "$root/etc/systemd/system/multi-user.target.wants/"
# The person at the seat: logged in on tty1 by getty, in no group of pencild's.
mkdir -p "$root/etc/systemd/system/getty@tty1.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin seated --noclear %%I $TERM\n' \
    >"$root/etc/systemd/system/getty@tty1.service.d/autologin.conf"
# Someone else at the same seat, on tty2 once the scenario starts its getty: the session the
# seat switches to.
mkdir -p "$root/etc/systemd/system/getty@tty2.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin visitor --noclear %%I $TERM\n' \
    >"$root/etc/systemd/system/getty@tty2.service.d/autologin.conf"
echo pencild-boot-test >"$root/etc/hostname"
# The image is thrown away after the run: dpkg need not sync each file it writes.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/boot-test-unsafe-io"
chroot "$root" sh -e -c '
    useradd --create-home --groups input penuser
    useradd --create-home outsider
    useradd --create-home seated
    useradd --create-home visitor
    useradd --create-home lingerer
    mkdir -p /var/lib/systemd/linger
    touch /var/lib/systemd/linger/lingerer
    dpkg -i /root/boot-test/pencild.deb' >"$results/image.log" 2>&1 ||
    { cat "$results/image.log" >&2; loud "FAILED: the package does not install in the image (above)"; exit 1; }
size_mb=$(( $(du -sm "$root" | cut -f1) + 512 ))
mke2fs -q -t ext4 -d "$root" "$image" "${size_mb}M" || { loud "FAILED: mke2fs could not make the image"; exit 1; }
rm -rf "$root"
echo "test-boot: image ready in $(since "$t") s (${size_mb} MiB, kernel $kver)"

# 4. Boot. The first serial port is the console, the second the scenario's results.
console=$results/console.log
report=$results/results.log
timeout_s=${BOOT_TIMEOUT:-900}
echo "test-boot: booting (qemu, software emulation, timeout ${timeout_s}s); console: $console"
boot_vm "$image" 1G "$timeout_s" "$console" "$report" "BOOT-TEST "

passed=$(grep -c '^BOOT-TEST PASS' "$report" || true)
failed=$(grep -c '^BOOT-TEST FAIL' "$report" || true)
boot_line=$(sed -n 's/^BOOT-TEST INFO boot: //p' "$report" | tr -d '\r')
echo "test-boot: figures: VM ran ${vm_seconds} s (qemu exit $vm_status); guest boot: ${boot_line:-unknown}; whole tier $(since "$run_start") s"

if ! grep -q '^BOOT-TEST INFO scenario started' "$report"; then
    tail -n 40 "$console" | sed 's/^/    /' >&2
    if [ "$vm_status" -eq 124 ] || [ "$vm_status" -eq 137 ]; then
        loud "FAILED: the VM did not boot to the scenario within ${timeout_s}s (console above, and in $console)"
    else
        loud "FAILED: the VM did not boot (qemu exited with $vm_status; console above, and in $console)"
    fi
    exit 1
fi
if ! grep -q '^BOOT-TEST DONE' "$report"; then
    tail -n 30 "$console" | sed 's/^/    /' >&2
    loud "FAILED: the scenario did not finish (qemu exited with $vm_status after ${vm_seconds} s; $passed checks passed, $failed failed before).
Results: $report, console: $console"
    exit 1
fi
if [ "$failed" -gt 0 ]; then
    loud "FAILED: $failed of $((passed + failed)) checks failed:
$(grep '^BOOT-TEST FAIL' "$report")
Results (with pencild's journal): $report, console: $console"
    exit 1
fi
echo "test-boot: PASS ($passed checks; results in $report)"
