#!/usr/bin/env bash
# A one-shot gesture with a machine of its own, added to a copy of the tree the way an engineer
# adds one: barrelClick, a quick click of the third barrel button. Six files are edited by hand
#   1. interfaces/org.pencild.Pen.varlink   its event type, its line among the gestures, its action's preference
#   2. Sources/PencilProtocol/Preferences.swift   its default action
#   3. Sources/GestureRecognizer/Machines/BarrelClickMachine.swift   its machine
#   4. apps/settings/pencil_settings/gestures.py   its action in the settings window
#   5. docs/gestures.md   its section, its default and its machine's diagram
#   6. docs/protocol.md   its event
# and scripts/generate-from-interface writes the rest. Then the copy builds and tests as a whole:
# the Swift package and its tests (the machine's transitions reached and drawn, the gesture played
# and recognised, its clicks kept from the mirror), the fuzz package fuzzed a while, the C and
# Python clients with their tests, the settings window type-checked and the Krita plugin's tests
# that need no Krita. No other file changes.
#
# usage: new-gesture.sh   (make test-new-gesture; PENCILD_RECORDINGS as for make test)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

copy=$(mktemp -d)
# Readable by all: the clients' tests run some programs as other users.
chmod 755 "$copy"
trap 'rm -rf "$copy"' EXIT
tree=$copy/pencild

# The tree as it stands (what git tracks or would), without what builds left in it.
mkdir -p "$tree"
(cd "$top" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$top" && xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh) |
    (cd "$top" && tar -cf - --null -T -) | tar -xf - -C "$tree"
cd "$tree"
git init -q . && git add -A && git -c user.name=check -c user.email=check@localhost commit -qm "the tree"

# 1. The interface.
sed -i -e 's/^\(# eventType names: .*\)$/\1, barrelClick/' \
    -e 's/^\(# gesture names: .*\)$/\1, barrelClick (one-shot: acted on when it arrives)/' \
    -e 's/^  squeezeAction: ?string,$/  squeezeAction: ?string,\n  barrelClickAction: ?string,/' interfaces/org.pencild.Pen.varlink

# 2. Its default.
sed -i 's/^    public var squeezeAction: PreferredAction = .showContextualPalette$/&\n    public var barrelClickAction: PreferredAction = .showColorPalette/' \
    Sources/PencilProtocol/Preferences.swift

# 3. Its machine.
cat > Sources/GestureRecognizer/Machines/BarrelClickMachine.swift <<'EOF'
import PencilProtocol

/// The third barrel button's machine, while neither tapButton nor squeezeButton names it: a
/// click of it, released within tapMaxDuration, is a barrelClick. Its diagram is in
/// docs/gestures.md ("Barrel click machine").
struct BarrelClickMachine: GestureMachine {
    static let name = "barrel click"
    static let mirror = MirrorTreatment.withheld

    static func button(in settings: GestureSettings) -> PenButton? {
        settings.tapButton == .stylus3 || settings.squeezeButton == .stylus3 ? nil : .stylus3
    }

    enum State: String, Sendable { case idle, pressed, held }

    var state = State.idle
    var pressTime: Int64 = 0
    var taken: UInt64 = 0

    var isHoldingButton: Bool { state != .idle }
    var phasedGestureInProgress: (gesture: Gesture, tool: Tool?)? { nil }
    func deadline(_ settings: GestureSettings) -> Int64? { nil }

    mutating func handle(_ input: GestureInput, _ context: GestureContext, _ settings: GestureSettings,
                         into events: inout [Event], log: inout GestureLog) {
        switch (state, input) {
        case (.idle, .press):
            pressTime = context.time
            state = .pressed
            took(.press, &log)
        case (.idle, .reset(buttonHeld: true)):
            state = .held
            took(.idleReset, &log)
        case (.idle, .toolLeft), (.idle, .toolReplaced), (.idle, .deviceRemoved), (.idle, .reset(buttonHeld: false)),
             (.pressed, .motion), (.held, .motion), (.held, .reset(buttonHeld: true)):
            break
        case (.pressed, .release):
            if context.time - pressTime <= settings.tapMaxDuration {
                events.append(Event(type: .barrelClick, time: context.time, device: context.device, tool: context.tool,
                                    pose: context.pose, action: settings.action(for: .barrelClick), focus: Focus.none))
                took(.click, &log)
            } else {
                took(.tooLong, &log)
            }
            state = .idle
        case (.pressed, .toolLeft), (.pressed, .toolReplaced), (.pressed, .deviceRemoved), (.pressed, .reset(buttonHeld: false)):
            state = .idle
            took(.pressedForgotten, &log)
        case (.pressed, .reset(buttonHeld: true)):
            state = .held
            took(.pressedReset, &log)
        case (.held, .release):
            state = .idle
            took(.heldRelease, &log)
        case (.held, .toolLeft), (.held, .toolReplaced), (.held, .deviceRemoved), (.held, .reset(buttonHeld: false)):
            state = .idle
            took(.heldForgotten, &log)
        default:
            bug(input, state: state.rawValue, context, log: &log)
        }
    }

    enum Transition: Int, GestureMachineTransition {
        case press, idleReset, click, tooLong, pressedForgotten, pressedReset, heldRelease, heldForgotten

        var edge: (from: String, to: String, label: String) {
            let forgotten = "toolLeft, toolReplaced, deviceRemoved, reset released"
            switch self {
            case .press: return ("idle", "pressed", "press")
            case .idleReset: return ("idle", "held", "reset, still held")
            case .click: return ("pressed", "idle", "release within tapMaxDuration / barrelClick")
            case .tooLong: return ("pressed", "idle", "release after tapMaxDuration")
            case .pressedForgotten: return ("pressed", "idle", forgotten)
            case .pressedReset: return ("pressed", "held", "reset, still held")
            case .heldRelease: return ("held", "idle", "release")
            case .heldForgotten: return ("held", "idle", forgotten)
            }
        }

        var mirrorMeaning: MirrorMeaning? { nil }
    }

    static func demonstration(of gesture: Gesture, settings: GestureSettings, device: DeviceInfo)
        -> Result<GestureDemonstration.Script, GestureDemonstration.Unplayable>? {
        guard gesture == .barrelClick else { return nil }
        guard let button = button(in: settings) else { return .failure(.switchedOff(preference: "barrelClick")) }
        guard device.buttons.contains(button) else { return .failure(.missingButton(button, preference: "barrelClick")) }
        let hold = min(80_000, settings.tapMaxDuration / 2)
        return .success(GestureDemonstration.Script(changes: [
            GestureDemonstration.ButtonChange(offset: 0, button: button, down: true),
            GestureDemonstration.ButtonChange(offset: hold, button: button, down: false),
        ]))
    }
}
EOF

# 4. The settings window: its action on the Squeeze page.
python3 - apps/settings/pencil_settings/gestures.py <<'EOF'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
page = "        self.squeeze_page.add(self.squeeze_button)\n"
shown = "        self.tap_button.set_value(str(preferences.tap_button or \"stylus\"))\n"
assert page in text and shown in text
text = text.replace(page, page + """        self.barrel_click_action = ActionGroup("When you click the third button", "Press it and let go, quickly",
                                               lambda value: window.send(barrel_click_action=pencild.Action(value)),
                                               "Third-button click")
        self.squeeze_page.add(self.barrel_click_action)
""")
text = text.replace(shown, """        if preferences.barrel_click_action is not None:
            self.barrel_click_action.set_value(preferences.barrel_click_action.value)
""" + shown)
open(path, "w", encoding="utf-8").write(text)
EOF

# 5. docs/gestures.md: what it is, its default, its machine.
python3 - docs/gestures.md <<'EOF'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
default = "| squeezeAction | `showContextualPalette` | the preferred action a squeeze carries |\n"
section = "## Order within one frame\n"
machine = "## The eraser button\n"
assert default in text and section in text and machine in text
text = text.replace(default, default + "| barrelClickAction | `showColorPalette` | the preferred action a barrel click carries |\n")
text = text.replace(section, """## Barrel click

A quick click of the third barrel button (`stylus3`), released within tapMaxDuration, is a
`barrelClick`, while neither tapButton nor squeezeButton names that button. Its clicks never
reach apps.

""" + section)
text = text.replace(machine, """### Barrel click machine

```mermaid
stateDiagram-v2
    [*] --> idle
    idle --> pressed : press
    idle --> held : reset, still held
    pressed --> idle : release within tapMaxDuration / barrelClick
    pressed --> idle : release after tapMaxDuration
    pressed --> idle : toolLeft, toolReplaced, deviceRemoved, reset released
    pressed --> held : reset, still held
    held --> idle : release
    held --> idle : toolLeft, toolReplaced, deviceRemoved, reset released
```

""" + machine)
open(path, "w", encoding="utf-8").write(text)
EOF

# 6. docs/protocol.md: its event.
sed -i 's/^| `squeeze` | `tool`, `pose`, `phase`, `focus`, and `action` with `ended` | gestures.md, "Squeeze" |$/&\n| `barrelClick` | `tool`, `pose`, `action`, `focus` | gestures.md, "Barrel click" |/' docs/protocol.md

scripts/generate-from-interface

# What changed by hand: exactly the six files.
git add -A
hand=$(git diff --cached --name-only | grep -vxF "$(scripts/generate-from-interface --list)" || true)
expected="Sources/GestureRecognizer/Machines/BarrelClickMachine.swift
Sources/PencilProtocol/Preferences.swift
apps/settings/pencil_settings/gestures.py
docs/gestures.md
docs/protocol.md
interfaces/org.pencild.Pen.varlink"
if [ "$hand" = "$expected" ]; then
    pass "six files edited by hand" "$(echo "$hand" | tr '\n' ' ')"
else
    fail "the files edited by hand are not the six:" "$hand"
fi
[ "$(grep -c '^| `barrelClick` ' docs/protocol.md)" = 1 ] || fail "docs/protocol.md did not take the event's row"

export PENCILD_RECORDINGS=${PENCILD_RECORDINGS:-}
step() { # NAME COMMAND...: runs it in the copy, its output kept for a failure
    name=$1
    shift
    local started=$SECONDS
    if "$@" >"$copy/$name.log" 2>&1; then
        pass "$name" "$((SECONDS - started)) s"
    else
        fail "$name" "$(tail -n 40 "$copy/$name.log")"
    fi
}
step "the generated files are up to date" scripts/generate-from-interface --check
step "swift build, every product and test" swift build --build-tests
step "swift test" make --no-print-directory test-swift
grep -q 'barrelClick\|barrel click' "$copy/swift test.log" ||
    fail "swift test ran no test of the new gesture"
step "the fuzz package, fuzzing the pen's path" fuzz/run.sh --seconds 10 fuzz-pen-tracker
# The C client built and tested against the copy's pencild; valgrind, AddressSanitizer and the
# install are test-client-c's in the tree itself, where the same C code runs under them.
step "the C client" sh -c 'meson setup .build-c clients/c -Dpencild-bin-dir="$(swift build --show-bin-path)" &&
    meson compile -C .build-c && meson test -C .build-c --print-errorlogs'
step "the Python client" make --no-print-directory test-client-python
if command -v mypy >/dev/null; then
    step "the settings window, type-checked" env MYPYPATH="$tree/clients/python/src" mypy --ignore-missing-imports \
        --no-error-summary --cache-dir "$copy/mypy" --scripts-are-modules apps/settings/pencil-settings apps/settings/pencil_settings
else
    cannot_check "mypy is not installed: the settings window is not type-checked"
fi
# Krita's plugin takes the gestures from the Python client: its parts that need no Krita.
if /usr/bin/python3 -c 'import PyQt5.QtCore' 2>/dev/null; then
    step "the Krita plugin's parts that need no Krita" sh -c 'cd tests/krita && /usr/bin/python3 -m unittest test_plugin'
else
    cannot_check "PyQt5 is not installed for /usr/bin/python3: the Krita plugin is not tested"
fi
git add -A
stray=$(git status --porcelain --untracked-files=no | grep -v '^M  \|^A  ' || true)
[ -z "$stray" ] || fail "building and testing changed tracked files:" "$stray"

summary
