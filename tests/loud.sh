# shellcheck shell=bash
# Sourced by the test tiers' runners: `banner TIER MESSAGE` prints "TIER: MESSAGE" on
# stderr inside a banner that a CI log does not hide.
banner() {
    local tier=$1
    shift
    echo >&2
    echo "########################################################################" >&2
    echo "$tier: $*" >&2
    echo "########################################################################" >&2
}
