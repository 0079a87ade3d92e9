// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
import PencilProtocol
import Varlink

/// Each method's parameters, read from a call as the interface declares them: one that is
/// missing (unless optional), null where it may not be, or of another kind throws its name, and
/// the call is answered InvalidParameter with it. Parameters the interface does not declare are
/// passed over. A parameter of one of the interface's own types stays JSON, for its handler to read.
enum PenParameters {
    struct ListDevices: Sendable {
        init(_ parameters: ParameterReader) {}
    }

    struct Monitor: Sendable {
        var devices: [String]?
        var events: [String]?

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            devices = try parameters.optional("devices", .strings)
            events = try parameters.optional("events", .strings)
        }
    }

    struct GetPreferences: Sendable {
        init(_ parameters: ParameterReader) {}
    }

    struct SetPreferences: Sendable {
        var preferences: JSONValue

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            preferences = try parameters.required("preferences", .json)
        }
    }

    struct SetFocus: Sendable {
        var focused: Bool

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            focused = try parameters.required("focused", .bool)
        }
    }

    struct PressChord: Sendable {
        var device: String?
        var keys: [String]

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            device = try parameters.optional("device", .string)
            keys = try parameters.required("keys", .strings)
        }
    }

    struct PlayGesture: Sendable {
        var device: String?
        var gesture: String

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            device = try parameters.optional("device", .string)
            gesture = try parameters.required("gesture", .string)
        }
    }

    struct SetTipTool: Sendable {
        var device: String?
        var tool: String

        init(_ parameters: ParameterReader) throws(InvalidParameter) {
            device = try parameters.optional("device", .string)
            tool = try parameters.required("tool", .string)
        }
    }
}
