#!/usr/bin/env bash
# demo.sh BIN_DIR: `make demo`. The sketch demo beside a demo pen: pencild with --demo on a
# private socket (a pen that draws, double-taps and squeezes by itself), stopped when the
# demo's window closes.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin/pencild" ] || { echo "demo: $bin/pencild is missing: build first" >&2; exit 1; }
python=$("$here/../../scripts/gi-python.sh")

work=$(mktemp -d "${TMPDIR:-/tmp}/pencild-demo.XXXXXX")
socket=$work/pencild.sock
daemon_pid=""
stop() {
    if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
        kill -TERM "$daemon_pid"
        wait "$daemon_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

mkdir -p "$work/state"
"$bin/pencild" --socket "$socket" --state-dir "$work/state" --no-udev --demo 2>"$work/pencild.log" &
daemon_pid=$!
for _ in $(seq 100); do
    [ -S "$socket" ] && break
    kill -0 "$daemon_pid" 2>/dev/null || { echo "demo: pencild exited early:" >&2; cat "$work/pencild.log" >&2; exit 1; }
    sleep 0.1
done
[ -S "$socket" ] || { echo "demo: pencild did not create its socket in 10 s" >&2; exit 1; }
echo "demo: pencild (pid $daemon_pid) with its demo pen on $socket"
"$python" "$here/sketch.py" --socket "$socket"
