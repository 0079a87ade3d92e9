#!/bin/sh
# The files generated from interfaces/org.pencild.Pen.varlink are up to date, and the check that
# says so is not vacuous: on a scratch copy of what the generation reads and writes, it fails for
# a generated file edited by hand (each of them) and for an interface edited without
# regenerating; after a regeneration a new name, preference, method, error and one-shot gesture
# reach the daemon's side and every client, and the C client's numbers stay as they were.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
generated="Sources/PencilDaemon/PenInterfaceDescription.swift Sources/PencilProtocol/PenInterfaceNames.swift
Sources/PencilProtocol/Names.swift Sources/PencilProtocol/PreferencesFields.swift Sources/PencilDaemon/PenError.swift
Sources/PencilDaemon/PenParameters.swift Sources/PencilClient/Names.swift Sources/PencilClient/PreferenceFields.swift
clients/python/src/pencild/_names.py clients/c/src/names.c clients/c/src/preference-fields.h clients/c/include/pencil.h
Sources/GestureRecognizer/GestureMachines.swift"
machines=$(cd "$top" && echo Sources/GestureRecognizer/Machines/*Machine.swift)
files="interfaces/org.pencild.Pen.varlink scripts/generate-from-interface $generated $machines"
failures=0
fail() {
    echo "generated-names: FAIL: $*" >&2
    failures=$((failures + 1))
}

"$top/scripts/generate-from-interface" --check || fail "the tree's generated files are stale"

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
fresh_copy() {
    rm -rf "${copy:?}"/*
    # Not "file": the loops that call this name their own.
    for copied in $files; do
        mkdir -p "$copy/$(dirname "$copied")"
        cp "$top/$copied" "$copy/$copied"
    done
}
quietly() { "$@" >/dev/null 2>&1; }

fresh_copy
quietly "$copy/scripts/generate-from-interface" --check || fail "the check fails on an unchanged copy"

# Each generated file, edited by hand: a line added at its end (pencil.h: in its generated part).
for file in $generated; do
    fresh_copy
    case $file in
    *pencil.h) sed -i '/^	PENCIL_TOOL_LENS,$/d' "$copy/$file" ;;
    *) echo "// edited by hand" >> "$copy/$file" ;;
    esac
    quietly "$copy/scripts/generate-from-interface" --check && fail "the check passes with a hand-edited $file"
done
# ...and a generated file that is missing.
fresh_copy
rm "$copy/Sources/PencilDaemon/PenParameters.swift"
quietly "$copy/scripts/generate-from-interface" --check && fail "the check passes with PenParameters.swift missing"

fresh_copy
sed -i 's/"lens");/"lens", "quill");/' "$copy/clients/c/src/names.c"
quietly "$copy/scripts/generate-from-interface" --check && fail "the check passes with a hand-edited names.c"

# A tool inserted mid-list (the C client appends it), a boolean preference, a method and an
# error with parameters, as an engineer adds them to the interface alone.
fresh_copy
interface="$copy/interfaces/org.pencild.Pen.varlink"
sed -i 's/^# tool names: pen, eraser,/# tool names: pen, quill, eraser,/' "$interface"
sed -i 's/^  mirrorSwitchesTool: ?bool$/  mirrorSwitchesTool: ?bool,\n  prefersQuietClicks: ?bool/' "$interface"
# The method's parameters over two lines, as longer declarations are written.
printf '%s\n' '' 'method ReleaseKeys(device: ?string,' '  keys: []string) -> ()' 'error ChordRejected (chord: string, reason: string)' >> "$interface"
quietly "$copy/scripts/generate-from-interface" --check && fail "the check passes with an interface newer than the generated files"
"$copy/scripts/generate-from-interface"
quietly "$copy/scripts/generate-from-interface" --check || fail "the check fails right after a regeneration"

expect_in() { # FILE: FILE holds each line given on standard input
    while IFS= read -r text; do
        grep -qxF -- "$text" "$copy/$1" || fail "$1 lacks: $text"
    done
}
expect_in Sources/PencilClient/Names.swift <<'LINES'
        case .quill: "quill"
LINES
expect_in clients/python/src/pencild/_names.py <<'LINES'
    QUILL = "quill"
    prefers_quiet_clicks: Optional[bool] = None
    ("prefers_quiet_clicks", "prefersQuietClicks", bool),
LINES
expect_in clients/c/src/names.c <<'LINES'
TABLE(tool_table, "pen", "eraser", "brush", "pencil", "airbrush", "mouse", "lens", "quill");
LINES
expect_in clients/c/include/pencil.h <<'LINES'
	PENCIL_TOOL_QUILL,
int pencil_preferences_get_prefers_quiet_clicks(const struct pencil_preferences *preferences);
int pencil_preferences_set_prefers_quiet_clicks(struct pencil_preferences *preferences, bool value);
LINES
expect_in clients/c/src/preference-fields.h <<'LINES'
	FLAG(prefers_quiet_clicks, "prefersQuietClicks")
LINES
expect_in Sources/PencilClient/PreferenceFields.swift <<'LINES'
    public var prefersQuietClicks: Bool
        add("prefersQuietClicks", prefersQuietClicks.map { .bool($0) })
LINES
expect_in Sources/PencilProtocol/PenInterfaceNames.swift <<'LINES'
        case releaseKeys = "ReleaseKeys"
        case chordRejected = "ChordRejected"
LINES
# The daemon's side: its enum, its preferences' table, the error with its parameters, and the
# method's typed parameters.
expect_in Sources/PencilProtocol/Names.swift <<'LINES'
    case pen, quill, eraser, brush, pencil, airbrush, mouse, lens
LINES
expect_in Sources/PencilProtocol/PreferencesFields.swift <<'LINES'
        .flag("prefersQuietClicks", \.prefersQuietClicks),
LINES
expect_in Sources/PencilDaemon/PenError.swift <<'LINES'
    static func chordRejected(chord: String, reason: String) -> VarlinkError {
        error(.chordRejected, [("chord", .string(chord)), ("reason", .string(reason))])
LINES
expect_in Sources/PencilDaemon/PenParameters.swift <<'LINES'
    struct ReleaseKeys: Sendable {
LINES
grep -A6 -xF '    struct ReleaseKeys: Sendable {' "$copy/Sources/PencilDaemon/PenParameters.swift" |
    grep -qxF '            keys = try parameters.required("keys", .strings)' ||
    fail "PenParameters.swift: ReleaseKeys does not read its keys, declared on the method's second line"

grep -A1 -xF '	PENCIL_TOOL_LENS,' "$copy/clients/c/include/pencil.h" | grep -qxF '	PENCIL_TOOL_QUILL,' ||
    fail "pencil.h: PENCIL_TOOL_QUILL does not follow PENCIL_TOOL_LENS"

# A one-shot gesture, as an engineer adds one to the interface: its event type, its line among
# the gestures and its action's preference (and its machine, here an empty file: what it holds
# is tests/interface/new-gesture.sh's). Every side learns its event type, whether it is phased
# and where its action is, and the event's JSON opening; the recogniser gets its machine.
fresh_copy
: > "$copy/Sources/GestureRecognizer/Machines/TripleTapMachine.swift"
sed -i -e 's/^\(# eventType names: .*\)$/\1, tripleTap/' \
    -e 's/^\(# gesture names: .*\)$/\1, tripleTap (one-shot: acted on when it arrives)/' \
    -e 's/^  squeezeAction: ?string,$/  squeezeAction: ?string,\n  tripleTapAction: ?string,/' "$interface"
"$copy/scripts/generate-from-interface"
expect_in Sources/PencilProtocol/Names.swift <<'LINES'
        case .tripleTap: #"{"type":"tripleTap","time":"#
        case .tripleTap: self = .tripleTap
        case .tripleTap: false
LINES
expect_in Sources/PencilProtocol/PreferencesFields.swift <<'LINES'
        case .tripleTap: tripleTapAction
LINES
expect_in Sources/GestureRecognizer/GestureMachines.swift <<'LINES'
    var tripleTap = TripleTapMachine()
LINES
expect_in Sources/PencilClient/Names.swift <<'LINES'
        .tripleTap,
LINES
expect_in Sources/PencilClient/PreferenceFields.swift <<'LINES'
        case .tripleTap: tripleTapAction
LINES
expect_in clients/python/src/pencild/_names.py <<'LINES'
    (Gesture.TRIPLE_TAP, "tripleTapAction", False),
LINES
grep -q 'tripleTap\|TRIPLE_TAP' "$copy/clients/c/include/pencil.h" "$copy/clients/c/src/names.c" && grep -q 'pencil_gesture\b' "$copy/clients/c/include/pencil.h" &&
    fail "the C client got an enum of gestures (it switches on the event type)"
grep -qxF '	PENCIL_EVENT_TRIPLE_TAP,' "$copy/clients/c/include/pencil.h" || fail "pencil.h lacks the new event type PENCIL_EVENT_TRIPLE_TAP"

# What the generation cannot know it refuses, naming it, and writes nothing: a method declared
# twice, a number among the preferences whose unit is not given, a field it cannot read.
refuses() { # WHAT SED-EXPRESSION MESSAGE
    fresh_copy
    sed -i "$2" "$copy/interfaces/org.pencild.Pen.varlink"
    if "$copy/scripts/generate-from-interface" >"$copy/out" 2>&1; then
        fail "the generation accepts $1"
    elif ! grep -qF -- "$3" "$copy/out"; then
        fail "the generation refuses $1 without saying why: $(cat "$copy/out")"
    fi
    cmp -s "$top/Sources/PencilDaemon/PenParameters.swift" "$copy/Sources/PencilDaemon/PenParameters.swift" ||
        fail "the generation wrote files before refusing $1"
}
refuses "a method declared twice" '$a method PlayGesture(gesture: string) -> ()' "method PlayGesture is declared twice"
refuses "an int preference without a unit" 's/^  mirrorSwitchesTool: ?bool$/  mirrorSwitchesTool: ?bool,\n  pressureCurve: ?int/' \
    "Preferences.pressureCurve: say in PREFERENCE_UNITS"
refuses "a gesture without its action's preference" 's/^\(# eventType names: .*\)$/\1, tripleTap/; s/^\(# gesture names: .*\)$/\1, tripleTap (one-shot: acted on when it arrives)/' \
    "tripleTap needs its preference 'tripleTapAction: ?string'"
: > "$copy/Sources/GestureRecognizer/Machines/TripleTapMachine.swift"
refuses "a gesture without its machine" 's/^\(# eventType names: .*\)$/\1, flick/; s/^\(# gesture names: .*\)$/\1, flick (one-shot: acted on when it arrives)/; s/^  squeezeAction: ?string,$/  squeezeAction: ?string,\n  flickAction: ?string,/' \
    "flick needs its machine, struct FlickMachine: GestureMachine, in Sources/GestureRecognizer/Machines/FlickMachine.swift"
refuses "a gesture that says neither one-shot nor phased" 's/doubleTap (one-shot: acted on when it arrives)/doubleTap/' \
    "doubleTap needs a note saying (one-shot: ...) or (phased: ...)"
refuses "two fields on one line" 's/^  mirrorSwitchesTool: ?bool$/  mirrorSwitchesTool: ?bool, quiet: ?bool/' "is not one field"

[ "$failures" = 0 ] || exit 1
echo "generated-names: up to date; the check fails on stale files and regeneration reaches every client"
