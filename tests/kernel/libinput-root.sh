#!/usr/bin/env bash
# libinput-root.sh DIR: the kernel suite's libinput of today, from Debian testing (forky):
# a minbase tree with libinput-tools and evemu-tools, built afresh in DIR, in which the
# suite's mirror-smoothing scenario runs libinput in a chroot inside the VM. The mirror's
# quirk goes in as `make install` puts it (LIBINPUT_MIRROR_QUIRK=auto, which must find that
# this libinput knows AttrIsVirtual). Needs root and mmdebstrap; prints what it took.
set -euo pipefail

dir=${1:?usage: libinput-root.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
start=$(date +%s.%N)

# Debian testing, from the archive the host's apt uses.
sources=/etc/apt/sources.list.d/debian.sources
mirror_uri=$(sed -n 's/^URIs:[[:space:]]*//p' "$sources" 2>/dev/null | head -n 1)
[ -n "$mirror_uri" ] || { echo "libinput-root: no URIs: in $sources" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "libinput-root: mmdebstrap is missing (apt-get install mmdebstrap)" >&2; exit 1; }

rm -rf "$dir"
# The archive is a snapshot: testing's Release file is older than apt's default limit.
mmdebstrap --quiet --variant=minbase --include=libinput-tools,evemu-tools \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    forky "$dir" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror_uri forky main"
# Where the guest binds its own /dev, /sys, /proc and udev's database.
mkdir -p "$dir/run/udev"

make -C "$repo" --no-print-directory -s install-libinput-quirks LIBINPUT_QUIRKS_DIR="$dir/usr/share/libinput"
[ -f "$dir/usr/share/libinput/20-pencild-mirror.quirks" ] ||
    { echo "libinput-root: make install did not put the mirror's quirk beside libinput $(chroot "$dir" libinput --version)'s quirks" >&2; exit 1; }
echo "libinput-root: libinput $(chroot "$dir" libinput --version) in $dir, the mirror's quirk installed, in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
