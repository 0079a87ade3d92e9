#!/usr/bin/env bash
# run.sh BIN_DIR: `make test-krita`. Debian's Krita on a private Xvfb display with the plugin
# of integrations/krita enabled in a scratch HOME, and pencild on a private socket:
#   1. Krita starts while pencild is not running: the plugin's docker says so, with the
#      error's text as it is (the socket's name has a tag in it), and Krita runs;
#   2. pencild starts, replaying a pen that double-taps then squeezes, with Krita's window
#      active: the plugin connects, claims the focus, the double-tap turns eraser mode on and
#      the squeeze shows the pop-up palette, while pencil-actions stands aside; the docker
#      shows the pen's name, which has & and a tag in it, as it is;
#   3. pencild restarts with the same replay: the plugin connects again, eraser mode goes off
#      and the palette away;
#   4. another X window is active: Krita gives up the focus and does nothing, pencil-actions
#      performs both gestures (focus none).
# Krita's state is read from Krita by the plugin's test hook (PENCILD_KRITA_TEST_STATE).
# A prerequisite that is missing fails under CI=true; elsewhere the test is skipped.
set -euo pipefail

bin=${1:?usage: $0 BIN_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$SECONDS

tier=test-krita
# shellcheck source=tests/desktop-tier.sh
. "$here/../desktop-tier.sh"
for program in pencild pencilctl pencil-actions pencil-test-recordings; do
    [ -x "$bin/$program" ] || { echo "test-krita: $bin/$program is missing: build first" >&2; exit 1; }
done
command -v krita >/dev/null || cannot "krita is not installed (apt-get install --no-install-recommends krita)"
command -v Xvfb >/dev/null || cannot "Xvfb is not installed (apt-get install xvfb)"
command -v xdotool >/dev/null || cannot "xdotool is not installed (apt-get install xdotool)"
# Krita's Python is the system's: PyQt5 must be there for any Python plugin to load.
system_python=/usr/bin/python3
"$system_python" -c 'import PyQt5.QtWidgets' 2>/dev/null || cannot "PyQt5 for $system_python (apt-get install python3-pyqt5)"

begin_scratch

# state EXPRESSION: true when the Python EXPRESSION holds for the plugin's state file
# (`s`, a dict; `g`, its gestures; `os.environ`).
state_file=$work/state/krita.json
state() {
    [ -f "$state_file" ] || return 1
    "$system_python" - "$state_file" "$1" <<'PY'
import json, os, sys
with open(sys.argv[1], encoding="utf-8") as file:
    s = json.load(file)
g = s.get("gestures", [])
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
krita_runs() { kill -0 "$krita_pid" 2>/dev/null; }
dump() {
    local file
    [ -f "$state_file" ] && { echo "--- the plugin's state"; cat "$state_file"; } >&2
    for file in "$work"/*.log; do
        [ -f "$file" ] && { echo "--- $file"; tail -n 40 "$file"; }
    done >&2
}

# A display of our own: Xvfb picks a free number and writes it to the descriptor we give.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
pids+=("$!")
has_display() { [ -s "$work/display" ]; }
wait_for 30 has_display
DISPLAY=:$(tr -d '[:space:]' <"$work/display")
export DISPLAY
echo "test-krita: Xvfb on $DISPLAY"

# A scratch HOME with the plugin enabled, as a user would install it.
home=$work/home
mkdir -p "$home/.local/share/krita/pykrita" "$home/.config" "$work/state"
cp -r "$repo/integrations/krita/pencild_krita" "$repo/integrations/krita/pencild_krita.desktop" \
    "$home/.local/share/krita/pykrita/"
printf '[python]\nenable_pencild_krita=true\n' >"$home/.config/kritarc"
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 0700 "$XDG_RUNTIME_DIR"
# A name with a tag in it: it reaches the docker in the error's text while pencild is away.
socket="$work/<i>pencild.sock"

# pencil-actions' bindings: a command that writes what it performed and with which focus.
performed=$work/performed.txt
: >"$performed"
cat >"$work/actions.conf" <<CONF
[switchEraser]
command = sh -c 'echo "\$PENCIL_GESTURE \$PENCIL_ACTION \$PENCIL_FOCUS" >> $performed'
[showContextualPalette]
command = sh -c 'echo "\$PENCIL_GESTURE \$PENCIL_ACTION \$PENCIL_FOCUS" >> $performed'
CONF

# The pen's name is its maker's text: the docker must show it as it is.
export PEN_NAME="Client Test Pen & <b>Co</b>"
"$bin/pencil-test-recordings" --client-pen --squeeze --name "$PEN_NAME" >"$work/pen.events"

echo "test-krita: Krita starts, pencild is not running"
HOME=$home PENCILD_SOCKET=$socket PENCILD_KRITA_TEST_STATE=$state_file \
    PYTHONPATH=$repo/clients/python/src${PYTHONPATH:+:$PYTHONPATH} \
    krita --nosplash --new-image RGBA,U8,800,600 >"$work/krita.log" 2>&1 &
krita_pid=$!
pids=("$krita_pid" "${pids[@]}")
krita_started=$SECONDS
# Krita is slow to start on two cores: a generous bound, ended by the plugin's first write.
wait_for 180 state 's["ready"]' || { dump; exit 1; }
echo "test-krita: Krita ready after $((SECONDS - krita_started)) s"
check "the plugin reports pencild unreachable" state 's["connection"] == "unreachable"'
check "its docker says so" state 'any("not reachable" in text for text in s["dockerShown"])'
check "with the error's text as it is, not read as rich text" state 'any("<i>pencild.sock" in text for text in s["dockerShown"])'
check "Krita runs, its window shown" state '"KisMainWindow" in s["windows"]'
check "Krita is still running" krita_runs

# Krita's main window becomes the X input focus; without a window manager, Qt takes that
# as its window being activated.
window=$(timeout 30 xdotool search --sync --onlyvisible --class '^krita$' | head -n 1)
xdotool windowfocus "$window"
wait_for 30 state 's["active"]' || { dump; exit 1; }

# run_pencild NAME: pencild replaying the pen on the socket; the replay starts once two
# monitors have subscribed: Krita's and pencil-actions', which is started by phase().
run_pencild() {
    rm -f "$socket"
    "$bin/pencild" --socket "$socket" --state-dir "$work/pencild-state" --no-udev --replay "$work/pen.events" \
        --speed max --exit-after-replay --wait-monitors 2 2>"$work/pencild-$1.log" &
    pencild_pid=$!
    pids+=("$pencild_pid")
}
# replay NAME GESTURES FOCUS [CHECKS]: once Krita is connected with the focus claim FOCUS
# (True or False), runs the function CHECKS (the replay has not started); then
# pencil-actions subscribes, the replay runs and pencild exits; then waits for the plugin to
# have seen GESTURES gestures in all.
replay() {
    local name=$1 gestures=$2 focus=$3 checks=${4:-}
    run_pencild "$name"
    connected="s['connection'] == 'connected' and s['focusClaimed'] == $focus and s['pens']"
    wait_for 60 state "$connected" || { dump; exit 1; }
    [ -z "$checks" ] || "$checks"
    "$bin/pencil-actions" --socket "$socket" --config "$work/actions.conf" --verbose >"$work/actions-$name.log" 2>&1 &
    actions_pid=$!
    pids+=("$actions_pid")
    wait "$pencild_pid" || { echo "test-krita: FAIL: pencild ($name) failed" >&2; dump; exit 1; }
    wait_for 30 state "len(g) >= $gestures" || { dump; exit 1; }
}
actions_saw() { [ "$(grep -c "$1" "$work/actions-$2.log")" -ge "$3" ]; }
stop_actions() { kill -TERM "$actions_pid" 2>/dev/null || true; wait "$actions_pid" 2>/dev/null || true; }

echo "test-krita: pencild starts; Krita's window is active"
connected_checks() {
    check "the plugin connected to the pencild that came after it, and claimed the focus" state "$connected"
    check "the docker says so" state 'any("pencild: connected" in text and "focus: Krita" in text for text in s["dockerTexts"])'
    check "the docker lists the pen" state 'any("Client Test Pen" in text for text in s["dockerShown"])'
    check "by its name as it is, & and tags included" state 'any(os.environ["PEN_NAME"] in text for text in s["dockerShown"])'
    check "the docker shows the user's actions" state 'any("double-tap: switchEraser" in text and "squeeze: showContextualPalette" in text for text in s["dockerTexts"])'
}
replay first 2 True connected_checks
check "the double-tap came with focus this, and Krita acted" state 'g[0]["type"] == "doubleTap" and g[0]["focus"] == "this" and g[0]["acted"]'
check "after the double-tap, eraser mode is on (erase_action checked)" state 'g[0]["eraser"]'
check "the squeeze's end came with focus this, and Krita acted" state 'g[1]["type"] == "squeeze" and g[1]["focus"] == "this" and g[1]["acted"]'
check "after the squeeze, the pop-up palette is shown" state 'g[1]["popupPalette"]'
wait_for 10 actions_saw "that app acts, not pencil-actions" first 2 || true
check "pencil-actions saw both gestures with the focus held by Krita" actions_saw "focus is other: that app acts" first 2
check "and performed nothing" test ! -s "$performed"
stop_actions

echo "test-krita: pencild restarts; Krita's window still active"
again_checks() { check "the plugin connected to the new pencild and claimed the focus again" state "$connected"; }
replay again 4 True again_checks
check "the second double-tap turned eraser mode off" state 'g[2]["type"] == "doubleTap" and g[2]["acted"] and not g[2]["eraser"]'
check "the second squeeze hid the pop-up palette" state 'g[3]["type"] == "squeeze" and g[3]["acted"] and not g[3]["popupPalette"]'
stop_actions

echo "test-krita: another X window is active"
"$system_python" -c '
import sys
from PyQt5.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv)
label = QLabel("another app")
label.setWindowTitle("pencild-test-other-app")
label.resize(200, 100)
label.show()
app.exec_()
' >"$work/other.log" 2>&1 &
pids+=("$!")
other=$(timeout 30 xdotool search --sync --onlyvisible --name '^pencild-test-other-app$' | head -n 1)
xdotool windowfocus "$other"
wait_for 30 state 'not s["active"]' || { dump; exit 1; }
check "Krita gave up the focus" state 'not s["focusClaimed"]'
other_checks() { check "connected again, Krita leaves the focus unclaimed" state "$connected"; }
replay other 6 False other_checks
check "the gestures came to Krita with focus none, and Krita did nothing" state 'all(x["focus"] == "none" and not x["acted"] for x in g[4:6])'
check "eraser mode stayed off" state 'not s["eraser"]'
check "the pop-up palette stayed hidden" state 'not s["popupPalette"]'
performed_both() { grep -qx 'doubleTap switchEraser none' "$performed" && grep -qx 'squeeze showContextualPalette none' "$performed"; }
wait_for 10 performed_both || true
check "pencil-actions performed the double-tap and the squeeze (focus none)" performed_both
stop_actions
check "Krita is still running" krita_runs

# The end: the plugin's hook leaves at once (Krita would ask about the unsaved image).
touch "$state_file.quit"
wait "$krita_pid" 2>/dev/null || true

if [ "$failed" -gt 0 ]; then dump; fi
echo "test-krita: took $((SECONDS - started)) s"
summary
