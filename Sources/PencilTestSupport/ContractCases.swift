import PencilProtocol

/// The contract's conformance cases (tests/contract/closeout.jsonl): the same lines that the
/// C and Python libraries run, read here for the Swift client and the daemon.
public struct ContractCase: Sendable {
    public var name: String
    /// The events a subscriber receives, as the wire writes them.
    public var stream: [JSONValue]
    /// For each line of `stream`, what a library reads from it (`{"rejected": true}`: refused);
    /// the line itself when the case gives none.
    public var decoded: [JSONValue]
    /// The closing events, in order, when the stream ends there.
    public var closing: [JSONValue]
    /// The frames that make `stream` on the test pen, for the daemon: `[milliseconds, [[type, code, value]]]`.
    public var evdev: [JSONValue]?

    public static let rejected = JSONValue.object([("rejected", .bool(true))])

    /// Every case, in file order.
    public static func load(filePath: String = #filePath) throws -> [ContractCase] {
        let folder = filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        let path = folder + "/tests/contract/closeout.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let json = try JSONReader.parse(String(line))
            let stream = json["stream"]?.arrayValue ?? []
            return ContractCase(name: json["case"]?.stringValue ?? "?", stream: stream,
                                decoded: json["decoded"]?.arrayValue ?? stream.map(Self.comparedPart),
                                closing: json["closing"]?.arrayValue ?? [], evdev: json["evdev"]?.arrayValue)
        }
    }

    /// The members of an event that the cases compare.
    public static let comparedMembers = ["type", "time", "device", "tool", "pose", "button", "phase", "action", "focus"]

    public static func comparedPart(_ event: JSONValue) -> JSONValue {
        .object(comparedMembers.compactMap { key in event[key].map { (key, $0) } })
    }

    /// An event in the cases' form: names as text, only the members present.
    public static func canonical(type: String, time: Int64, device: String?, tool: (type: String, serial: Int64, id: Int64)?,
                                 pose: Pose?, button: String?, phase: String?, action: String?, focus: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(type)), ("time", .int(time))]
        if let device { members.append(("device", .string(device))) }
        if let tool { members.append(("tool", .object([("type", .string(tool.type)), ("serial", .int(tool.serial)), ("id", .int(tool.id))]))) }
        if let pose { members.append(("pose", canonical(pose))) }
        for (key, value) in [("button", button), ("phase", phase), ("action", action), ("focus", focus)] {
            if let value { members.append((key, .string(value))) }
        }
        return .object(members)
    }

    static func canonical(_ pose: Pose) -> JSONValue {
        var members: [(String, JSONValue)] = [("x", .double(pose.x)), ("y", .double(pose.y)), ("pressure", .double(pose.pressure))]
        let optional: [(String, Double?)] = [
            ("xMillimeters", pose.xMillimeters), ("yMillimeters", pose.yMillimeters), ("zOffset", pose.zOffset),
            ("tiltX", pose.tiltX), ("tiltY", pose.tiltY), ("azimuth", pose.azimuth), ("altitude", pose.altitude),
            ("roll", pose.roll), ("slider", pose.slider), ("wheel", pose.wheel),
        ]
        for (key, value) in optional { if let value { members.append((key, .double(value))) } }
        return .object(members)
    }

    /// `value` without the member `key` at any depth of the top object (the daemon's side
    /// compares without `focus`, which the service adds per stream).
    public static func removing(_ key: String, from value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        return .object(members.filter { $0.0 != key })
    }
}
