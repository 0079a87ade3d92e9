#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses the command line (corpus folders, -max_total_time=...) and
/// calls `callback` with each input it makes. Part of the fuzzer runtime that
/// `-sanitize=fuzzer` links in.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The function being fuzzed. A C callback cannot capture it, so it waits here; it is set
/// once, before the driver starts, and libFuzzer calls it from one thread.
nonisolated(unsafe) private var fuzzedFunction: ((UnsafeRawBufferPointer) -> Void)?

/// Runs libFuzzer on `body` with this process's arguments and exits with its status.
/// `body` signals a finding by trapping (precondition, fatalError), which libFuzzer reports
/// with the input that caused it.
public func runFuzzer(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    fuzzedFunction = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        fuzzedFunction?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
    exit(status)
}

/// Reads a fuzz input front to back; reads past the end give zeros.
public struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    public private(set) var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var isAtEnd: Bool { offset >= bytes.count }
    public var remaining: Int { max(bytes.count - offset, 0) }

    public mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    public mutating func int32() -> Int32 {
        Int32(bitPattern: UInt32(uint16()) | UInt32(uint16()) << 16)
    }

    /// The rest of the input.
    public mutating func rest() -> UnsafeRawBufferPointer {
        guard offset < bytes.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        defer { offset = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset...])
    }
}

/// A finding unless `condition` holds. Unlike precondition(), its message survives -O, so
/// the fuzzer's log says what went wrong.
@inline(__always)
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                  file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError(message(), file: file, line: line) }
}
