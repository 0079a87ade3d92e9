# Sourced by the test tiers' runners: `loud MESSAGE` prints MESSAGE on stderr inside a
# banner that a CI log does not hide, prefixed with $tier (e.g. "test-kernel").
loud() {
    echo >&2
    echo "########################################################################" >&2
    echo "${tier:?}: $*" >&2
    echo "########################################################################" >&2
}
