#!/bin/sh
# release-uinput.sh: on the running system, udev reads its rules again and sees /dev/uinput
# again; when no rule tags the node uaccess any more, the ACL a uinput rule gave goes too.
# logind sets that ACL, and nothing takes it back when the rule goes: it would stay until the
# next boot. `make uninstall` runs this; debian/pencil-actions.postinst and .postrm carry the
# same function (tests/packaging/run.sh checks that the copies agree).
set -e

# --- release_uinput ---
release_uinput() {
    [ -z "${DPKG_ROOT:-}" ] && [ -d /run/udev ] && command -v udevadm >/dev/null 2>&1 || return 0
    udevadm control --reload || true
    udevadm trigger --action=change --sysname-match=uinput || true
    udevadm settle --timeout=10 || true
    [ -c /dev/uinput ] || return 0
    # An administrator's own rule still tags it: its ACL stays (CURRENT_TAGS where udev has it).
    properties=$(udevadm info -q property -n /dev/uinput 2>/dev/null || true)
    tags=$(printf '%s\n' "$properties" | sed -n 's/^CURRENT_TAGS=//p')
    [ -n "$tags" ] || tags=$(printf '%s\n' "$properties" | sed -n 's/^TAGS=//p')
    case $tags in *:uaccess:*) return 0 ;; esac
    # A '+' after the mode: the node has an ACL. setfacl (package acl, which pencil-actions
    # depends on) removes it and leaves the group pencild-uinput its access; without it,
    # chmod sets the ACL's mask to nothing, so that its entries grant nothing (the group's
    # access too, until udev next applies 70-pencild.rules, at the next boot).
    # shellcheck disable=SC2012
    case $(ls -ld /dev/uinput) in
        ??????????+*)
            if command -v setfacl >/dev/null 2>&1; then setfacl -b /dev/uinput || true; else chmod go-rwx /dev/uinput || true; fi ;;
    esac
}
# --- end ---

release_uinput
