import JSON
import PencilProtocol
import Varlink

/// The system palette's Pen and Eraser, through pencild: what the pen's tip is reported as
/// through its mirror (ListDevices), and switching it (SetTipTool). One short connection per
/// call, as for chords.
public struct DaemonTipTool: Sendable {
    public let socketPath: String
    public let timeoutMilliseconds: Int

    public init(socketPath: String, timeoutMilliseconds: Int = 1_000) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The tool `device`'s tip is reported as ("pen", "eraser"), nil when it has no mirror,
    /// pencild is away or does not say. Without a device, the one pen that has a mirror.
    public func tipReportedAs(device: String?) -> String? {
        guard let reply = call(PenInterface.Method.listDevices.qualifiedName, .object([])).success,
              let devices = reply["devices"]?.arrayValue else { return nil }
        let mirrored = devices.filter { $0["tipReportedAs"]?.stringValue != nil }
        let chosen = device.map { id in mirrored.first { $0["id"]?.stringValue == id } } ?? (mirrored.count == 1 ? mirrored.first : nil)
        return chosen?["tipReportedAs"]?.stringValue
    }

    /// Switches the tip to `tool`: what it is reported as now, or why not.
    public func set(_ tool: String, device: String?) -> Result<String, TipToolRefusal> {
        var parameters: [(String, JSONValue)] = [("tool", .string(tool))]
        if let device { parameters.append(("device", .string(device))) }
        switch call(PenInterface.Method.setTipTool.qualifiedName, .object(parameters)) {
        case .success(let reply): return .success(reply["tipReportedAs"]?.stringValue ?? tool)
        case .failure(let error):
            guard case .remote(let remote) = error else { return .failure(TipToolRefusal(reason: "pencild: \(error)")) }
            let reason = remote.parameters["reason"]?.stringValue.map { ": \($0)" } ?? ""
            return .failure(TipToolRefusal(reason: "\(remote.name)\(reason)"))
        }
    }

    private func call(_ method: String, _ parameters: JSONValue) -> Result<JSONValue, VarlinkClientError> {
        Result { () throws(VarlinkClientError) in
            try VarlinkClient.call(path: socketPath, timeoutMilliseconds: timeoutMilliseconds, method, parameters)
        }
    }
}

/// Why pencild did not switch the tip.
public struct TipToolRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension Result {
    fileprivate var success: Success? { if case .success(let value) = self { return value } else { return nil } }
}
