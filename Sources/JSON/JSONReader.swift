/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "byte \(offset): \(reason)" }
}

/// A strict JSON reader (RFC 8259) with a nesting limit, so hostile input cannot exhaust the stack.
public struct JSONReader {
    public static let defaultMaxDepth = 64

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    public static func parse<C: Collection<UInt8>>(_ bytes: C, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let buffer = Array(bytes)
        var reader = JSONReader(bytes: buffer, maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        if reader.position != buffer.count { throw reader.error("unexpected data after the value") }
        return value
    }

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var position = 0

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func error(_ reason: String) -> JSONParseError { JSONParseError(offset: position, reason: reason) }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw error("invalid literal") }
        position += count
    }

    private mutating func readObject(depth: Int) throws(JSONParseError) -> JSONValue {
        try enterContainer(depth: depth)
        var members: [(String, JSONValue)] = []
        if consume("}") { return .object(members) }
        repeat {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readString()
            skipWhitespace()
            guard consume(":") else { throw error("expected ':'") }
            skipWhitespace()
            members.append((key, try readValue(depth: depth)))
        } while try !endOfElement(closing: "}")
        return .object(members)
    }

    private mutating func readArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try enterContainer(depth: depth)
        var elements: [JSONValue] = []
        if consume("]") { return .array(elements) }
        repeat {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
        } while try !endOfElement(closing: "]")
        return .array(elements)
    }

    /// Steps past a container's opening bracket and the white space after it.
    private mutating func enterContainer(depth: Int) throws(JSONParseError) {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        position += 1
        skipWhitespace()
    }

    /// After a container's element: true at its closing bracket, false at a comma (either consumed).
    private mutating func endOfElement(closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw error("unexpected end of input") }
        if consume(",") { return false }
        if consume(closing) { return true }
        throw error("expected ',' or '\(closing)'")
    }

    /// Steps past `character` when it is next.
    private mutating func consume(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func readString() throws(JSONParseError) -> String {
        position += 1 // opening quote
        var scalars = String.UnicodeScalarView()
        var plainStart = position
        func flushPlain(_ end: Int, into scalars: inout String.UnicodeScalarView) -> Bool {
            guard end > plainStart else { return true }
            guard let text = String(validating: bytes[plainStart..<end], as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            return true
        }
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                guard flushPlain(position, into: &scalars) else { throw error("invalid UTF-8 in string") }
                position += 1
                return String(scalars)
            }
            if c < 0x20 { throw error("control character in string") }
            if c != UInt8(ascii: "\\") { position += 1; continue }
            guard flushPlain(position, into: &scalars) else { throw error("invalid UTF-8 in string") }
            position += 1
            guard position < bytes.count else { throw error("unterminated string") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try readHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate in \\u escape")
                    }
                    position += 2
                    let low = try readHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("lone surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            default:
                throw error("invalid escape")
            }
            plainStart = position
        }
    }

    private mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw JSONParseError(offset: start, reason: "number out of range") }
        return .double(value)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
