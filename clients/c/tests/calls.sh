#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# calls.sh PENCIL_CALLS: the synchronous calls and typed errors against a real pencild.
# shellcheck source=lib.sh disable=SC1091
source "$(dirname "$0")/lib.sh"
RECORDING_NAME="Calls Test Pen" write_recording "$work/pen.evemu"
start_pencild --replay "$work/pen.evemu"
client "${1:?usage: $0 PENCIL_CALLS}"
