import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// Where a command writes: a descriptor (buffered; flushed at the end and when asked), or
/// memory for tests. Lines for a person are `TerminalMessage`s, whose values are escaped where
/// they are put in; what is written raw (JSON, evemu, a screen) is made safe by its writer.
public final class CommandOutput {
    private let descriptor: FileDescriptor?
    private var buffer: [UInt8] = []
    /// Everything written, when capturing.
    public private(set) var captured: [UInt8] = []

    private init(descriptor: FileDescriptor?) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    public static func standardOutput() -> CommandOutput { CommandOutput(descriptor: FileDescriptor(rawValue: 1)) }
    public static func standardError() -> CommandOutput { CommandOutput(descriptor: FileDescriptor(rawValue: 2)) }
    public static func capturing() -> CommandOutput { CommandOutput(descriptor: nil) }

    public var capturedText: String { String(decoding: captured, as: UTF8.self) }

    public func write(_ bytes: [UInt8]) {
        guard descriptor != nil else {
            captured.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes a line for a person: the message, and a newline.
    public func line(_ message: TerminalMessage) { write(message.text + "\n") }

    /// Writes a line whose text is safe already (a JSON document, a line whose untrusted
    /// parts were escaped where they were put in), and a newline.
    public func rawLine(_ text: String) { write(text + "\n") }

    /// Hands what is buffered to the descriptor. A reader that went away (EPIPE) is not an
    /// error of the command's: what is left is dropped.
    public func flush() {
        guard let descriptor, !buffer.isEmpty else { return }
        try? descriptor.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
