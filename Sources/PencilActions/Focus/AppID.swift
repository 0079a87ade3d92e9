import PencilSystem

/// The app ids desktops hand us, made safe to compare, log and show: another client names
/// its own window class, so the text is anyone's.
public enum AppID {
    /// Longer ids are cut off here: a real one is a short name.
    public static let maximumBytes = 255

    /// `bytes` as an app id: at most `maximumBytes`, valid UTF-8, without control characters,
    /// or nil (no usable id: the fallback).
    public static func sanitized<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        guard !bytes.isEmpty, bytes.count <= maximumBytes else { return nil }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text
    }

    public static func sanitized(_ text: String) -> String? { sanitized(Array(text.utf8)) }
}
