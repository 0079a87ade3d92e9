#!/usr/bin/env bash
# test-palette.sh BIN_DIR: `make test-palette`. The system palette, pencil-palette, on a
# private X server (Xvfb, 1280x800, no window manager) with a private D-Bus session and the
# accessibility bus, over an app in front that writes down every press and key it receives
# (behind.py). drive.py runs the palette as pencil-actions does and works it as a person
# would: it opens at the pen, and moves just enough to be whole on the screen; its items are
# named buttons, Pen shown checked; a click on an item chooses it, a click outside or Escape
# closes it, and the app behind receives none of them (while the same click or key with no
# palette does reach it); the arrows and Return choose; open_at gives the focus; close lines
# and the end of its input close it; bad requests are refused with the field named; with no
# display it says it cannot open. Before that: the placement and request unit tests, mypy
# and shellcheck. A screenshot of the palette over the app goes to .build/palette-screenshots.
# Then the whole way, with BIN_DIR's pencild (its demo pen) and pencil-actions and nothing
# configured: a squeeze opens the palette with its centre at the pen, Return takes its first
# item, Undo, and pencil-actions presses Undo's chord once the palette has gone; while an app
# holds the pen's focus, a squeeze opens none (with the same squeeze opening one beside it).
# A prerequisite that is missing fails under CI=true; elsewhere the test is skipped.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
app_dir=$(cd "$here/.." && pwd)
repo=$(cd "$app_dir/../.." && pwd)

tier=test-palette
# shellcheck source=tests/desktop-tier.sh
. "$here/../../../tests/desktop-tier.sh"
require_accessible_gtk
for program in xdotool:xdotool xwininfo:x11-utils import:imagemagick; do
    command -v "${program%%:*}" >/dev/null || cannot_run "${program%%:*} is not installed (apt-get install ${program#*:})"
done

# Everything below runs on a D-Bus session bus of its own, which ends with the test.
if [ -z "${PENCIL_PALETTE_TEST_BUS:-}" ]; then
    exec dbus-run-session -- env PENCIL_PALETTE_TEST_BUS=1 "$0" "$@"
fi

started=$SECONDS
begin_scratch

echo "test-palette: unit tests and the scripts"
if (cd "$app_dir" && PYTHONPATH=$app_dir "$python" -m unittest discover -s "$here" -p 'test_*.py') >"$work/unit.log" 2>&1; then
    pass "unit tests: placement and the request's checks ($(grep -o 'Ran [0-9]* tests' "$work/unit.log"))"
else
    fail "unit tests: $(cat "$work/unit.log")"
fi
if command -v mypy >/dev/null; then
    if MYPYPATH=$repo/tests mypy --ignore-missing-imports --no-error-summary --cache-dir "$work/mypy" \
        --scripts-are-modules "$app_dir/pencil-palette" "$app_dir/pencil_palette" "$here"/*.py; then
        pass "mypy: the palette and the test's Python"
    else
        fail "mypy"
    fi
else
    cannot_check "mypy is not installed (apt-get install mypy)"
fi
if command -v shellcheck >/dev/null; then
    # From the top of the tree, with the library it sources.
    if (cd "$repo" && shellcheck --severity=warning apps/palette/tests/*.sh tests/desktop-tier.sh tests/lib.sh); then
        pass "shellcheck: the test's script"
    else
        fail "shellcheck"
    fi
else
    cannot_check "shellcheck is not installed (apt-get install shellcheck)"
fi
if "$python" "$app_dir/pencil-palette" --help | grep -q -- '--route'; then pass "pencil-palette --help"; else fail "pencil-palette --help"; fi
# Python without its site packages has no GTK: the launcher says so as a reply, no traceback.
missing_status=0
"$python" -S "$app_dir/pencil-palette" </dev/null >"$work/missing.out" 2>"$work/missing.err" || missing_status=$?
check "without GTK 4 for Python, an error reply that names the packages, exit 1 (exit $missing_status: $(cat "$work/missing.out"))" \
    bash -c "[ $missing_status = 1 ] && grep -q '\"error\": \"cannot open the palette: GTK 4 for Python is missing.*python3-gi' '$work/missing.out' && ! grep -q Traceback '$work/missing.err'"

export XDG_RUNTIME_DIR=$work/runtime XDG_CONFIG_HOME=$work/config HOME=$work/home
mkdir -m 0700 "$XDG_RUNTIME_DIR"
mkdir -p "$XDG_CONFIG_HOME" "$HOME"
export GSETTINGS_BACKEND=memory NO_AT_BRIDGE=0 GTK_A11Y=atspi GDK_BACKEND=x11 XDG_CURRENT_DESKTOP=
unset WAYLAND_DISPLAY
export PALETTE=$app_dir/pencil-palette PYTHON=$python WORK=$work BEHIND_LOG=$work/behind.log
export SCREENSHOTS=${SCREENSHOTS:-$repo/.build/palette-screenshots}
: >"$BEHIND_LOG"

start_xvfb 1280x800x24
"$launcher" --launch-immediately >"$work/at-spi.log" 2>&1 &
pids+=("$!")
echo "test-palette: Xvfb on $DISPLAY"
"$python" "$here/behind.py" "$BEHIND_LOG" >"$work/behind.err" 2>&1 &
pids=("$!" "${pids[@]}")

echo "test-palette: the palette over an app"
status=0
"$python" "$here/drive.py" >"$work/drive.out" 2>&1 || status=$?
cat "$work/drive.out"
passed=$((passed + $(grep -c '^  ok: ' "$work/drive.out" || true)))
failed=$((failed + $(grep -c '^  FAIL: ' "$work/drive.out" || true)))
if [ "$status" -ne 0 ] && ! grep -q '^  FAIL: ' "$work/drive.out"; then
    failed=$((failed + 1))
fi

echo "test-palette: pencil-actions opens it for the demo pen's squeeze"
for program in pencild pencilctl pencil-actions; do
    [ -x "$bin/$program" ] || { fail "$bin/$program is missing: build first"; }
done
export PENCILD_SOCKET=$work/pencild.sock
"$bin/pencild" --demo --socket "$PENCILD_SOCKET" >"$work/pencild.log" 2>&1 &
pids+=("$!")
wait_for 30 test -S "$PENCILD_SOCKET" || fail "pencild --demo did not listen" "$(cat "$work/pencild.log")"
# Nothing configured: no actions.conf of the person's, the shipped bindings beside it.
"$bin/pencil-actions" --focus x11 --palette "$app_dir/pencil-palette" --config "$work/no-actions.conf" \
    --shipped-config "$repo/examples/actions.conf" --verbose 2>"$work/actions.log" &
pids+=("$!")
wait_for 30 grep -q 'subscribed to' "$work/actions.log" || fail "pencil-actions did not subscribe" "$(cat "$work/actions.log")"
"$bin/pencilctl" monitor --json --events squeeze >"$work/squeezes.json" 2>&1 &
pids+=("$!")
shown() { grep -c 'the system palette is on screen at' "$work/actions.log" || true; }
"$bin/pencilctl" try squeeze >"$work/try.txt" 2>&1 || fail "pencilctl try squeeze" "$(cat "$work/try.txt")"
if wait_for 30 grep -q 'the system palette is on screen at' "$work/actions.log"; then
    # Where the pen was as the squeeze ended, against the palette's rectangle.
    read -r pen_x pen_y < <("$python" -c '
import json, sys
for line in open(sys.argv[1]):
    event = json.loads(line)
    if event.get("type") == "squeeze" and event.get("phase") == "ended":
        print(round(event["pose"]["x"] * 1280), round(event["pose"]["y"] * 800))
' "$work/squeezes.json" | tail -n 1)
    read -r box_x box_y box_w box_h < <(sed -n 's/.*on screen at \([0-9-]*\),\([0-9-]*\), \([0-9]*\)x\([0-9]*\) .*/\1 \2 \3 \4/p' "$work/actions.log" | head -n 1)
    centre_x=$((box_x + box_w / 2))
    centre_y=$((box_y + box_h / 2))
    distance=$("$python" -c 'import math, sys; a = list(map(float, sys.argv[1:])); print(round(math.hypot(a[0] - a[2], a[1] - a[3])))' \
        "$centre_x" "$centre_y" "${pen_x:-0}" "${pen_y:-0}")
    check "a squeeze with nothing configured opens the system palette with its centre within 40 px of the pen ($distance px: centre $centre_x,$centre_y, pen ${pen_x:-?},${pen_y:-?})" \
        test "$distance" -le 40
    xdotool key Return
    if wait_for 30 grep -q 'showContextualPalette Undo: key leftctrl+z' "$work/actions.log"; then
        pass "Return takes its first item, Undo, and pencil-actions asks for its chord, Ctrl+Z, once the palette has gone (no keyboard presses it here: no seat)" \
            "$(grep 'showContextualPalette Undo: key' "$work/actions.log" | head -n 1)"
    else
        fail "Undo's chord" "$(cat "$work/actions.log")"
    fi
else
    fail "a squeeze opens the system palette" "$(cat "$work/actions.log")"
fi
# An app that speaks pencild holds the pen's focus: the squeeze is its own, no palette opens.
before=$(shown)
"$python" -c '
import signal, sys
sys.path.insert(0, sys.argv[1])
import pencild
client = pencild.Client()
client.set_focused(True)
print("holding", flush=True)
signal.pause()
' "$repo/clients/python/src" >"$work/holder.out" 2>&1 &
holder=$!
pids+=("$holder")
wait_for 30 grep -q holding "$work/holder.out" || fail "the focus holder" "$(cat "$work/holder.out")"
"$bin/pencilctl" try squeeze >"$work/try-held.txt" 2>&1 || true
if wait_for 30 grep -q 'focus is other: that app acts' "$work/actions.log"; then
    check "while an app holds the pen's focus, a squeeze opens no system palette" test "$(shown)" = "$before"
else
    fail "pencil-actions did not see the held squeeze" "$(cat "$work/actions.log")"
fi

echo "test-palette: Pen and Eraser switch the tip through the pen's mirror"
# The client test pen double-taps, which switches its mirror to the eraser, squeezes and hovers
# on for a minute (a last empty frame), so the palette's Pen reaches it.
# Its mirror is routed and its writes dropped (--mirror-replays): the switch is pencild's own
# state, read back in deviceChanged; the strokes that follow one are the VM tier's.
"$bin/pencil-test-recordings" --client-pen --squeeze >"$work/leaves.evemu"
# The same pen, hovering on after its squeeze rather than leaving.
sed '$d' "$work/leaves.evemu" | sed '$d' >"$work/mirrored.evemu"
echo "E: 60.000000 0000 0000 0000" >>"$work/mirrored.evemu"
export PENCILD_SOCKET=$work/mirrored.sock
"$bin/pencild" --replay "$work/mirrored.evemu" --mirror-replays --wait-monitors 2 --socket "$PENCILD_SOCKET" >"$work/mirrored.log" 2>&1 &
pids+=("$!")
wait_for 30 test -S "$PENCILD_SOCKET" || fail "pencild --mirror-replays did not listen" "$(cat "$work/mirrored.log")"
"$bin/pencil-actions" --focus x11 --palette "$app_dir/pencil-palette" --config "$work/no-actions.conf" \
    --shipped-config "$repo/examples/actions.conf" --verbose 2>"$work/actions-mirrored.log" &
pids+=("$!")
wait_for 30 grep -q 'subscribed to' "$work/actions-mirrored.log" || fail "pencil-actions did not subscribe" "$(cat "$work/actions-mirrored.log")"
"$bin/pencilctl" monitor --json --events deviceChanged >"$work/changes.json" 2>&1 &
pids+=("$!")
tips() { "$python" -c '
import json, sys
print(" ".join(json.loads(line)["deviceInfo"].get("tipReportedAs", "-") for line in open(sys.argv[1]) if line.strip()))
' "$work/changes.json"; }
if wait_for 30 grep -q 'the system palette is on screen at' "$work/actions-mirrored.log"; then
    check "the double-tap switched the mirror to the eraser before the squeeze (deviceChanged: $(tips))" test "$(tips)" = eraser
    # The palette starts at the tool in use, Eraser: Left goes to Pen, Return takes it.
    xdotool key Left Return
    if wait_for 30 grep -q 'Pen: the tip is reported as the pen' "$work/actions-mirrored.log" && wait_for 10 test "$(tips)" = "eraser pen"; then
        pass "the palette's Pen switches the tip back through the mirror, and every monitor hears it (deviceChanged: $(tips))"
    else
        fail "the palette's Pen" "$(tips); $(cat "$work/actions-mirrored.log")"
    fi
else
    fail "a squeeze of the mirrored pen opens the system palette" "$(cat "$work/actions-mirrored.log")"
fi

echo "test-palette: the pen away for 3 s closes it"
# The same pen leaving right after its squeeze, and staying away.
echo "E: 60.000000 0000 0000 0000" >>"$work/leaves.evemu"
export PENCILD_SOCKET=$work/leaves.sock
"$bin/pencild" --replay "$work/leaves.evemu" --wait-monitors 1 --socket "$PENCILD_SOCKET" >"$work/leaves.log" 2>&1 &
pids+=("$!")
wait_for 30 test -S "$PENCILD_SOCKET" || fail "pencild did not listen" "$(cat "$work/leaves.log")"
"$bin/pencil-actions" --focus x11 --palette "$app_dir/pencil-palette" --config "$work/no-actions.conf" \
    --shipped-config "$repo/examples/actions.conf" --verbose 2>"$work/actions-away.log" &
pids+=("$!")
if wait_for 30 grep -q 'the system palette is on screen at' "$work/actions-away.log" &&
    wait_for 30 grep -q 'the system palette closed (away)' "$work/actions-away.log"; then
    pass "the pen out of proximity for 3 s closes the palette, and nothing is performed" \
        "$(grep -o 'the pen has been away for .*' "$work/actions-away.log")"
else
    fail "the pen away closes the palette" "$(cat "$work/actions-away.log")"
fi
check "the palette of the pen that stayed was not closed as away" bash -c "! grep -q 'closed (away)' '$work/actions-mirrored.log'"

echo "test-palette: where it cannot open, pencil-actions and pencilctl actions say why"
# No display at all: pencil-palette answers that it cannot open. A runtime folder of its own,
# so that the status pencilctl reads is this pencil-actions'.
export PENCILD_SOCKET=$work/nodisplay.sock
mkdir -m 0700 "$work/runtime-nodisplay"
"$bin/pencild" --demo --socket "$PENCILD_SOCKET" >"$work/nodisplay.log" 2>&1 &
pids+=("$!")
wait_for 30 test -S "$PENCILD_SOCKET" || fail "pencild --demo did not listen" "$(cat "$work/nodisplay.log")"
env -u DISPLAY XDG_RUNTIME_DIR="$work/runtime-nodisplay" "$bin/pencil-actions" --focus none --palette "$app_dir/pencil-palette" \
    --config "$work/no-actions.conf" --shipped-config "$repo/examples/actions.conf" 2>"$work/actions-nodisplay.log" &
pids+=("$!")
wait_for 30 grep -q 'subscribed to' "$work/actions-nodisplay.log" || fail "pencil-actions did not subscribe" "$(cat "$work/actions-nodisplay.log")"
"$bin/pencilctl" try squeeze >"$work/try-nodisplay.txt" 2>&1 || fail "pencilctl try squeeze" "$(cat "$work/try-nodisplay.txt")"
if wait_for 30 grep -q 'the system palette cannot open: cannot open the palette' "$work/actions-nodisplay.log"; then
    pass "without a display, pencil-actions logs why the palette cannot open" "$(grep -o 'the system palette cannot open.*' "$work/actions-nodisplay.log" | head -n 1)"
    XDG_RUNTIME_DIR="$work/runtime-nodisplay" "$bin/pencilctl" actions --config "$work/no-actions.conf" >"$work/actions-nodisplay.txt" 2>&1 || true
    check "pencilctl actions says so too: $(grep '^system palette' "$work/actions-nodisplay.txt")" \
        grep -q '^system palette: it could not open the last time: cannot open the palette' "$work/actions-nodisplay.txt"
else
    fail "without a display" "$(cat "$work/actions-nodisplay.log")"
fi
check "with a display, the status said nothing of the kind" bash -c "! grep -q 'cannot open' '$work/actions.log'"

echo "test-palette: a palette that never shows is ended, and the next squeeze opens another"
printf '#!/bin/sh\nexec sleep 60\n' >"$work/hung-palette"
chmod +x "$work/hung-palette"
mkdir -m 0700 "$work/runtime-hung"
XDG_RUNTIME_DIR="$work/runtime-hung" "$bin/pencil-actions" --focus none --palette "$work/hung-palette" --verbose \
    --config "$work/no-actions.conf" --shipped-config "$repo/examples/actions.conf" 2>"$work/actions-hung.log" &
pids+=("$!")
wait_for 30 grep -q 'subscribed to' "$work/actions-hung.log" || fail "pencil-actions did not subscribe" "$(cat "$work/actions-hung.log")"
"$bin/pencilctl" try squeeze >/dev/null 2>&1 || true
if wait_for 30 grep -q 'was not on screen 5 s after the gesture: it was ended' "$work/actions-hung.log"; then
    hung_pid=$(sed -n 's/.*the system palette, pid \([0-9]*\),.*/\1/p' "$work/actions-hung.log" | head -n 1)
    check "the palette that never showed is ended after 5 s (pid $hung_pid) and reaped" wait_for 10 bash -c "! kill -0 $hung_pid 2>/dev/null"
    "$bin/pencilctl" try squeeze >/dev/null 2>&1 || true
    check "the next squeeze opens a palette again rather than closing the hung one" \
        wait_for 30 bash -c "[ \$(grep -c 'the system palette, pid' '$work/actions-hung.log') = 2 ]"
else
    fail "a palette that never shows" "$(cat "$work/actions-hung.log")"
fi

echo "test-palette: screenshots in $SCREENSHOTS"
echo "test-palette: took $((SECONDS - started)) s"
if [ "$failed" -gt 0 ]; then
    for log in "$work"/palette-*.err "$work/behind.err"; do
        [ -s "$log" ] && { echo "--- $(basename "$log")"; cat "$log"; }
    done
fi
summary
