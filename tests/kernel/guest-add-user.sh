#!/usr/bin/env bash
# guest-add-user.sh NAME [GROUP,...]  (inside the VM, as root)
# Creates an ordinary user, e.g. `guest-add-user.sh pentester input`, so a
# test can run a program unprivileged with `runuser -u NAME -- CMD`.
#
# The guest's /etc is a throwaway overlay over the host's, so this does not
# touch the host. But virtme-ng bind-mounts a blank file over /etc/shadow,
# and useradd replaces /etc/shadow by rename(2), which fails on a mount point
# ("failure while writing changes to /etc/shadow"). Swap the mount for a plain
# file with the same (blank) content first.
set -euo pipefail

name=${1:?usage: guest-add-user.sh NAME [GROUP,...]}
groups=${2:-}

if mountpoint -q /etc/shadow; then
    saved=$(mktemp)
    cat /etc/shadow >"$saved"
    umount /etc/shadow
    cat "$saved" >/etc/shadow   # copied up into the overlay; host unchanged
    chmod 640 /etc/shadow
    rm -f "$saved"
fi

if id "$name" >/dev/null 2>&1; then
    [ -z "$groups" ] || usermod -a -G "$groups" "$name"
else
    useradd --create-home ${groups:+--groups "$groups"} "$name"
fi
id "$name"
