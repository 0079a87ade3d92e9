import PencilActions
import PencilDevices
import PencilProtocol
import PencilSystem
import Testing
import Varlink

@Suite("The seat's keyboard: which chords, and who presses them")
struct SeatKeyboardTests {
    static func chord(_ text: String) throws -> KeyChord { try KeyChord.parse(text).get() }

    @Test("every key of the example bindings is allowed, and so are the chords next to each refused one")
    func allowedNeighbours() throws {
        for text in ["e", "slash", "shift+i", "f5", "f6", "shift+e", "ctrl+shift+b", "ctrl+shift+e", "f9", "f12", "ctrl+z",
                     "ctrl+shift+z", "alt+e", "ctrl+left", "super+space", "ctrl+shift+delete", "ctrl+backspace", "kp5", "esc"] {
            #expect(ChordPolicy.refusal(of: try Self.chord(text)) == nil, "\(text)")
        }
    }

    @Test("power, sleep, SysRq, the lock keys, and chords that switch terminals or end the display server are refused",
          arguments: ["power", "sleep", "wakeup", "sysrq", "alt+sysrq", "capslock", "numlock", "pause", "mute",
                      "alt+f2", "ctrl+alt+f1", "rightalt+f12", "alt+left", "alt+right", "ctrl+alt+backspace",
                      "ctrl+alt+delete", "ctrl+alt+kpdot"])
    func refused(text: String) throws {
        let refusal = ChordPolicy.refusal(of: try Self.chord(text))
        #expect(refusal != nil, "\(text)")
        #expect(refusal?.reason.isEmpty == false)
    }

    @Test("pencild's refusals are final, its missing keyboard leaves another")
    func outcomes() {
        func remote(_ name: PenInterface.ErrorName, _ parameters: [(String, JSONValue)] = []) -> VarlinkClientError {
            .remote(VarlinkError(name: name.qualifiedName, parameters: .object(parameters)))
        }
        #expect(DaemonKeyboard.outcome(of: remote(.keyNotAllowed, [("key", .string("power")), ("reason", .string("no"))])) == .refused("pencild does not press power: no"))
        if case .refused = DaemonKeyboard.outcome(of: remote(.permissionDenied)) {} else { Issue.record("PermissionDenied is a refusal") }
        if case .unavailable = DaemonKeyboard.outcome(of: remote(.keyboardUnavailable, [("reason", .string("x"))])) {} else { Issue.record("KeyboardUnavailable leaves another keyboard") }
        if case .unavailable = DaemonKeyboard.outcome(of: .remote(.methodNotFound("org.pencild.Pen.PressChord"))) {} else { Issue.record("an older pencild leaves another keyboard") }
        if case .unavailable = DaemonKeyboard.outcome(of: .closed) {} else { Issue.record("pencild away leaves another keyboard") }
        #expect(DaemonKeyboard.parameters(try! Self.chord("ctrl+z"), device: "event7")
                == .object([("keys", .array([.string("leftctrl"), .string("z")])), ("device", .string("event7"))]))
    }
}

@Suite struct PerformerKeyboardTests {
    /// A performer whose own keyboard cannot be made, and the chords pencild was asked for.
    final class Asked: @unchecked Sendable { var chords: [String] = [] }

    static func performer(answer: DaemonChordOutcome, asked: Asked) throws -> ActionPerformer {
        let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 2, log: ActionsLog(verbose: false),
                                        daemonKeyboard: { chord, device in
                                            asked.chords.append("\(chord) \(device ?? "-")")
                                            return answer
                                        },
                                        makeKeyboard: { _ throws(Errno) in throw Errno.permissionDenied })
        performer.use(try ActionsConfig.parse("[switchEraser]\nkey = ctrl+e", file: "f"))
        return performer
    }

    @Test("a chord goes to pencild's keyboard first; without an own keyboard nothing is missing")
    func daemonFirst() throws {
        let asked = Asked()
        let performer = try Self.performer(answer: .pressed, asked: asked)
        #expect(performer.keyboardProblem?.contains("chords go to pencild's keyboard") == true, "\(performer.keyboardProblem ?? "nil")")
        performer.perform(GestureRequest(action: .switchEraser, event: nil), now: 0)
        #expect(asked.chords == ["leftctrl+e -"])
        #expect(performer.player.isIdle)
    }

    @Test("a refused chord is pressed by neither keyboard, whatever the bindings; its allowed neighbour is",
          arguments: [("alt+f2", "f2"), ("ctrl+alt+delete", "ctrl+delete"), ("power", "e")])
    func refusedChordsAreNotPressed(refused: String, neighbour: String) throws {
        // Bindings made in code, past the file's check: the press refuses them too, before
        // either keyboard (pencild's is asked first, the own one only when pencild has none).
        func perform(_ text: String, daemon: DaemonChordOutcome) throws -> [String] {
            let asked = Asked()
            let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 2, log: ActionsLog(verbose: false),
                                            daemonKeyboard: { chord, _ in
                                                asked.chords.append("\(chord)")
                                                return daemon
                                            },
                                            makeKeyboard: { _ throws(Errno) in throw Errno.permissionDenied })
            performer.use(ActionBindings(bindings: [.switchEraser: .key(try KeyChord.parse(text).get())]))
            performer.perform(GestureRequest(action: .switchEraser, event: nil), now: 0)
            return asked.chords
        }
        #expect(try perform(refused, daemon: .pressed).isEmpty, "pencild was asked for \(refused)")
        #expect(try perform(neighbour, daemon: .pressed).count == 1)
    }

    @Test("the own keyboard is made for the keys the policy allows, never for one it refuses")
    func theOwnKeyboardHasOnlyAllowedKeys() throws {
        let sent = Asked()
        let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 2, log: ActionsLog(verbose: false),
                                        daemonKeyboard: { _, _ in .unavailable("no keyboard") },
                                        makeKeyboard: { keys throws(Errno) in
                                            sent.chords.append(keys.sorted().map(KeyNames.name(of:)).joined(separator: ","))
                                            throw Errno.permissionDenied
                                        })
        performer.use(ActionBindings(bindings: [.switchEraser: .key(try KeyChord.parse("power").get()),
                                                .switchPrevious: .key(try KeyChord.parse("ctrl+delete").get())]))
        // Ctrl and Delete, for the allowed chord; Power is no key of this keyboard.
        #expect(sent.chords == ["leftctrl,delete"])
    }

    @Test("no gesture is performed while the session is not the active one, and again once it is")
    func inactiveSession() throws {
        let asked = Asked()
        let performer = try Self.performer(answer: .pressed, asked: asked)
        performer.sessionChanged(active: false)
        performer.perform(GestureRequest(action: .switchEraser, event: nil), now: 0)
        #expect(asked.chords.isEmpty, "performed while another session held the seat")
        performer.sessionChanged(active: true)
        performer.perform(GestureRequest(action: .switchEraser, event: nil), now: 0)
        #expect(asked.chords.count == 1)
    }

    @Test("no own keyboard is made while the session is inactive; back, it is made for the bindings then in force")
    func ownKeyboardFollowsTheSession() throws {
        let asked = Asked()
        let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 2, log: ActionsLog(verbose: false),
                                        daemonKeyboard: { _, _ in .unavailable("none") },
                                        makeKeyboard: { keys throws(Errno) in
                                            asked.chords.append(keys.sorted().map(KeyNames.name(of:)).joined(separator: ","))
                                            throw Errno.permissionDenied
                                        })
        performer.use(try ActionsConfig.parse("[switchEraser]\nkey = e", file: "f"))
        #expect(asked.chords == ["e"])
        performer.sessionChanged(active: false)
        performer.use(try ActionsConfig.parse("[switchEraser]\nkey = f6", file: "f"))
        #expect(asked.chords == ["e"], "a keyboard was made while another session held the seat")
        performer.sessionChanged(active: true)
        #expect(asked.chords == ["e", "f6"])
    }
}
