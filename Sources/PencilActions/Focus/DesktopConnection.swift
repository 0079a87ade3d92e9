import PencilSystem

/// A connection to the desktop that a C library opened (xcb, Wayland, the session bus): its
/// handle, the descriptor the loop waits on, and the library's call that ends it, made
/// exactly once, when the provider gives the connection up or goes itself.
final class DesktopConnection {
    let handle: OpaquePointer
    let descriptor: FileDescriptor
    private let end: (OpaquePointer) -> Void

    init(_ handle: OpaquePointer, descriptor: Int32, end: @escaping (OpaquePointer) -> Void) {
        self.handle = handle
        self.descriptor = FileDescriptor(rawValue: descriptor)
        self.end = end
    }

    deinit { end(handle) }

    /// The message a C helper wrote into `buffer`, up to its NUL.
    static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
