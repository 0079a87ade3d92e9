#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# calls.sh PENCIL_CALLS: the synchronous calls and typed errors against a real pencild.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
RECORDING_NAME="Calls Test Pen" write_recording "$work/pen.evemu"
start_pencild --replay "$work/pen.evemu"
client "${1:?usage: $0 PENCIL_CALLS}"
# A state folder that became a file: the daemon cannot store preferences.
rm -rf "$work/state"
touch "$work/state"
client "$1" --not-saved

# A daemon that serves one client per user: the second connection gets TooManyClients.
stop_pencild
rm -f "$work/state"
extra_limits=MaxClientsPerUser=1 start_pencild --replay "$work/pen.evemu"
client "$1" --too-many

# A user who is not root, not the daemon's user, not in the socket's group and has no
# session: PermissionDenied (docs/protocol.md, "Who may connect"). Needs root to switch users.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    chmod o+x "$work"
    chmod o+rw "$PENCILD_SOCKET"
    setpriv --reuid=65534 --regid=65534 --clear-groups "${wrapper[@]}" "$1" --denied
elif [ "${CI:-}" = true ]; then
    echo "FAIL: cannot check PermissionDenied: needs root and setpriv"
    exit 1
else
    echo "skipped: PermissionDenied (needs root and setpriv)"
fi
